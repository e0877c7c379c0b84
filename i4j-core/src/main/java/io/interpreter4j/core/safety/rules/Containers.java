package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Place;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Containers that reach past themselves: the host's root, system, home or docker socket mounted writable, a
 * privileged container, the host's process space; and commands that stop or delete every container or volume. A
 * container the block started itself (docker run --name x) may be stopped and removed.
 */
public final class Containers implements RuleFamily {

  static final Set<String> TOOLS = Set.of("docker", "podman", "nerdctl");

  private static final List<String> RUN_OPTIONS_WITH_VALUE = List.of(
      "-v", "--volume", "--mount", "-e", "--env", "-p", "--publish", "-w", "--workdir", "--name", "-u", "--user",
      "--network", "--net", "--entrypoint", "-h", "--hostname", "--env-file", "-l", "--label", "--memory", "-m",
      "--cpus", "--platform", "--pid", "--ipc", "--cap-add", "--cap-drop", "--device", "--restart", "--add-host",
      "--security-opt", "--tmpfs", "--ulimit", "--gpus", "--shm-size", "--log-driver", "--dns", "--userns", "--uts",
      "--volumes-from", "-a", "--attach", "--cidfile", "--health-cmd", "--stop-signal", "--pull");

  @Override
  public void judge(ToolCall call, Block block) {
    List<String> ops = call.operands(List.of("-H", "--host", "--context", "-c", "--config", "--log-level"));
    if (ops.isEmpty()) {
      return;
    }
    String verb = ops.get(0);
    if (verb.equals("container") && ops.size() > 1) {
      verb = ops.get(1);
    }
    switch (verb) {
      case "run", "create" -> run(call, block);
      case "kill", "stop", "rm", "pause" -> stopAll(call, block, verb);
      case "prune" -> prune(call, block, ops);
      case "system", "volume", "image", "network", "builder" -> {
        if (ops.size() > 1 && (ops.get(1).equals("prune") || (verb.equals("volume") && ops.get(1).equals("rm")))) {
          prune(call, block, ops);
        } else if (ops.size() > 1 && verb.equals("system") && ops.get(1).equals("reset")) {
          block.flag(Flag.high("container-volumes", "deletes every container, image and volume (" + call.line() + ")"));
        }
      }
      case "compose" -> {
        if (ops.contains("down") && (call.has("-v", "--volumes"))) {
          block.flag(Flag.medium("container-volumes", "deletes the compose project's volumes (docker compose down -v)"));
        }
      }
      default -> {
        // ps, images, logs, build, pull, exec and the like stay inside containers or only read
      }
    }
  }

  private static void run(ToolCall call, Block block) {
    List<String> args = call.args();
    String name = call.value("--name");
    if (name != null) {
      block.facts().containerStarted(name);
    }
    if (call.has("--privileged")) {
      block.flag(Flag.high("container-host", "runs a privileged container, which controls the host"));
      return;
    }
    String pid = call.value("--pid");
    if ("host".equals(pid)) {
      block.flag(Flag.high("container-host", "runs a container in the host's process space (--pid=host)"));
      return;
    }
    String cap = call.value("--cap-add");
    if (cap != null && (cap.equalsIgnoreCase("ALL") || cap.toUpperCase(Locale.ROOT).contains("SYS_ADMIN"))) {
      block.flag(Flag.high("container-host", "gives a container the host's admin capabilities (--cap-add " + cap + ")"));
      return;
    }
    for (int k = 0; k < args.size(); k++) {
      String a = args.get(k);
      String spec = null;
      if ((a.equals("-v") || a.equals("--volume") || a.equals("--mount")) && k + 1 < args.size()) {
        spec = args.get(k + 1);
      } else if (a.startsWith("--volume=") || a.startsWith("--mount=")) {
        spec = a.substring(a.indexOf('=') + 1);
      } else if (a.startsWith("-v") && a.length() > 2) {
        spec = a.substring(2);
      }
      if (spec != null && hostMount(spec, a.startsWith("--mount"), block)) {
        return;
      }
    }
  }

  /** Flags a bind mount of a protected host path that the container may write; true when flagged. */
  private static boolean hostMount(String spec, boolean mountSyntax, Block block) {
    String source;
    boolean readOnly;
    if (mountSyntax) {
      source = null;
      readOnly = false;
      for (String kv : spec.split(",")) {
        int eq = kv.indexOf('=');
        String key = eq < 0 ? kv : kv.substring(0, eq);
        if (key.equals("source") || key.equals("src")) {
          source = kv.substring(eq + 1);
        } else if (key.equals("readonly") || key.equals("ro")) {
          readOnly = eq < 0 || !kv.substring(eq + 1).equals("false");
        }
      }
    } else {
      String[] parts = spec.split(":");
      source = parts[0];
      readOnly = parts.length > 2 && Set.of(parts[2].split(",")).contains("ro");
    }
    if (source == null || !(source.startsWith("/") || source.startsWith("~") || source.startsWith("$") || source.startsWith("."))) {
      return false;
    }
    if (source.endsWith("docker.sock") || source.endsWith("podman.sock") || source.endsWith("containerd.sock")) {
      block.flag(Flag.high("container-host", "gives a container the host's container socket (" + source + "), root on the host"));
      return true;
    }
    Place p = block.place(source);
    if (p.isProtected() && !readOnly) {
      block.flag(Flag.high("container-host", "mounts " + p.describe() + " (" + source + ") writable into a container"));
      return true;
    }
    return false;
  }

  private static void stopAll(ToolCall call, Block block, String verb) {
    List<String> targets = call.operands(List.of("-s", "--signal", "-t", "--time"));
    targets = targets.subList(Math.min(targets.size(), targets.indexOf(verb) + 1), targets.size());
    for (String t : targets) {
      if (t.contains("docker ps") || t.contains("podman ps") || t.contains("$(") && t.contains(" ps")) {
        block.flag(Flag.high("container-stop-all", verb + "s every container, not only the block's own (" + call.line() + ")"));
        return;
      }
    }
  }

  private static void prune(ToolCall call, Block block, List<String> ops) {
    boolean volumes = call.has("--volumes") || ops.contains("volume");
    if (volumes) {
      block.flag(Flag.high("container-volumes", "deletes container volumes and the data in them (" + call.line() + ")"));
    } else if (call.has("-a", "--all") || call.hasShort('a')) {
      block.flag(Flag.medium("container-prune", "deletes every unused image and container (" + call.line() + ")"));
    }
  }
}
