package io.interpreter4j.core.safety.rules;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Place;
import java.util.List;
import java.util.Set;

/**
 * Who may do what on the machine: user and group accounts, passwords, sudo rights, file ACLs, capabilities and
 * immutable flags. Changing accounts is HIGH anywhere; ACLs and flags are judged by the place they touch.
 */
public final class Accounts implements RuleFamily {

  private static final Set<String> ACCOUNT_TOOLS = Set.of(
      "useradd", "adduser", "userdel", "deluser", "usermod", "groupadd", "addgroup", "groupdel", "delgroup", "groupmod",
      "gpasswd", "chpasswd", "chsh", "chfn", "visudo", "vipw", "vigr", "newusers", "pwconv", "grpconv", "pw",
      "sysadminctl", "dscl", "net", "smbpasswd", "htpasswd");

  static final Set<String> TOOLS = union();

  private static Set<String> union() {
    java.util.HashSet<String> all = new java.util.HashSet<>(ACCOUNT_TOOLS);
    all.addAll(List.of("passwd", "chage", "setfacl", "setcap", "chattr", "chflags", "icacls", "takeown"));
    return Set.copyOf(all);
  }

  @Override
  public void judge(ToolCall call, Block block) {
    String tool = call.tool();
    List<String> words = call.words();
    if (call.has("--help", "--version")) {
      return;
    }
    switch (tool) {
      case "passwd" -> {
        if (!call.has("-S", "--status")) {
          block.flag(Flag.high("account-change", "changes or removes a password (" + call.line() + ")"));
        }
      }
      case "chage" -> {
        if (!call.has("-l", "--list")) {
          block.flag(Flag.high("account-change", "changes password ageing (" + call.line() + ")"));
        }
      }
      case "dscl" -> {
        if (call.args().stream().anyMatch(a -> a.equals("-create") || a.equals("-delete") || a.equals("-append")
            || a.equals("-passwd") || a.equals("-change") || a.equals("-merge"))) {
          block.flag(Flag.high("account-change", "changes accounts (" + call.line() + ")"));
        }
      }
      case "net" -> {
        if (words.size() >= 2 && (words.get(0).equals("user") || words.get(0).equals("localgroup"))) {
          block.flag(Flag.high("account-change", "changes accounts (" + call.line() + ")"));
        }
      }
      case "htpasswd" -> {
        // a password file for a web server the project runs: not the machine's accounts
      }
      case "setfacl" -> acl(call, block);
      case "setcap" -> {
        if (!call.has("-v")) {
          block.flag(Flag.high("capability", "grants a program root capabilities (" + call.line() + ")"));
        }
      }
      case "chattr", "chflags" -> {
        List<String> ops = call.operands(List.of("-v", "-p"));
        for (String path : ops.size() > 1 ? ops.subList(1, ops.size()) : List.<String>of()) {
          Place p = block.place(path);
          if (p.isProtected()) {
            block.flag(Flag.high("file-flags", "changes immutable or append-only flags of " + path + " (" + tool + ")"));
            return;
          }
        }
      }
      case "icacls", "takeown" -> block.flag(Flag.high("acl", "changes file ownership or access rules (" + call.line() + ")"));
      default -> {
        if (ACCOUNT_TOOLS.contains(tool)) {
          block.flag(Flag.high("account-change", "changes user accounts, groups or sudo rights (" + call.line() + ")"));
        }
      }
    }
  }

  private static void acl(ToolCall call, Block block) {
    boolean recursive = call.has("-R", "--recursive") || call.args().stream().anyMatch(a -> a.startsWith("-R"));
    List<String> ops = call.operands(List.of("-m", "-x", "-M", "-X", "--set", "--set-file", "--modify", "--modify-file",
        "--remove", "--remove-file"));
    for (String path : ops) {
      Place p = block.place(path);
      if (p.isProtected()) {
        block.flag(Flag.high("acl", "changes who may access " + p.describe() + " (setfacl" + (recursive ? " -R" : "")
            + " on " + path + ")"));
        return;
      }
    }
  }
}
