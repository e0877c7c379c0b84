package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Commands that change the machine itself rather than files: network links, addresses and routes, the firewall,
 * kernel parameters and modules, the clock, the host name, mounts, swap, boot loaders, security switches. Reading
 * any of these (status, list, show) is fine; changing them is HIGH, with or without sudo.
 */
public final class Machine implements RuleFamily {

  private static final Set<String> IP_OBJECTS = Set.of(
      "link", "l", "addr", "address", "a", "route", "r", "ro", "rule", "neigh", "neighbour", "n", "tunnel", "tun",
      "netns", "xfrm", "maddr", "mroute", "tuntap", "vrf", "nexthop");
  private static final Set<String> IP_CHANGES = Set.of(
      "set", "add", "del", "delete", "flush", "change", "replace", "append", "prepend", "d", "s", "f");
  private static final Set<String> FIREWALL_READS = Set.of(
      "-L", "-S", "--list", "--list-rules", "-n", "-v", "--line-numbers", "-t", "--table", "-x", "--numeric", "-w");
  private static final Set<String> UFW_CHANGES = Set.of(
      "enable", "disable", "allow", "deny", "reject", "limit", "delete", "reset", "default", "insert", "route", "reload",
      "prepend", "logging");
  private static final Set<String> NMCLI_CHANGES = Set.of(
      "off", "on", "down", "up", "delete", "modify", "disconnect", "add", "reload", "set", "import", "clone", "connect");
  private static final Set<String> ALWAYS = Set.of(
      "swapoff", "swapon", "insmod", "rmmod", "setenforce", "update-grub", "grub-install", "grub2-install",
      "grub-mkconfig", "grub2-mkconfig", "ifdown", "ifup", "blkdiscard", "cryptsetup", "lvremove", "vgremove",
      "pvremove", "wipefs", "iptables-restore", "ip6tables-restore", "kexec", "pivot_root", "chroot");

  static final Set<String> TOOLS = Set.of(
      "ip", "ifconfig", "iptables", "ip6tables", "ebtables", "arptables", "nft", "ufw", "firewall-cmd", "pfctl", "sysctl",
      "timedatectl", "date", "hwclock", "hostnamectl", "hostname", "scutil", "nmcli", "networksetup", "rfkill",
      "resolvectl", "wg", "wg-quick", "tailscale", "mount", "umount", "modprobe", "csrutil", "spctl", "pmset",
      "efibootmgr", "mdadm", "route", "swapoff", "swapon", "insmod", "rmmod", "setenforce", "update-grub", "grub-install",
      "grub2-install", "grub-mkconfig", "grub2-mkconfig", "ifdown", "ifup", "blkdiscard", "cryptsetup", "lvremove",
      "vgremove", "pvremove", "iptables-restore", "ip6tables-restore", "kexec", "pivot_root", "chroot", "tc",
      "ethtool", "iw", "iwconfig", "netsh", "sysadminctl", "fdesetup", "tmutil", "nvram", "bless", "osascript",
      "dbus-send", "gdbus", "busctl", "qdbus", "qdbus6", "gnome-session-quit", "xfce4-session-logout", "lxqt-leave",
      "rtcwake", "pm-suspend", "pm-hibernate", "pm-suspend-hybrid", "zzz");

  /** What the power and session managers are asked to do when they end everything the user runs. */
  private static final List<String> POWER_METHODS = List.of(
      "poweroff", "reboot", "suspend", "hibernate", "halt", "hybridsleep", "logout", "terminatesession",
      "killsession", "terminateuser", "killuser", "shutdown", "restart");

  @Override
  public void judge(ToolCall call, Block block) {
    if (power(call, block)) {
      return;
    }
    String why = changes(call);
    if (why != null) {
      block.flag(Flag.high("machine-change", why + " (" + call.line() + ")"));
    }
  }

  /**
   * Shutting down, restarting, suspending or logging out through the desktop's own channels (AppleScript, D-Bus,
   * session managers): everything the user runs ends, interpreter4j included. AppleScript's {@code do shell script}
   * runs its text as shell code, as root {@code with administrator privileges}.
   */
  private static boolean power(ToolCall call, Block block) {
    String tool = call.tool();
    if (call.has("--help", "-h")) {
      return false;
    }
    switch (tool) {
      case "osascript" -> {
        List<String> args = call.args();
        for (int k = 0; k + 1 < args.size(); k++) {
          if (args.get(k).equals("-e")) {
            appleScript(args.get(k + 1), call, block);
          }
        }
        return true;
      }
      case "dbus-send", "gdbus", "busctl", "qdbus", "qdbus6" -> {
        String line = String.join(" ", call.args()).toLowerCase(Locale.ROOT);
        if ((line.contains("login1") || line.contains("ksmserver") || line.contains("sessionmanager")
            || line.contains("consolekit")) && POWER_METHODS.stream().anyMatch(m -> line.replace("-", "").contains(m))) {
          block.flag(Flag.high("shutdown", "shuts down, suspends or logs out the machine (" + call.line() + ")"));
        }
        return true;
      }
      case "gnome-session-quit", "xfce4-session-logout", "lxqt-leave" -> {
        block.flag(Flag.high("shutdown", "logs the user out or shuts down, ending every program (" + call.line() + ")"));
        return true;
      }
      case "pm-suspend", "pm-hibernate", "pm-suspend-hybrid", "zzz" -> {
        block.flag(Flag.high("shutdown", "suspends the machine (" + tool + ")"));
        return true;
      }
      case "rtcwake" -> {
        String mode = call.value("-m", "--mode");
        if (mode != null && !Set.of("no", "show", "disable").contains(mode)) {
          block.flag(Flag.high("shutdown", "suspends or powers off the machine until a timer (" + call.line() + ")"));
        }
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** One AppleScript line: power verbs sent to the system, or shell code it runs. */
  private static void appleScript(String script, ToolCall call, Block block) {
    String s = script.toLowerCase(Locale.ROOT);
    boolean system = s.contains("system events") || s.contains("\"finder\"") || s.contains("loginwindow");
    if (system && (s.contains(" restart") || s.contains("shut down") || s.contains(" sleep") || s.contains("log out")
        || s.contains("«event aevtrrst»") || s.contains("«event aevtrsdn»"))) {
      block.flag(Flag.high("shutdown", "restarts, shuts down, sleeps or logs out the Mac (osascript)"));
    }
    if (system && s.contains("login item") && (s.contains("make ") || s.contains("add "))) {
      block.flag(Flag.high("persistence", "adds a login item that starts by itself at every login (osascript)"));
    }
    int at = s.indexOf("do shell script");
    if (at >= 0) {
      int open = script.indexOf('"', at);
      int close = open < 0 ? -1 : script.indexOf('"', open + 1);
      while (close > 0 && script.charAt(close - 1) == '\\') {
        close = script.indexOf('"', close + 1);
      }
      if (open >= 0 && close > open) {
        block.runShell(script.substring(open + 1, close).replace("\\\"", "\""));
      }
      if (s.contains("administrator privileges")) {
        block.flag(Flag.high("sudo", "runs shell code as root (osascript ... with administrator privileges)"));
      }
    }
  }

  private static String changes(ToolCall call) {
    String tool = call.tool();
    List<String> words = call.words();
    if (ALWAYS.contains(tool)) {
      return call.has("--help", "-h", "--version") ? null : "changes the machine's system configuration";
    }
    return switch (tool) {
      case "ip" -> {
        List<String> ops = call.operands(List.of("-n", "-netns", "-f", "-family", "-b", "-batch", "-rc", "-c"));
        if (ops.size() >= 2 && IP_OBJECTS.contains(ops.get(0)) && IP_CHANGES.contains(ops.get(1))) {
          yield "changes network links, addresses or routes";
        }
        yield call.has("-b", "-batch") ? "changes network settings from a batch file" : null;
      }
      case "ifconfig" -> words.size() >= 2 ? "changes a network interface" : null;
      case "route" -> words.contains("add") || words.contains("del") || words.contains("delete") || words.contains("flush")
          || words.contains("change") ? "changes the routing table" : null;
      case "iptables", "ip6tables", "ebtables", "arptables" -> {
        for (String a : call.args()) {
          if (a.startsWith("-") && !FIREWALL_READS.contains(a) && !a.startsWith("--list")) {
            yield "changes the firewall";
          }
        }
        yield null;
      }
      case "nft" -> words.isEmpty() || Set.of("list", "monitor", "describe").contains(words.get(0)) ? null
          : "changes the firewall";
      case "ufw" -> !words.isEmpty() && UFW_CHANGES.contains(words.get(0)) ? "changes the firewall" : null;
      case "firewall-cmd" -> call.args().stream().anyMatch(a -> a.startsWith("--add") || a.startsWith("--remove")
          || a.startsWith("--set") || a.equals("--reload") || a.equals("--complete-reload") || a.startsWith("--panic")
          || a.startsWith("--change") || a.startsWith("--new") || a.startsWith("--delete") || a.equals("--runtime-to-permanent"))
          ? "changes the firewall" : null;
      case "pfctl" -> call.args().stream().anyMatch(a -> a.equals("-d") || a.equals("-e") || a.equals("-f")
          || a.startsWith("-F") || a.equals("-k")) ? "changes the firewall" : null;
      case "sysctl" -> call.has("-w", "--write", "-p", "--load", "--system") || words.stream().anyMatch(w -> w.contains("="))
          ? "changes kernel parameters" : null;
      case "timedatectl" -> !words.isEmpty() && words.get(0).startsWith("set-") ? "changes the system clock" : null;
      case "date" -> call.has("-s", "--set") || words.stream().anyMatch(w -> w.matches("\\d{8,12}(\\.\\d\\d)?"))
          ? "sets the system clock" : null;
      case "hwclock" -> call.has("--set", "-w", "--systohc", "-s", "--hctosys", "--adjust") ? "sets the hardware clock" : null;
      case "hostnamectl" -> !words.isEmpty() && words.get(0).startsWith("set-") || words.contains("hostname") && words.size() > 1
          ? "renames the machine" : null;
      case "hostname" -> words.size() == 1 && !call.has("-f", "-s", "-i", "-I", "-d") ? "renames the machine" : null;
      case "scutil" -> call.has("--set") ? "changes the machine's name or network settings" : null;
      case "nmcli" -> words.stream().anyMatch(NMCLI_CHANGES::contains) ? "changes network connections" : null;
      case "networksetup" -> call.args().stream().anyMatch(a -> a.startsWith("-set") || a.startsWith("-remove")
          || a.startsWith("-create") || a.startsWith("-delete") || a.startsWith("-add")) ? "changes network settings" : null;
      case "rfkill" -> words.contains("block") || words.contains("unblock") ? "switches radios off or on" : null;
      case "resolvectl" -> !words.isEmpty() && Set.of("dns", "domain", "revert", "default-route", "llmnr", "mdns",
          "dnssec", "dnsovertls", "flush-caches").contains(words.get(0)) ? "changes name resolution" : null;
      case "wg", "wg-quick" -> words.contains("up") || words.contains("down") || words.contains("set")
          || words.contains("setconf") || words.contains("addconf") ? "changes a VPN link" : null;
      case "tailscale" -> words.contains("up") || words.contains("down") || words.contains("logout") || words.contains("set")
          ? "changes the VPN" : null;
      case "mount" -> words.isEmpty() || call.has("-l", "--show-labels") && words.isEmpty() ? null : "mounts a file system";
      case "umount" -> words.isEmpty() ? null : "unmounts a file system";
      case "modprobe" -> call.has("-n", "--dry-run", "--show-depends", "-c", "--showconfig") || words.isEmpty() ? null
          : "loads or removes kernel modules";
      case "csrutil", "spctl" -> words.contains("disable") || call.has("--master-disable", "--global-disable", "--add")
          ? "turns off a security protection" : null;
      case "pmset", "nvram", "bless", "fdesetup", "tmutil", "sysadminctl" ->
          words.isEmpty() || Set.of("-g", "status", "list", "listbackups", "isencrypted").stream().anyMatch(call::has)
              || words.contains("status") ? null : "changes the machine's power, boot or security settings";
      case "efibootmgr" -> call.args().stream().anyMatch(a -> a.equals("-c") || a.equals("-B") || a.equals("-o")
          || a.equals("-n") || a.equals("-a") || a.equals("-A") || a.startsWith("--create") || a.startsWith("--delete")
          || a.startsWith("--bootorder") || a.startsWith("--bootnext")) ? "changes the boot order" : null;
      case "mdadm" -> call.has("--create", "-C", "--zero-superblock", "--remove", "--fail", "--stop", "-S")
          ? "changes a disk array" : null;
      case "tc" -> words.contains("add") || words.contains("del") || words.contains("change") || words.contains("replace")
          ? "changes network traffic control" : null;
      case "ethtool" -> call.args().stream().anyMatch(a -> a.equals("-s") || a.equals("-K") || a.equals("-G")
          || a.equals("-A") || a.equals("-C") || a.equals("-L") || a.equals("-E") || a.equals("-f"))
          ? "changes a network card's settings" : null;
      case "iw", "iwconfig" -> words.contains("set") || words.contains("disconnect") || words.contains("connect")
          || tool.equals("iwconfig") && words.size() >= 2 ? "changes wireless settings" : null;
      case "netsh" -> words.contains("set") || words.contains("add") || words.contains("delete") || words.contains("reset")
          ? "changes network settings" : null;
      default -> null;
    };
  }
}
