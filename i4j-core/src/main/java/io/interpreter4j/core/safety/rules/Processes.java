package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.List;
import java.util.Set;

/**
 * Stopping what the block did not start: services (systemctl stop, service, launchctl unload), processes found
 * by name, port or user (pkill java, fuser -k, killall), process managers' whole tables (pm2 delete all). The block's
 * own children (a pid from $!, spawn or Popen) are its business; a script name narrows pkill to MEDIUM.
 */
public final class Processes implements RuleFamily {

  private static final Set<String> SERVICE_STOPS = Set.of("stop", "disable", "mask", "kill", "isolate");
  private static final Set<String> SERVICE_RESTARTS = Set.of(
      "restart", "try-restart", "reload-or-restart", "try-reload-or-restart", "condrestart", "force-reload");
  private static final Set<String> LAUNCHCTL_STOPS = Set.of("unload", "bootout", "remove", "stop", "kill", "disable");

  static final Set<String> TOOLS = Set.of(
      "systemctl", "service", "launchctl", "pkill", "fuser", "pm2", "supervisorctl", "tmux", "loginctl", "rc-service",
      "sv", "s6-svc", "initctl", "brew");

  @Override
  public void judge(ToolCall call, Block block) {
    String tool = call.tool();
    List<String> words = call.words();
    switch (tool) {
      case "systemctl" -> {
        List<String> ops = call.operands(List.of("-H", "--host", "-M", "--machine", "-t", "--type", "-s", "--signal",
            "--state", "-p", "--property", "-n", "--lines", "-o", "--output", "--kill-whom", "--root"));
        if (ops.size() >= 2 && SERVICE_STOPS.contains(ops.get(0))) {
          block.flag(Flag.high("service-stop", "stops or disables services (systemctl " + String.join(" ", ops) + ")"));
        } else if (ops.size() >= 2 && SERVICE_RESTARTS.contains(ops.get(0)) && !call.has("--user")) {
          block.flag(Flag.medium("service-restart", "restarts services (systemctl " + String.join(" ", ops) + ")"));
        }
      }
      case "service", "rc-service" -> {
        if (words.size() >= 2 && SERVICE_STOPS.contains(words.get(1))) {
          block.flag(Flag.high("service-stop", "stops a service (" + call.line() + ")"));
        } else if (words.size() >= 2 && SERVICE_RESTARTS.contains(words.get(1))) {
          block.flag(Flag.medium("service-restart", "restarts a service (" + call.line() + ")"));
        }
      }
      case "brew" -> {
        if (words.size() >= 2 && words.get(0).equals("services") && Set.of("stop", "kill").contains(words.get(1))) {
          block.flag(Flag.high("service-stop", "stops a service (" + call.line() + ")"));
        }
      }
      case "sv", "initctl" -> {
        if (!words.isEmpty() && Set.of("stop", "down", "kill", "exit", "force-stop").contains(words.get(0))) {
          block.flag(Flag.high("service-stop", "stops a service (" + call.line() + ")"));
        }
      }
      case "launchctl" -> {
        if (!words.isEmpty() && LAUNCHCTL_STOPS.contains(words.get(0))) {
          block.flag(Flag.high("service-stop", "stops or removes a launchd job (" + call.line() + ")"));
        }
      }
      case "pkill" -> pkill(call, block);
      case "fuser" -> {
        if (call.hasShort('k') || call.has("--kill")) {
          block.flag(Flag.high("kill-by-file", "kills whatever process uses a file or port (" + call.line() + ")"));
        }
      }
      case "pm2" -> {
        if (!words.isEmpty() && Set.of("delete", "kill", "stop", "del").contains(words.get(0))
            && (words.contains("all") || words.get(0).equals("kill"))) {
          block.flag(Flag.high("service-stop", "stops every process pm2 manages (" + call.line() + ")"));
        }
      }
      case "supervisorctl" -> {
        if (!words.isEmpty() && Set.of("stop", "shutdown", "remove").contains(words.get(0))
            && (words.contains("all") || words.get(0).equals("shutdown"))) {
          block.flag(Flag.high("service-stop", "stops every supervised process (" + call.line() + ")"));
        }
      }
      case "tmux" -> {
        if (words.contains("kill-server")) {
          block.flag(Flag.high("kill-all", "kills every tmux session (tmux kill-server)"));
        }
      }
      case "loginctl" -> {
        if (!words.isEmpty() && Set.of("terminate-user", "kill-user", "terminate-session", "kill-session", "terminate-seat",
            "poweroff", "reboot").contains(words.get(0))) {
          block.flag(Flag.high("kill-all", "ends a user's sessions (" + call.line() + ")"));
        }
      }
      default -> {
        // not a process tool
      }
    }
  }

  /**
   * pkill by user is HIGH; by a bare program name ("java", "node", "python") too, since it reaches every copy of the
   * program, the user's and the runtime's own; a pattern naming a script or arguments is narrower: MEDIUM.
   */
  private static void pkill(ToolCall call, Block block) {
    boolean byUser = call.args().stream().anyMatch(t -> t.equals("-u") || t.equals("-U") || t.startsWith("--euid")
        || t.startsWith("--uid") || (t.startsWith("-u") && t.length() > 2));
    if (byUser) {
      block.flag(Flag.high("pkill-user", "kills every process of a user (pkill -u)"));
      return;
    }
    List<String> ops = call.operands(List.of("-g", "-G", "-P", "-s", "-t", "--signal", "--session", "--terminal",
        "--parent", "--pgroup", "--group", "-F", "--pidfile", "--ns", "--nslist"));
    for (String pattern : ops) {
      if (isBareProgramName(pattern)) {
        block.flag(Flag.high("pkill-program", "kills every process named " + pattern + " (pkill " + pattern + ")"));
        return;
      }
    }
    block.flag(Flag.medium("pkill", "kills processes by pattern (pkill)"));
  }

  /** "java", "node", "python3", "node|npm", "R": a program's name, not a script file or a command line. */
  static boolean isBareProgramName(String pattern) {
    if (pattern.isEmpty() || pattern.startsWith("$")) {
      return false;
    }
    for (int k = 0; k < pattern.length(); k++) {
      char c = pattern.charAt(k);
      if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '|' || c == '^' || c == '$')) {
        return false;
      }
    }
    return true;
  }
}
