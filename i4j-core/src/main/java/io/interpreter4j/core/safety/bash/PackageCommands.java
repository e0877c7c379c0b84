package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.suffix;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.PathJudge.Kind;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.rules.ToolCall;
import io.interpreter4j.core.safety.rules.ToolRules;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Installing and removing packages: pip outside a virtual environment, global npm, yarn and gem installs, the system's
 * package managers (which need root), Homebrew and cargo; and the virtual environments that make pip local.
 */
final class PackageCommands {

  private static final Set<String> SYSTEM_PACKAGE_VERBS = Set.of(
      "install", "reinstall", "remove", "purge", "autoremove", "upgrade", "dist-upgrade", "full-upgrade", "update",
      "build-dep", "in", "rm", "erase", "up", "downgrade", "dup", "groupinstall", "add", "del", "fix", "refresh",
      "uninstall", "delete");
  private static final Pattern PACKAGE_FILE_OPTION =
      Pattern.compile("-[a-zA-Z]*[iUerPF][a-zA-Z]*|--(install|upgrade|erase|remove|purge|configure)");

  private PackageCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, PackageCommands::conda, "conda", "mamba", "micromamba");
    CommandHandler.register(table, (bash, inv) -> bash.scope().activateVenv(), "workon");
    CommandHandler.register(table, PackageCommands::uv, "uv");
    CommandHandler.register(table, PackageCommands::easyInstall, "easy_install");
    CommandHandler.register(table, PackageCommands::npm, "npm", "pnpm", "bun");
    CommandHandler.register(table, PackageCommands::yarn, "yarn");
    CommandHandler.register(table, PackageCommands::gem, "gem");
    CommandHandler.register(table, PackageCommands::systemPackages, "apt", "apt-get", "aptitude", "yum", "dnf",
        "microdnf", "zypper", "apk", "snap", "port", "pkg", "emerge", "flatpak");
    CommandHandler.register(table, PackageCommands::pacman, "pacman", "yay", "paru");
    CommandHandler.register(table, PackageCommands::packageFile, "dpkg", "rpm");
    CommandHandler.register(table, PackageCommands::brew, "brew");
    CommandHandler.register(table, PackageCommands::cargo, "cargo");
  }

  static void pip(BashAnalyzer bash, List<Word> args, Word executable, String how) {
    List<String> texts = new ArrayList<>();
    for (Word w : args) {
      texts.add(w.text());
    }
    ToolRules.judge(new ToolCall("pip", bash.scope().expanded(args), false, ""), bash);
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if (!sub.equals("install") && !sub.equals("uninstall")) {
      return;
    }
    if (texts.contains("--break-system-packages")) {
      bash.findings().add(Flag.high("pip-break-system", "overrides the system Python's protection (--break-system-packages)"));
      return;
    }
    if (texts.contains("--user")) {
      bash.findings().add(Flag.high("pip-user", "installs Python packages into the user site (" + how + " --user)"));
      return;
    }
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      Word dir = null;
      if ((t.equals("--target") || t.equals("-t") || t.equals("--prefix") || t.equals("--root")) && k + 1 < args.size()) {
        dir = args.get(k + 1);
      } else if (t.startsWith("--target=") || t.startsWith("--prefix=") || t.startsWith("--root=")) {
        dir = suffix(args.get(k), t.indexOf('=') + 1);
      }
      if (dir != null) {
        Target target = bash.scope().target(dir);
        Kind kind = target == null ? null : bash.judge().kind(target.path());
        if (kind == Kind.INSIDE_WORKDIR || kind == Kind.WORKDIR || kind == Kind.CREATED) {
          return;
        }
        bash.findings().add(Flag.high("pip-global", "installs Python packages into " + (target == null ? dir.text() : bash.judge().display(target))));
        return;
      }
    }
    if (bash.scope().venvActive() || inVirtualEnv(bash, executable)) {
      return;
    }
    bash.findings().add(Flag.high("pip-global", (sub.equals("install") ? "installs" : "removes")
        + " Python packages outside a virtual environment (" + how + " " + sub + ")"));
  }

  /** {@code .venv/bin/pip}, {@code ./venv/bin/python}: an executable inside the project or a created venv. */
  private static boolean inVirtualEnv(BashAnalyzer bash, Word executable) {
    String lit = executable.literal();
    if (lit == null || !lit.contains("/")) {
      return false;
    }
    Target t = bash.scope().target(executable);
    if (t == null) {
      return false;
    }
    Kind kind = bash.judge().kind(t.path());
    Path parent = t.path().getParent();
    boolean binDir = parent != null && parent.getFileName() != null
        && (parent.getFileName().toString().equals("bin") || parent.getFileName().toString().equals("Scripts"));
    return binDir && (kind == Kind.INSIDE_WORKDIR || kind == Kind.CREATED);
  }

  private static void uv(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    if (texts.size() >= 2 && texts.get(0).equals("pip") && (texts.get(1).equals("install") || texts.get(1).equals("uninstall"))
        && (texts.contains("--system") || texts.contains("--break-system-packages"))) {
      bash.findings().add(Flag.high("pip-global", "installs Python packages into the system Python (uv pip --system)"));
    }
  }

  private static void npm(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    List<String> texts = inv.texts();
    Set<String> verbs = Set.of("install", "i", "add", "in", "ins", "inst", "isntall", "uninstall", "un", "rm", "remove",
        "r", "unlink", "update", "up", "upgrade", "link", "ln");
    boolean global = texts.stream().anyMatch(t -> t.equals("-g") || t.equals("--global") || t.equals("--location=global"));
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if (global && verbs.contains(sub)) {
      bash.findings().add(Flag.high("npm-global", "installs packages globally (" + name + " " + sub + " -g)"));
    }
  }

  private static void yarn(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    if (texts.size() >= 2 && texts.get(0).equals("global") && !texts.get(1).equals("list")) {
      bash.findings().add(Flag.high("npm-global", "installs npm packages globally (yarn global " + texts.get(1) + ")"));
    }
  }

  private static void packageFile(BashAnalyzer bash, Invocation inv) {
    if (inv.texts().stream().anyMatch(t -> PACKAGE_FILE_OPTION.matcher(t).matches())) {
      bash.findings().add(Flag.high("system-package", "changes system packages (" + inv.name() + ") and needs root"));
    }
  }

  private static void brew(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    String verb = texts.isEmpty() ? "" : texts.get(0);
    if (texts.contains("--dry-run") || texts.contains("-n")) {
      return;
    }
    if (Set.of("uninstall", "remove", "rm", "upgrade", "reinstall", "cleanup", "autoremove", "unlink").contains(verb)) {
      // other programs of the machine may depend on what is removed or replaced
      bash.findings().add(Flag.high("brew-remove", "removes or replaces Homebrew packages of the whole machine (brew "
          + verb + ")"));
    } else if (Set.of("install", "tap").contains(verb)) {
      bash.findings().add(Flag.medium("brew-install", "changes Homebrew packages for the whole machine (brew " + verb + ")"));
    }
  }

  private static void gem(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if ((sub.equals("install") || sub.equals("uninstall") || sub.equals("update"))
        && !texts.contains("--user-install") && !texts.contains("-i") && !texts.contains("--install-dir")) {
      // like pip outside a virtual environment: the gems land in the interpreter's shared gem folder
      bash.findings().add(Flag.high("gem-install", "installs Ruby gems for the whole system (gem " + sub + ")"));
    }
  }

  private static void systemPackages(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    List<String> texts = inv.texts();
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if (!SYSTEM_PACKAGE_VERBS.contains(sub) || simulates(texts)) {
      return;
    }
    if (name.equals("flatpak") && texts.contains("--user")) {
      bash.findings().add(Flag.medium("user-package", "installs a flatpak for this user"));
      return;
    }
    bash.findings().add(Flag.high("system-package", "changes system packages (" + name + " " + sub + ") and needs root"));
  }

  /** apt-get -s, dnf --assumeno, zypper --dry-run...: the package manager only shows what it would do. */
  private static boolean simulates(List<String> texts) {
    for (String t : texts) {
      if (t.equals("-s") || t.equals("--simulate") || t.equals("--dry-run") || t.equals("--just-print")
          || t.equals("--no-act") || t.equals("--recon") || t.equals("--assumeno") || t.equals("--print-uris")
          || t.equals("--download-only")) {
        return true;
      }
    }
    return false;
  }

  private static void pacman(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    List<String> texts = inv.texts();
    for (String t : texts) {
      if (t.startsWith("-R") || t.startsWith("-U") || t.startsWith("--remove") || t.startsWith("--upgrade")
          || t.startsWith("--sync") && !texts.contains("--search")) {
        bash.findings().add(Flag.high("system-package", "changes system packages (" + name + " " + t + ") and needs root"));
        return;
      }
      if (t.startsWith("-S")) {
        String letters = t.substring(2);
        boolean queryOnly = !letters.isEmpty() && letters.chars().allMatch(ch -> ch == 's' || ch == 'i' || ch == 'l' || ch == 'g' || ch == 'q');
        if (!queryOnly) {
          bash.findings().add(Flag.high("system-package", "changes system packages (" + name + " " + t + ") and needs root"));
        }
        return;
      }
    }
  }

  private static void conda(BashAnalyzer bash, Invocation inv) {
    if (!inv.texts().isEmpty() && inv.texts().get(0).equals("activate")) {
      bash.scope().activateVenv();
    }
  }

  private static void easyInstall(BashAnalyzer bash, Invocation inv) {
    if (!bash.scope().venvActive()) {
      bash.findings().add(Flag.high("pip-global", "installs Python packages outside a virtual environment (easy_install)"));
    }
  }

  private static void cargo(BashAnalyzer bash, Invocation inv) {
    if (!inv.texts().isEmpty() && inv.texts().get(0).equals("install")) {
      bash.findings().add(Flag.medium("cargo-install", "installs a program into ~/.cargo/bin (cargo install)"));
    }
  }
}
