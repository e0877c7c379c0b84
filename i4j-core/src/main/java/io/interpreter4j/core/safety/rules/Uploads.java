package io.interpreter4j.core.safety.rules;

import java.util.List;
import java.util.Set;

/**
 * Commands that send local files to another machine: gists, snippets and release assets on a forge, objects in cloud
 * storage, file-sharing tools. Each file they send is handed to the block, which judges it like a file posted with
 * curl: a secret sent anywhere is exfiltration, the project's own files are the usual work.
 */
public final class Uploads implements RuleFamily {

  static final Set<String> TOOLS = Set.of(
      "gh", "glab", "aws", "gsutil", "gcloud", "az", "rclone", "s3cmd", "s5cmd", "mc", "azcopy", "b2", "croc",
      "wormhole", "magic-wormhole", "pastebinit", "transfer", "ffsend", "kubectl", "oc", "docker", "podman", "lftp",
      "smbclient", "mail", "mailx", "mutt", "neomutt", "swaks");

  private static final List<String> GH_OPTIONS_WITH_VALUE = List.of(
      "-d", "--desc", "-f", "--filename", "-R", "--repo", "-t", "--title", "-n", "--notes", "-F", "--notes-file",
      "--target", "--discussion-category", "-c", "--clobber", "-v", "--visibility", "--notes-start-tag");

  @Override
  public void judge(ToolCall call, Block block) {
    List<String> ops;
    switch (call.tool()) {
      case "gh", "glab" -> {
        ops = call.operands(GH_OPTIONS_WITH_VALUE);
        if (ops.size() >= 3 && (ops.get(0).equals("gist") || ops.get(0).equals("snippet"))
            && ops.get(1).equals("create")) {
          send(ops.subList(2, ops.size()), block);
        } else if (ops.size() >= 2 && (ops.get(0).equals("gist") || ops.get(0).equals("snippet"))
            && ops.get(1).equals("edit")) {
          sendValue(call, block, "-a", "--add");
        } else if (ops.size() >= 4 && ops.get(0).equals("release")
            && (ops.get(1).equals("create") || ops.get(1).equals("upload"))) {
          send(ops.subList(3, ops.size()), block);
        }
        if (call.tool().equals("glab") && ops.size() >= 2 && ops.get(0).equals("snippet")) {
          sendValue(call, block, "-f", "--filename");
        }
      }
      case "aws" -> {
        ops = call.operands(List.of("--region", "--profile", "--endpoint-url", "--exclude", "--include", "--acl",
            "--storage-class", "--sse", "--content-type", "--expires", "--grants", "--metadata"));
        if (ops.size() >= 4 && ops.get(0).equals("s3") && Set.of("cp", "mv", "sync").contains(ops.get(1))
            && isRemote(ops.get(3))) {
          block.sends(ops.get(2));
        }
        sendValue(call, block, "--body");
      }
      case "gsutil", "s3cmd", "s5cmd", "mc", "azcopy", "rclone" ->
          copyToRemote(block, call.operands(List.of("-h", "-o", "--config", "--exclude", "--include", "--region")));
      case "gcloud" -> {
        ops = call.operands(List.of("--project", "--region", "--zone", "--format", "--account"));
        if (ops.size() >= 2 && ops.get(0).equals("storage")) {
          copyToRemote(block, ops.subList(1, ops.size()));
        }
      }
      case "az" -> {
        if (call.words().stream().anyMatch(w -> w.startsWith("upload"))) {
          sendValue(call, block, "-f", "--file", "--source", "-s");
        }
      }
      case "b2" -> {
        ops = call.operands(List.of("--contentType", "--info", "--sha1"));
        if (ops.size() >= 3 && (ops.get(0).equals("upload-file") || ops.get(0).equals("upload_file"))) {
          block.sends(ops.get(2));
        }
      }
      case "croc", "wormhole", "magic-wormhole", "ffsend" -> {
        ops = call.operands(List.of("--code", "--text", "-c"));
        if (ops.size() >= 2 && (ops.get(0).equals("send") || ops.get(0).equals("upload"))) {
          send(ops.subList(1, ops.size()), block);
        }
      }
      case "pastebinit", "transfer" -> send(call.operands(List.of("-b", "-t", "-f", "-a", "-u", "-p", "-i")), block);
      case "kubectl", "oc", "docker", "podman" -> {
        ops = call.operands(List.of("-n", "--namespace", "-c", "--container", "--context"));
        if (ops.size() >= 3 && ops.get(0).equals("cp") && ops.get(ops.size() - 1).contains(":")
            && !ops.get(1).contains(":")) {
          block.sends(ops.get(1));
        }
      }
      case "lftp", "smbclient" -> {
        // put commands arrive in -c/-e scripts: each "put FILE" sends FILE
        String script = call.value("-c", "-e");
        if (script != null) {
          for (String cmd : script.split("[;\n]")) {
            String[] w = cmd.strip().split("\\s+");
            if (w.length >= 2 && (w[0].equals("put") || w[0].equals("mput"))) {
              block.sends(w[1]);
            }
          }
        }
      }
      case "mail", "mailx", "mutt", "neomutt" -> sendValue(call, block, "-A", "-a", "--attach");
      case "swaks" -> sendValue(call, block, "--attach", "--attach-body");
      default -> {
        // not an upload tool
      }
    }
  }

  private static void copyToRemote(Block block, List<String> ops) {
    int k = !ops.isEmpty() && ops.get(0).equals("-m") ? 1 : 0;
    if (ops.size() < k + 3) {
      return;
    }
    String verb = ops.get(k);
    if (!Set.of("cp", "mv", "sync", "rsync", "copy", "copyto", "move", "moveto", "put").contains(verb)) {
      return;
    }
    List<String> paths = ops.subList(k + 1, ops.size());
    if (isRemote(paths.get(paths.size() - 1))) {
      for (String p : paths.subList(0, paths.size() - 1)) {
        if (!isRemote(p)) {
          block.sends(p);
        }
      }
    }
  }

  /** {@code s3://b/k}, {@code gs://b}, {@code remote:path}, {@code https://...}. */
  private static boolean isRemote(String s) {
    if (s.contains("://")) {
      return !s.startsWith("file://");
    }
    int colon = s.indexOf(':');
    int slash = s.indexOf('/');
    return colon > 0 && (slash < 0 || colon < slash) && !s.startsWith("$") && !s.startsWith("~");
  }

  private static void send(List<String> files, Block block) {
    for (String f : files) {
      if (!f.equals("-") && !isRemote(f)) {
        block.sends(f);
      }
    }
  }

  private static void sendValue(ToolCall call, Block block, String... options) {
    List<String> args = call.args();
    for (int k = 0; k < args.size(); k++) {
      for (String o : options) {
        String a = args.get(k);
        String v = null;
        if (a.equals(o) && k + 1 < args.size()) {
          v = args.get(k + 1);
        } else if (o.startsWith("--") && a.startsWith(o + "=")) {
          v = a.substring(o.length() + 1);
        }
        if (v != null) {
          block.sends(v.startsWith("fileb://") ? v.substring(8) : v.startsWith("file://") ? v.substring(7) : v);
        }
      }
    }
  }
}
