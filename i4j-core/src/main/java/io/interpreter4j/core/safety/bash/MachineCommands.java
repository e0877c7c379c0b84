package io.interpreter4j.core.safety.bash;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The machine as a whole: its disks (formatting, repartitioning), its power (shutdown, reboot, runlevels), its
 * processes (kill, killall, and the listers that name other programs' pids), its scheduled jobs, and other users.
 */
final class MachineCommands {

  /** Tools that list processes by name, port or file: their pids are other programs'. */
  private static final Set<String> PROCESS_LISTERS = Set.of("pgrep", "pidof", "lsof", "fuser", "ps", "pstree", "pgrep.exe");
  private static final Pattern SHUTDOWN_TARGET = Pattern.compile("(rescue|emergency|poweroff|reboot|halt)(\\.target)?");

  private MachineCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, MachineCommands::partitions, "mke2fs", "mkswap", "wipefs", "sfdisk", "cfdisk",
        "sgdisk", "gdisk", "mkdosfs", "mkntfs", "fdisk", "parted");
    CommandHandler.register(table, MachineCommands::diskutil, "diskutil");
    CommandHandler.register(table, MachineCommands::kill, "kill");
    CommandHandler.register(table, MachineCommands::killall, "killall", "killall5");
    CommandHandler.register(table, MachineCommands::shutdown, "shutdown");
    CommandHandler.register(table, MachineCommands::reboot, "reboot", "halt", "poweroff");
    CommandHandler.register(table, MachineCommands::runlevel, "init", "telinit");
    CommandHandler.register(table, MachineCommands::systemctl, "systemctl", "loginctl");
    CommandHandler.register(table, MachineCommands::crontab, "crontab");
    CommandHandler.register(table, MachineCommands::su, "su");
  }

  /** mkfs, mkfs.ext4...: formats a disk whatever its arguments. */
  static boolean formats(BashAnalyzer bash, Invocation inv) {
    if (inv.name().startsWith("mkfs")) {
      bash.findings().add(Flag.high("disk-format", "formats a disk (" + inv.name() + ")"));
      return true;
    }
    return false;
  }

  /** Process listers (pgrep, lsof, ps...): the pids they print are other programs'. */
  static void observe(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    if (PROCESS_LISTERS.contains(name)
        && !(name.equals("fuser") && inv.texts().stream().anyMatch(t -> t.startsWith("-") && t.contains("k")))) {
      bash.findings().facts().processList(name);
    }
  }

  private static void partitions(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    if (!(texts.contains("-l") || texts.contains("--list") || texts.contains("print"))) {
      bash.findings().add(Flag.high("disk-format", "formats or repartitions a disk (" + inv.name() + ")"));
    }
  }

  private static void diskutil(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    if (!texts.isEmpty() && (texts.get(0).startsWith("erase") || texts.get(0).startsWith("zero")
        || texts.get(0).equals("partitionDisk") || texts.get(0).equals("secureErase"))) {
      bash.findings().add(Flag.high("disk-format", "erases a disk (diskutil " + texts.get(0) + ")"));
    }
  }

  private static void killall(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    // signal 0 only checks that the processes exist; -l lists signal names
    if (!(texts.contains("-0") || texts.contains("-l") || texts.contains("--list") || texts.contains("--help"))) {
      bash.findings().add(Flag.high("killall", "kills processes by name (" + inv.name() + ")"));
    }
  }

  private static void shutdown(BashAnalyzer bash, Invocation inv) {
    if (!(inv.texts().contains("-c") || inv.texts().contains("--help"))) {
      bash.findings().add(Flag.high("shutdown", "shuts down or reboots the machine (shutdown)"));
    }
  }

  private static void reboot(BashAnalyzer bash, Invocation inv) {
    if (!inv.texts().contains("--help")) {
      bash.findings().add(Flag.high("shutdown", "shuts down or reboots the machine (" + inv.name() + ")"));
    }
  }

  private static void runlevel(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    if (!texts.isEmpty() && Set.of("0", "6", "1", "s", "S").contains(texts.get(0))) {
      bash.findings().add(Flag.high("shutdown", "changes the runlevel, shutting down or rebooting (" + inv.name() + " "
          + texts.get(0) + ")"));
    }
  }

  private static void su(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    bash.findings().add(Flag.high("sudo", "runs as another user with su"));
    int dashC = texts.indexOf("-c");
    if (dashC >= 0 && dashC + 1 < texts.size()) {
      bash.child().analyze(texts.get(dashC + 1));
    }
  }

  private static void kill(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    List<String> pids = new ArrayList<>();
    boolean signalSeen = false;
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      if (t.equals("--")) {
        pids.addAll(texts.subList(k + 1, texts.size()));
        break;
      }
      if (t.equals("-s") || t.equals("-n")) {
        k++;
        signalSeen = true;
      } else if (t.equals("-l") || t.equals("-L")) {
        return;
      } else if (t.startsWith("-") && !signalSeen && pids.isEmpty()) {
        signalSeen = true;
      } else {
        pids.add(t);
      }
    }
    if (pids.contains("-1")) {
      bash.findings().add(Flag.high("kill-all", "kills every process you own (kill -1)"));
    } else if (pids.contains("1")) {
      bash.findings().add(Flag.high("kill-all", "signals init, process 1"));
    }
    if (inv.viaXargs() && pids.isEmpty()) {
      bash.findings().facts().foreignSignal("xargs kill");
    }
    for (String pid : pids) {
      boolean literal = !pid.isEmpty() && pid.chars().allMatch(Character::isDigit);
      boolean own = pid.equals("$!") || pid.startsWith("%") || (pid.startsWith("$") && bash.scope().isOwnPid(pid.substring(1)));
      if (!literal && !own && !pid.startsWith("-")) {
        bash.findings().facts().foreignSignal("kill " + pid);
      }
    }
  }

  private static void systemctl(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    Set<String> power = Set.of("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep",
        "suspend-then-hibernate", "rescue", "emergency", "soft-reboot");
    for (String t : texts) {
      if (t.startsWith("-")) {
        continue;
      }
      if (power.contains(t)) {
        bash.findings().add(Flag.high("shutdown", "shuts down, suspends or reboots the machine (systemctl " + t + ")"));
      } else if (t.equals("isolate") && texts.stream().anyMatch(x -> SHUTDOWN_TARGET.matcher(x).matches())) {
        bash.findings().add(Flag.high("shutdown", "switches the machine to a shutdown or rescue target"));
      }
      return;
    }
  }

  private static void crontab(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    for (String t : texts) {
      if (t.startsWith("-") && !t.startsWith("--") && t.length() > 1 && t.indexOf('r') >= 0) {
        bash.findings().add(Flag.high("crontab-remove", "removes every cron job (crontab -r)"));
        return;
      }
    }
  }
}
