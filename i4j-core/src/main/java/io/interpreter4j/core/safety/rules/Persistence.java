package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Commands that make code run later by itself: cron tables, services enabled at boot, launch agents, at jobs,
 * lingering user managers, and git settings that run programs in every repository (hooksPath, sshCommand, pager,
 * a credential helper or alias that shells out). Writing such files directly is judged by the path judge.
 */
public final class Persistence implements RuleFamily {

  static final Set<String> TOOLS = Set.of(
      "crontab", "systemctl", "launchctl", "at", "batch", "loginctl", "git", "update-rc.d", "chkconfig", "rc-update",
      "schtasks", "reg", "anacron", "systemd-run", "defaults");

  /** git settings whose value is a program git runs, or a place it takes hooks and templates from. */
  private static final Set<String> GIT_PROGRAM_KEYS = Set.of(
      "core.hookspath", "core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass",
      "credential.helper", "include.path", "init.templatedir", "sequence.editor", "diff.external", "gpg.program",
      "core.gitproxy", "sendemail.smtpserver");

  @Override
  public void judge(ToolCall call, Block block) {
    String tool = call.tool();
    List<String> words = call.words();
    switch (tool) {
      case "crontab" -> {
        boolean listOrEdit = call.has("-l", "-e", "-r") || call.hasShort('l') || call.hasShort('r');
        boolean installs = words.stream().anyMatch(w -> !w.startsWith("-")) || call.args().contains("-")
            || (call.args().isEmpty() && !call.stdin().isEmpty());
        if (!listOrEdit && (installs || call.args().isEmpty())) {
          block.flag(Flag.high("persistence", "installs cron jobs that run on a schedule (crontab " + String.join(" ", call.args()) + ")"));
        }
      }
      case "systemctl" -> {
        List<String> ops = call.operands(List.of("-H", "--host", "-M", "--machine", "--root"));
        if (!ops.isEmpty() && Set.of("enable", "reenable", "link", "preset", "add-wants", "add-requires", "set-default",
            "preset-all", "unmask").contains(ops.get(0)) && !call.has("--dry-run")) {
          block.flag(Flag.high("persistence", "makes a service start by itself (systemctl " + String.join(" ", ops) + ")"));
        }
      }
      case "launchctl" -> {
        if (!words.isEmpty() && Set.of("load", "bootstrap", "enable", "submit", "kickstart").contains(words.get(0))) {
          block.flag(Flag.high("persistence", "loads a launchd job that runs by itself (" + call.line() + ")"));
        }
      }
      case "at", "batch" -> {
        if (!call.has("-l", "-r", "-d", "-c") && !words.isEmpty() || tool.equals("batch")) {
          block.flag(Flag.high("persistence", "schedules commands to run later (" + call.line() + ")"));
        }
      }
      case "systemd-run" -> {
        if (call.args().stream().anyMatch(a -> a.startsWith("--on-") || a.equals("--timer-property"))) {
          block.flag(Flag.high("persistence", "schedules commands to run later (" + call.line() + ")"));
        }
      }
      case "loginctl" -> {
        if (words.contains("enable-linger")) {
          block.flag(Flag.high("persistence", "keeps the user's services running after logout (loginctl enable-linger)"));
        }
      }
      case "update-rc.d", "chkconfig", "rc-update" -> {
        if (words.stream().anyMatch(w -> Set.of("defaults", "enable", "on", "add").contains(w))) {
          block.flag(Flag.high("persistence", "makes a service start at boot (" + call.line() + ")"));
        }
      }
      case "schtasks" -> {
        if (call.args().stream().anyMatch(a -> a.equalsIgnoreCase("/create"))) {
          block.flag(Flag.high("persistence", "creates a scheduled task (" + call.line() + ")"));
        }
      }
      case "reg" -> {
        if (words.contains("add") && call.line().toLowerCase(Locale.ROOT).contains("\\run")) {
          block.flag(Flag.high("persistence", "adds a program that runs at logon (" + call.line() + ")"));
        }
      }
      case "defaults" -> {
        if (words.contains("write") && words.stream().anyMatch(w -> w.equals("LoginHook") || w.equals("LogoutHook")
            || w.equals("AutoLaunchedApplicationDictionary"))) {
          block.flag(Flag.high("persistence", "registers a program that runs at every login (" + call.line() + ")"));
        }
      }
      case "git" -> gitConfig(call, block);
      default -> {
        // not a scheduler
      }
    }
  }

  private static void gitConfig(ToolCall call, Block block) {
    List<String> ops = call.operands(List.of("-C", "-c", "--git-dir", "--work-tree", "-f", "--file", "--type"));
    if (ops.size() < 3 || !ops.get(0).equals("config")) {
      return;
    }
    boolean everyRepo = call.has("--global", "--system");
    String key = ops.get(1).toLowerCase(Locale.ROOT);
    String value = ops.get(2);
    boolean program = GIT_PROGRAM_KEYS.contains(key) || (key.startsWith("alias.") && value.startsWith("!"))
        || (key.startsWith("url.") && key.endsWith(".insteadof")) || key.startsWith("filter.") || key.startsWith("diff.")
        && key.endsWith(".textconv");
    if (!program || key.equals("credential.helper") && !value.startsWith("!") && !everyRepo) {
      return;
    }
    if (everyRepo) {
      block.flag(Flag.high("persistence", "changes what git runs in every repository (git config --global " + key + ")"));
    } else {
      block.flag(Flag.medium("git-config-program", "changes what git runs in this repository (git config " + key + ")"));
    }
  }
}
