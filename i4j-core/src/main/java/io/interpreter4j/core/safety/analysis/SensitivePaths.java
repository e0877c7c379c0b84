package io.interpreter4j.core.safety.analysis;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Which paths matter beyond where they lie: files that hold secrets (keys, logins, tokens, history), files whose content
 * runs later by itself (shell start-up files, autostart entries, hooks, package-manager settings), devices.
 */
final class SensitivePaths {

  private static final Set<String> HARMLESS_DEVICES = Set.of(
      "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdout", "/dev/stderr", "/dev/stdin",
      "/dev/tty", "/dev/full");

  private static final Set<String> SHELL_RC = Set.of(
      ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", ".zshrc", ".zprofile", ".zshenv",
      ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".mkshrc", ".xprofile", ".xinitrc", ".xsession",
      ".config/fish/config.fish");

  /**
   * Files and folders under home whose content runs later by itself: at login, in every new shell or interpreter,
   * on a schedule, or when someone connects. Writing there persists code beyond the block.
   */
  private static final List<String> HOME_PERSISTENCE = List.of(
      ".bashrc.d/", ".config/fish/conf.d/", ".config/fish/functions/", ".config/autostart/", ".config/systemd/user/",
      ".local/share/systemd/user/", ".config/environment.d/", "Library/LaunchAgents/", ".kde/Autostart/",
      ".config/autostart-scripts/", ".config/plasma-workspace/env/", ".config/lxsession/", ".Rprofile", ".Renviron",
      ".pythonrc", ".pythonrc.py", ".pythonstartup", ".irbrc", ".pryrc", ".ipython/", ".jupyter/", ".ssh/authorized_keys",
      ".ssh/authorized_keys2", ".ssh/rc", ".ssh/config", ".gitconfig", ".config/git/config", ".githooks/", ".git-hooks/",
      ".vimrc", ".config/nvim/", ".emacs", ".emacs.d/init.el", ".tmux.conf", ".gradle/init.d/", ".gradle/init.gradle",
      ".pam_environment", ".xsessionrc", ".config/upstart/", ".mavenrc");

  private static final Set<String> HISTORY = Set.of(
      ".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history", ".python_history",
      ".node_repl_history", ".psql_history", ".mysql_history", ".sqlite_history", ".lesshst", "fish_history");

  /**
   * Files and folders of the home folder that hold credentials: cloud and cluster logins, tokens of package
   * registries and forges, database passwords, R's and the shell's environment files, browser profiles.
   */
  private static final Set<String> SECRET_HOME_ENTRIES = Set.of(
      ".aws", ".gnupg", ".azure", ".password-store", ".kube", ".netrc", ".pgpass", ".git-credentials", ".npmrc",
      ".pypirc", ".my.cnf", ".vault-token", ".terraformrc", ".Renviron", ".yarnrc", ".yarnrc.yml", ".s3cfg", ".boto",
      ".mozilla", ".gem/credentials", ".terraform.d/credentials.tfrc.json", ".composer/auth.json", ".oci",
      ".databrickscfg", ".snowsql", ".pulumi/credentials.json", ".cargo/credentials", ".cargo/credentials.toml", ".m2/settings.xml", ".gradle/gradle.properties",
      ".local/share/keyrings");

  /** Folders under ~/.config that hold logins (CLIs of forges and clouds, browser profiles, password managers). */
  private static final Set<String> SECRET_CONFIG_DIRS = Set.of(
      "gcloud", "gh", "hub", "glab-cli", "rclone", "doctl", "op", "google-chrome", "chromium", "BraveSoftware",
      "heroku", "netlify", "vercel", "flyctl", "composer", "keepassxc", "Bitwarden", "1Password");

  /** Under ~/Library (macOS): keychains and browser profiles. */
  private static final List<String> SECRET_LIBRARY = List.of(
      "Library/Keychains", "Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
      "Library/Cookies", "Library/Application Support/BraveSoftware");

  /**
   * Settings files of package managers in the home folder: they decide where every later install fetches code from
   * (a registry, an index, a mirror, whether TLS is checked), so writing them persists beyond the block.
   */
  private static final Set<String> PACKAGE_SOURCES = Set.of(
      ".npmrc", ".yarnrc", ".yarnrc.yml", ".gemrc", ".pip/pip.conf", ".config/pip/pip.conf", ".pydistutils.cfg",
      ".condarc", ".config/conda/.condarc", ".cargo/config", ".cargo/config.toml", ".m2/settings.xml",
      ".gradle/gradle.properties", ".bundle/config", ".config/uv/uv.toml", ".config/go/env", ".nuget/NuGet/NuGet.Config",
      ".config/pypoetry/config.toml", ".bowerrc", ".config/composer/config.json", ".composer/config.json");

  private static final Set<String> ENV_TEMPLATES = Set.of(".env.example", ".env.sample", ".env.template", ".env.dist");

  private static final Set<String> SSH_PUBLIC = Set.of("config", "known_hosts", "known_hosts.old", "authorized_keys");

  private static final Set<String> SYSTEM_SECRETS = Set.of(
      "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/master.passwd", "/etc/shadow-", "/etc/gshadow-");

  private final PathMap map;
  private final Path home;
  private final Path workdir;

  SensitivePaths(PathMap map) {
    this.map = map;
    this.home = map.home();
    this.workdir = map.workdir();
  }

  boolean isDevice(Path p) {
    String s = p.toString();
    return s.startsWith("/dev/") && !HARMLESS_DEVICES.contains(s) && !s.startsWith("/dev/fd/")
        && !s.startsWith("/dev/shm/") && !s.startsWith("/dev/pts/") && !s.startsWith("/dev/tcp/")
        && !s.startsWith("/dev/udp/");
  }

  boolean isShellRc(Path p) {
    String rel = map.homeRelative(p);
    return rel != null && SHELL_RC.contains(rel);
  }

  /**
   * What runs a file at {@code p} later by itself ("every new shell", "login", "cron"), or null: shell and
   * interpreter start-up files, autostart entries, service units, launch agents, cron tables, git hooks, SSH keys.
   */
  String persistence(Path p) {
    String rel = map.homeRelative(p);
    if (rel != null) {
      if (SHELL_RC.contains(rel)) {
        return "runs in every new shell";
      }
      for (String entry : HOME_PERSISTENCE) {
        if (entry.endsWith("/") ? rel.startsWith(entry) || (rel + "/").equals(entry) : rel.equals(entry)) {
          return "runs later by itself (" + entry.replaceAll("/$", "") + ")";
        }
      }
      if (rel.startsWith(".local/lib/python") && (rel.endsWith(".pth") || rel.endsWith("sitecustomize.py")
          || rel.endsWith("usercustomize.py"))) {
        return "runs in every Python start";
      }
      if (PACKAGE_SOURCES.contains(rel)) {
        return "decides where every later install fetches code from (~/" + rel + ")";
      }
    }
    String s = p.toString();
    Path name = p.getFileName();
    if (name != null && (s.contains("/site-packages/") || s.contains("/dist-packages/")) && !p.startsWith(workdir)
        && !map.isCreated(p) && (name.toString().equals("sitecustomize.py") || name.toString().equals("usercustomize.py")
        || name.toString().endsWith(".pth"))) {
      return "runs in every Python start (" + map.display(p) + ")";
    }
    if (s.contains("/.git/hooks/")) {
      return "runs on git operations (a git hook)";
    }
    if (s.startsWith("/etc/cron") || s.startsWith("/var/spool/cron") || s.startsWith("/etc/anacrontab")
        || s.startsWith("/etc/systemd/") || s.startsWith("/lib/systemd/") || s.startsWith("/usr/lib/systemd/")
        || s.startsWith("/etc/init.d/") || s.startsWith("/etc/rc.local") || s.startsWith("/etc/profile")
        || s.startsWith("/etc/bash.bashrc") || s.startsWith("/etc/zsh") || s.equals("/etc/environment")
        || s.startsWith("/etc/ld.so.preload") || s.startsWith("/Library/LaunchAgents/")
        || s.startsWith("/Library/LaunchDaemons/") || s.startsWith("/etc/xdg/autostart/")) {
      return "runs later by itself (" + s + ")";
    }
    return null;
  }

  boolean isHistory(Path p) {
    Path name = p.getFileName();
    return name != null && HISTORY.contains(name.toString()) && (p.startsWith(home) || p.startsWith(workdir));
  }

  boolean isSsh(Path p) {
    String rel = map.homeRelative(p);
    return rel != null && (rel.equals(".ssh") || rel.startsWith(".ssh/"));
  }

  /** A short description of the secret a path holds ("~/.ssh/id_rsa", "/etc/shadow"), or null. */
  String secret(Path p) {
    String s = p.toString();
    if (SYSTEM_SECRETS.contains(s) || s.startsWith("/etc/ssl/private")
        || (s.startsWith("/proc/") && s.endsWith("/environ"))) {
      return s;
    }
    Path name = p.getFileName();
    if (name != null) {
      String n = name.toString();
      if (n.equals(".env") || (n.startsWith(".env.") && !ENV_TEMPLATES.contains(n))) {
        return map.display(p);
      }
    }
    String rel = map.homeRelative(p);
    if (rel == null) {
      return null;
    }
    String[] segs = rel.split("/");
    String first = segs[0];
    if (first.equals(".ssh")) {
      if (segs.length == 1) {
        return "~/.ssh";
      }
      String last = segs[segs.length - 1];
      return last.endsWith(".pub") || SSH_PUBLIC.contains(last) ? null : "~/" + rel;
    }
    if (SECRET_HOME_ENTRIES.contains(first) || segs.length >= 2 && SECRET_HOME_ENTRIES.contains(first + "/" + segs[1])
        || segs.length >= 3 && SECRET_HOME_ENTRIES.contains(first + "/" + segs[1] + "/" + segs[2])) {
      return "~/" + rel;
    }
    if (HISTORY.contains(segs[segs.length - 1]) && !rel.endsWith(".lesshst")) {
      // commands typed at a prompt: tokens and passwords pasted into them included
      return "~/" + rel;
    }
    for (String lib : SECRET_LIBRARY) {
      if (rel.equals(lib) || rel.startsWith(lib + "/")) {
        return "~/" + rel;
      }
    }
    if (first.equals(".docker") && (segs.length == 1 || rel.equals(".docker/config.json"))) {
      return "~/" + rel;
    }
    if (first.equals(".config") && segs.length >= 2 && SECRET_CONFIG_DIRS.contains(segs[1])) {
      return "~/" + rel;
    }
    return null;
  }

  /** Whether archiving or copying the path wholesale would carry secrets along (/, /home, ~). */
  boolean containsSecrets(Path p) {
    return home.startsWith(p) || secret(p) != null;
  }
}
