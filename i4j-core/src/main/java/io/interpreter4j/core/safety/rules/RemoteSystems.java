package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Place;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Tools that act on other machines: forges (git push, gh), clusters (kubectl, helm), infrastructure (terraform,
 * pulumi), clouds (aws, gcloud, az and their kin), package registries (publish) and remote shells (ssh). Judged by
 * verb: what deletes, destroys, overwrites history or takes a service down is HIGH; what reads, plans or dry-runs is
 * not; the same tools on a repository or folder the block made itself are the block's own business.
 */
public final class RemoteSystems implements RuleFamily {

  /** Verbs (or verb prefixes ending in '-') that destroy or take down something on a remote system. */
  private static final Set<String> DESTRUCTIVE_VERBS = Set.of(
      "delete", "rm", "rb", "remove", "destroy", "terminate", "purge", "drop", "stop", "deallocate", "reset", "wipe",
      "prune", "truncate", "deregister", "erase", "unpublish", "yank", "uninstall", "deletefile", "rmdir", "rmdirs",
      "delete-batch", "disable", "suspend", "revoke", "cancel", "detach", "deprovision", "decommission", "flush",
      "flushall", "empty", "abandon", "force-delete", "undeploy", "kill", "restore");
  private static final List<String> DESTRUCTIVE_PREFIXES = List.of(
      "delete-", "remove-", "terminate-", "stop-", "deregister-", "purge-", "detach-", "disable-", "revoke-", "reset-",
      "cancel-", "disassociate-", "reboot-", "destroy-", "apps:destroy", "pg:reset", "pg:killall", "ps:stop",
      "sites:delete", "firestore:delete", "database:remove", "hosting:disable", "functions:delete", "projects:delete");
  private static final Set<String> CLOUD_CLIS = Set.of(
      "aws", "gcloud", "az", "doctl", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "supabase", "wrangler",
      "mc", "s3cmd", "linode-cli", "hcloud", "scw", "ibmcloud", "oci", "openstack", "eksctl", "exo", "upcloud", "vultr-cli",
      "railway", "render", "gsutil", "nomad", "consul", "vault", "aliyun", "tccli", "databricks", "snow", "atlas",
      "mongocli", "planetscale", "pscale", "neonctl", "turso", "glab", "gh", "rclone", "azcopy", "b2", "s5cmd");
  private static final Set<String> PUBLISHERS = Set.of("npm", "pnpm", "yarn", "bun");
  private static final Set<String> KUBE = Set.of("kubectl", "oc", "k");
  private static final Set<String> KUBE_DESTRUCTIVE = Set.of(
      "delete", "drain", "cordon", "taint", "replace", "uncordon");
  private static final List<String> KUBE_OPTIONS_WITH_VALUE = List.of(
      "-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-l", "--selector", "-o", "--output",
      "-f", "--filename", "-c", "--container", "--field-selector", "--as", "--server", "-s", "--token", "--timeout",
      "--grace-period", "--replicas", "-p", "--patch", "--type", "-k", "--kustomize");
  private static final Set<String> IAC = Set.of("terraform", "tofu", "terragrunt", "terraform.exe");
  private static final Set<String> IAC_DESTRUCTIVE = Set.of(
      "apply", "destroy", "import", "taint", "untaint", "force-unlock", "refresh");
  private static final List<String> SSH_OPTIONS_WITH_VALUE = List.of(
      "-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-I", "-m", "-O", "-Q", "-S", "-W",
      "-w", "-B");

  static final Set<String> TOOLS = tools();

  private static Set<String> tools() {
    java.util.HashSet<String> all = new java.util.HashSet<>(CLOUD_CLIS);
    all.addAll(PUBLISHERS);
    all.addAll(KUBE);
    all.addAll(IAC);
    all.addAll(List.of("curl", "wget", "http", "https", "xh", "git", "helm", "pulumi", "cdk", "serverless", "sls", "sam",
        "ansible-playbook", "ansible",
        "twine", "gem", "cargo", "poetry", "flit", "hatch", "uv", "docker", "podman", "ssh", "mvn", "gradle", "vsce",
        "ovsx", "dotnet", "rsync"));
    return Set.copyOf(all);
  }

  @Override
  public void judge(ToolCall call, Block block) {
    String tool = call.tool();
    if (tool.equals("git")) {
      git(call, block);
    } else if (KUBE.contains(tool)) {
      kubectl(call, block);
    } else if (tool.equals("helm")) {
      helm(call, block);
    } else if (IAC.contains(tool)) {
      terraform(call, block);
    } else if (tool.equals("pulumi") || tool.equals("cdk") || tool.equals("serverless") || tool.equals("sls")
        || tool.equals("sam")) {
      stackTool(call, block);
    } else if (tool.equals("ansible-playbook") || tool.equals("ansible")) {
      ansible(call, block);
    } else if (tool.equals("ssh")) {
      ssh(call, block);
    } else if (tool.equals("rsync")) {
      rsyncRemote(call, block);
    } else if (tool.equals("curl") || tool.equals("wget") || tool.equals("http") || tool.equals("https")
        || tool.equals("xh")) {
      httpMethod(call, block);
    } else if (tool.equals("gsutil") && call.words().contains("rsync") && call.hasShort('d')) {
      block.flag(Flag.high("cloud-delete", "deletes objects missing from the source (gsutil rsync -d)"));
    } else {
      if (publishes(call)) {
        block.flag(Flag.high("publish", "publishes to a public registry (" + call.line() + ")"));
        return;
      }
      if (CLOUD_CLIS.contains(tool)) {
        cloud(call, block);
      }
    }
  }

  // ---------------------------------------------------------------- forges

  private static void git(ToolCall call, Block block) {
    List<String> ops = call.operands(List.of("-C", "-c", "--git-dir", "--work-tree", "--namespace"));
    if (ops.isEmpty()) {
      return;
    }
    String sub = ops.get(0);
    if (sub.equals("remote") && ops.size() >= 4 && ops.get(1).equals("add")) {
      if (isLocalPath(ops.get(3), block)) {
        block.facts().localRemote(ops.get(2));
      }
      return;
    }
    if (!sub.equals("push") || call.dryRun() || call.has("-n")) {
      return;
    }
    List<String> rest = ops.subList(1, ops.size());
    if (!rest.isEmpty() && (block.facts().isLocalRemote(rest.get(0)) || isLocalPath(rest.get(0), block))) {
      return;
    }
    for (String a : call.args()) {
      boolean shortForce = a.startsWith("-") && !a.startsWith("--") && a.indexOf('f') > 0;
      if (a.equals("--force") || a.startsWith("--force-with-lease") || a.equals("--force-if-includes") || shortForce
          || a.equals("--mirror")) {
        block.flag(Flag.high("git-force-push", "force-pushes, which can overwrite remote history (git push " + a + ")"));
        return;
      }
      if (a.equals("--delete") || a.equals("-d") || a.equals("--prune")) {
        block.flag(Flag.high("git-push-delete", "deletes branches or tags on the remote (git push " + a + ")"));
        return;
      }
    }
    for (String r : rest.size() > 1 ? rest.subList(1, rest.size()) : List.<String>of()) {
      if (r.startsWith("+") && r.length() > 1) {
        block.flag(Flag.high("git-force-push", "force-pushes, which can overwrite remote history (git push ... " + r + ")"));
        return;
      }
      if (r.startsWith(":") && r.length() > 1) {
        block.flag(Flag.high("git-push-delete", "deletes " + r.substring(1) + " on the remote (git push ... " + r + ")"));
        return;
      }
    }
  }

  /** A folder or file URL on this machine outside what the user keeps: a bare repository the block made. */
  private static boolean isLocalPath(String s, Block block) {
    String path = s.startsWith("file://") ? s.substring(7) : s;
    if (!(path.startsWith("/") || path.startsWith(".") || path.startsWith("~") || path.startsWith("$"))) {
      return false;
    }
    Place p = block.place(path);
    return p == Place.PROJECT || p == Place.WORKDIR || p == Place.ELSEWHERE;
  }

  // ---------------------------------------------------------------- clusters and infrastructure

  private static void kubectl(ToolCall call, Block block) {
    if (call.dryRun() && !call.has("--dry-run=none")) {
      return;
    }
    List<String> ops = call.operands(KUBE_OPTIONS_WITH_VALUE);
    if (ops.isEmpty()) {
      return;
    }
    String verb = ops.get(0);
    String what = "kubectl " + String.join(" ", ops.subList(0, Math.min(3, ops.size())));
    if (KUBE_DESTRUCTIVE.contains(verb) || (verb.equals("apply") && call.has("--prune"))) {
      block.flag(Flag.high("cluster-change", "deletes or takes down cluster resources (" + what + ")"));
    } else if (verb.equals("scale")) {
      String replicas = call.value("--replicas");
      block.flag("0".equals(replicas) ? Flag.high("cluster-change", "scales a workload to zero (" + what + ")")
          : Flag.medium("cluster-scale", "scales a workload (" + what + ")"));
    } else if (verb.equals("rollout") && ops.size() > 1 && Set.of("restart", "undo", "pause").contains(ops.get(1))) {
      block.flag(Flag.high("cluster-change", "restarts or rolls back a running workload (" + what + ")"));
    } else if (verb.equals("patch") || verb.equals("edit") || verb.equals("set") || verb.equals("label")
        || verb.equals("annotate")) {
      block.flag(Flag.medium("cluster-edit", "changes live cluster resources (" + what + ")"));
    } else if (verb.equals("exec")) {
      int dash = call.args().indexOf("--");
      if (dash >= 0 && dash + 1 < call.args().size()) {
        List<String> cmd = call.args().subList(dash + 1, call.args().size());
        boolean shell = cmd.size() >= 3 && Set.of("sh", "bash", "/bin/sh", "/bin/bash").contains(cmd.get(0))
            && cmd.get(1).equals("-c");
        block.runShell(shell ? cmd.get(2) : String.join(" ", cmd));
      }
    }
  }

  private static void helm(ToolCall call, Block block) {
    if (call.dryRun() || call.has("--dry-run")) {
      return;
    }
    String verb = call.operands(List.of("-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set",
        "--version", "--repo")).stream().findFirst().orElse("");
    switch (verb) {
      case "uninstall", "delete", "del", "un", "rollback" ->
          block.flag(Flag.high("cluster-change", "removes or rolls back a release on the cluster (helm " + verb + ")"));
      case "install", "upgrade" -> block.flag(Flag.medium("cluster-deploy", "deploys to the cluster (helm " + verb + ")"));
      default -> {
        // lint, template, list, status, show, repo, search, dependency only read
      }
    }
  }

  private static void terraform(ToolCall call, Block block) {
    List<String> ops = call.operands(List.of("-chdir", "-var", "-var-file", "-target", "-out", "-state", "-lock-timeout"));
    if (ops.isEmpty()) {
      return;
    }
    int k = ops.get(0).equals("run-all") && ops.size() > 1 ? 1 : 0;
    String verb = ops.get(k);
    if (IAC_DESTRUCTIVE.contains(verb)) {
      block.flag(Flag.high("infra-change", "changes or destroys real infrastructure (" + call.tool() + " " + verb + ")"));
    } else if (verb.equals("state") && ops.size() > k + 1 && Set.of("rm", "mv", "push", "replace-provider").contains(ops.get(k + 1))) {
      block.flag(Flag.high("infra-change", "rewrites the infrastructure state (" + call.tool() + " state " + ops.get(k + 1) + ")"));
    } else if (verb.equals("workspace") && ops.size() > k + 1 && ops.get(k + 1).equals("delete")) {
      block.flag(Flag.high("infra-change", "deletes a workspace's state (" + call.tool() + " workspace delete)"));
    }
  }

  private static void stackTool(ToolCall call, Block block) {
    String verb = call.verb();
    if (call.tool().equals("pulumi") && verb.equals("stack") && call.words().contains("rm")) {
      verb = "destroy";
    }
    if (Set.of("up", "update", "destroy", "deploy", "remove", "delete", "cancel").contains(verb) && !call.dryRun()
        && !call.has("--preview-only")) {
      block.flag(Flag.high("infra-change", "changes or destroys real infrastructure (" + call.tool() + " " + verb + ")"));
    }
  }

  private static void ansible(ToolCall call, Block block) {
    if (call.has("--check", "-C", "--syntax-check", "--list-hosts", "--list-tasks")) {
      return;
    }
    String module = call.value("-m", "--module-name");
    if (call.tool().equals("ansible") && (module == null || Set.of("ping", "setup", "gather_facts", "debug").contains(module))) {
      return;
    }
    block.flag(Flag.high("infra-change", "runs changes on remote hosts (" + call.line() + ")"));
  }

  // ---------------------------------------------------------------- clouds and registries

  private static void cloud(ToolCall call, Block block) {
    if (call.dryRun()) {
      return;
    }
    String tool = call.tool();
    List<String> ops = call.operands(List.of("--region", "--profile", "--project", "--zone", "-o", "--output", "--query",
        "--filter", "--format", "-g", "--resource-group", "--subscription", "--app", "-a", "--endpoint-url", "--config",
        "--context", "-R", "--repo", "-L", "--limit", "--bucket", "--key", "-n", "--name"));
    if (tool.equals("aws") && ops.size() >= 2 && ops.get(0).equals("s3")) {
      String verb = ops.get(1);
      boolean s3Delete = verb.equals("rm") || verb.equals("rb")
          || (verb.equals("mv") && ops.size() > 2 && ops.get(2).startsWith("s3://"))
          || (verb.equals("sync") && call.has("--delete") && ops.size() > 3 && ops.get(3).startsWith("s3://"));
      if (s3Delete) {
        block.flag(Flag.high("cloud-delete", "deletes objects in cloud storage (aws s3 " + verb + ")"));
      }
      return;
    }
    if ((tool.equals("gh") || tool.equals("glab")) && !ops.isEmpty() && ops.get(0).equals("api")) {
      String method = call.value("-X", "--method");
      if (method != null && method.equalsIgnoreCase("DELETE")) {
        block.flag(Flag.high("forge-delete", "deletes through the forge's API (" + call.line() + ")"));
      }
      return;
    }
    if ((tool.equals("gh") || tool.equals("glab")) && ops.size() >= 2 && ops.get(0).equals("repo")
        && Set.of("edit").contains(ops.get(1)) && call.has("--visibility")) {
      block.flag(Flag.high("forge-change", "changes a repository's visibility (" + call.line() + ")"));
      return;
    }
    for (int k = 0; k < ops.size() && k < 5; k++) {
      String v = ops.get(k).toLowerCase(Locale.ROOT);
      if (isDestructiveVerb(v) && !(tool.equals("gh") && k == 0)) {
        String kind = tool.equals("gh") || tool.equals("glab") ? "forge-delete" : "cloud-delete";
        block.flag(Flag.high(kind, "deletes or stops resources on a remote service (" + call.line() + ")"));
        return;
      }
    }
  }

  static boolean isDestructiveVerb(String v) {
    if (DESTRUCTIVE_VERBS.contains(v)) {
      return true;
    }
    for (String p : DESTRUCTIVE_PREFIXES) {
      if (v.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  private static boolean publishes(ToolCall call) {
    if (call.dryRun()) {
      return false;
    }
    String tool = call.tool();
    String verb = call.verb();
    return switch (tool) {
      case "npm", "pnpm", "yarn", "bun" -> Set.of("publish", "unpublish", "deprecate").contains(verb)
          || (tool.equals("yarn") && verb.equals("npm") && call.words().contains("publish"));
      case "twine" -> verb.equals("upload");
      case "gem" -> verb.equals("push") || verb.equals("yank");
      case "cargo" -> verb.equals("publish") || verb.equals("yank");
      case "poetry", "flit", "hatch", "uv" -> verb.equals("publish");
      case "docker", "podman" -> verb.equals("push") || (verb.equals("buildx") && call.has("--push"))
          || (verb.equals("image") && call.words().contains("push"));
      case "mvn" -> call.words().contains("deploy");
      case "gradle" -> call.words().stream().anyMatch(w -> w.startsWith("publish"));
      case "vsce", "ovsx" -> verb.equals("publish");
      case "dotnet" -> verb.equals("nuget") && call.words().contains("push");
      default -> false;
    };
  }

  /** curl -X DELETE, wget --method=DELETE, http DELETE: deleting a resource through a remote API. */
  private static void httpMethod(ToolCall call, Block block) {
    String method = call.value("-X", "--request", "--method");
    List<String> words = call.words();
    if (method == null && (call.tool().equals("http") || call.tool().equals("https") || call.tool().equals("xh"))
        && !words.isEmpty()) {
      method = words.get(0);
    }
    if (method == null || !method.equalsIgnoreCase("DELETE")) {
      return;
    }
    for (String w : words) {
      Flag f = httpDelete(w, call.tool() + " -X DELETE");
      if (f != null) {
        block.flag(f);
        return;
      }
    }
  }

  /** An HTTP DELETE of {@code url}: HIGH when the host is another machine, else null. Shared by every language. */
  public static Flag httpDelete(String url, String how) {
    if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
      return null;
    }
    String host = Databases.hostOfUrl(url);
    if (host == null || Databases.isLocalHost(host) || host.startsWith("$")) {
      return null;
    }
    return Flag.high("http-delete", "deletes a resource through the API of " + host + " (" + how + ")");
  }

  // ---------------------------------------------------------------- remote shells and copies

  private static void ssh(ToolCall call, Block block) {
    List<String> ops = call.operands(SSH_OPTIONS_WITH_VALUE);
    if (ops.size() < 2) {
      return;
    }
    List<String> cmd = ops.subList(1, ops.size());
    block.runShell(String.join(" ", cmd));
  }

  private static void rsyncRemote(ToolCall call, Block block) {
    if (!deletes(call) || call.dryRun() || call.hasShort('n')) {
      return;
    }
    List<String> ops = call.operands(List.of("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chmod",
        "--chown", "--files-from", "--exclude-from", "--include-from", "--backup-dir", "--suffix", "-T", "--temp-dir",
        "--port", "--password-file", "--log-file", "--partial-dir", "--max-size", "--min-size", "--timeout"));
    if (ops.size() < 2) {
      return;
    }
    String dest = ops.get(ops.size() - 1);
    if (isRemoteOperand(dest)) {
      block.flag(Flag.high("remote-delete", "deletes files on a remote host that are missing from the source (rsync --delete to "
          + dest + ")"));
    }
  }

  /** rsync's options that delete at the destination or at the source. */
  static boolean deletes(ToolCall call) {
    for (String a : call.args()) {
      if (a.startsWith("--delete") || a.equals("--del") || a.equals("--remove-source-files")) {
        return true;
      }
    }
    return false;
  }

  /** {@code host:path}, {@code user@host:path}, {@code rsync://host/...}. */
  static boolean isRemoteOperand(String s) {
    if (s.startsWith("rsync://")) {
      return true;
    }
    int colon = s.indexOf(':');
    int slash = s.indexOf('/');
    return colon > 0 && (slash < 0 || colon < slash) && !s.startsWith("$");
  }
}
