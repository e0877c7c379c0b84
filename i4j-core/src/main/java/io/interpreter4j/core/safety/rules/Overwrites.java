package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Place;
import java.util.List;
import java.util.Set;

/**
 * Bulk overwrites and deletions that do not look like rm: extracting an archive over a folder (tar -x -C, unzip -d,
 * 7z x -o), and synchronising into a folder with deletion (rsync --delete, rclone sync). Judged by the place of
 * the destination: the project or a folder the block made is fine, the home, its dot-files and system folders are not.
 */
public final class Overwrites implements RuleFamily {

  static final Set<String> TOOLS = Set.of("tar", "bsdtar", "gtar", "unzip", "7z", "7za", "7zz", "unrar", "rsync", "rclone");

  @Override
  public void judge(ToolCall call, Block block) {
    switch (call.tool()) {
      case "tar", "bsdtar", "gtar" -> tar(call, block);
      case "unzip" -> {
        if (call.has("-l", "-t", "-v", "-Z", "-p", "-c", "-z")) {
          return;
        }
        String dir = call.value("-d");
        extractInto(dir == null ? "." : dir, call, block);
      }
      case "7z", "7za", "7zz" -> {
        String verb = call.verb();
        if (verb.equals("x") || verb.equals("e")) {
          String dir = call.args().stream().filter(a -> a.startsWith("-o") && a.length() > 2).map(a -> a.substring(2))
              .reduce((a, b) -> b).orElse(".");
          extractInto(dir, call, block);
        }
      }
      case "unrar" -> {
        List<String> w = call.words();
        if (!w.isEmpty() && (w.get(0).equals("x") || w.get(0).equals("e"))) {
          extractInto(w.size() > 2 ? w.get(w.size() - 1) : ".", call, block);
        }
      }
      case "rsync" -> {
        if (!RemoteSystems.deletes(call) || call.dryRun() || call.hasShort('n')) {
          return;
        }
        List<String> ops = call.operands(List.of("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chmod",
            "--chown", "--files-from", "--exclude-from", "--include-from", "--backup-dir", "--suffix", "-T",
            "--temp-dir", "--port", "--password-file", "--log-file", "--partial-dir", "--max-size", "--min-size",
            "--timeout"));
        if (ops.size() >= 2 && !RemoteSystems.isRemoteOperand(ops.get(ops.size() - 1))) {
          syncInto(ops.get(ops.size() - 1), "rsync --delete", block);
        }
      }
      case "rclone" -> {
        List<String> w = call.words();
        if (call.dryRun() || w.isEmpty()) {
          return;
        }
        String verb = w.get(0);
        if ((verb.equals("sync") || verb.equals("move")) && w.size() >= 3) {
          String dest = w.get(2);
          if (dest.contains(":") && !dest.startsWith("/")) {
            block.flag(Flag.high("cloud-delete", "deletes files on a remote that are missing from the source (rclone "
                + verb + " to " + dest + ")"));
          } else {
            syncInto(dest, "rclone " + verb, block);
          }
        } else if (Set.of("delete", "purge", "deletefile", "rmdirs", "cleanup").contains(verb)) {
          block.flag(Flag.high("cloud-delete", "deletes files (" + call.line() + ")"));
        }
      }
      default -> {
        // not an archive or sync tool
      }
    }
  }

  private static void tar(ToolCall call, Block block) {
    boolean extract = call.has("-x", "--extract", "--get") || call.hasShort('x');
    List<String> args = call.args();
    if (!extract && !args.isEmpty()) {
      String first = args.get(0);
      // "tar xzf a.tgz" and "tar -xzf a.tgz": the first word is a cluster of letters holding x
      boolean cluster = first.startsWith("-") ? !first.startsWith("--") : first.chars().allMatch(Character::isLetter);
      extract = cluster && first.indexOf('x') >= 0;
    }
    if (!extract || call.has("-t", "--list")) {
      return;
    }
    if (call.has("-P", "--absolute-names")) {
      block.flag(Flag.high("extract-over", "extracts an archive with absolute paths, which may overwrite any file (tar -P)"));
      return;
    }
    String dir = call.value("-C", "--directory");
    extractInto(dir == null ? "." : dir, call, block);
  }

  private static void extractInto(String dir, ToolCall call, Block block) {
    Place p = block.place(dir);
    if (p.isProtected() && p != Place.HOME_FILES) {
      block.flag(Flag.high("extract-over", "extracts an archive over " + p.describe() + " (" + dir + "), replacing its files"));
    }
  }

  private static void syncInto(String dest, String how, Block block) {
    Place p = block.place(dest);
    if (p.isProtected() || p == Place.WORKDIR) {
      block.flag(Flag.high("sync-delete", "deletes whatever in " + p.describe() + " (" + dest + ") is missing from the source ("
          + how + ")"));
    } else if (p == Place.UNKNOWN || p == Place.ELSEWHERE) {
      block.flag(Flag.medium("sync-delete", "deletes files in " + dest + " missing from the source (" + how + ")"));
    }
  }
}
