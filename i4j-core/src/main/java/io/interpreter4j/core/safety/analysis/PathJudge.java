package io.interpreter4j.core.safety.analysis;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Judges what deleting, writing, moving or re-permissioning a resolved path means for this machine: the same
 * rules serve rm and shutil.rmtree, shell redirections and python's open(..., 'w').
 */
public final class PathJudge {

  /** Where a path lies; checked in this order, so a project inside /opt is still "inside the working directory". */
  public enum Kind { ROOT, HOME, ABOVE_HOME, WORKDIR, ABOVE_WORKDIR, INSIDE_WORKDIR, HOME_DOT, CREATED, SYSTEM, OUTSIDE }

  /**
   * A path an operation acts on.
   *
   * @param path absolute and normalised; when {@code glob} is set, the directory the glob is expanded in
   * @param glob the unexpanded rest ("*", "*.log", "*&#47;node_modules"), or null
   */
  public record Target(Path path, String glob) {

    /** A glob that matches (nearly) everything in its directory: "*", ".*", "*.*", "?*". */
    boolean broadGlob() {
      if (glob == null) {
        return false;
      }
      for (int k = 0; k < glob.length(); k++) {
        char c = glob.charAt(k);
        if (c != '*' && c != '?' && c != '.') {
          return false;
        }
      }
      return glob.indexOf('*') >= 0 || glob.indexOf('?') >= 0;
    }
  }

  private static final Path ROOT = Path.of("/");

  /** Top-level directories that belong to the system (Linux and macOS). */
  private static final Set<String> SYSTEM_ROOTS = Set.of(
      "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "opt", "proc", "root", "run",
      "sbin", "srv", "sys", "usr", "var", "snap", "System", "Library", "Applications", "private",
      "cores", "mnt", "media", "efi");

  /** Scratch space under system roots that any user may fill and empty. */
  private static final List<Path> NOT_SYSTEM = List.of(
      "/var/tmp", "/var/folders", "/private/tmp", "/private/var/folders", "/dev/shm", "/run/user")
      .stream().map(Path::of).toList();

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

  /**
   * Folders that are never a project, whatever the session's working folder: a session started in {@code /} or
   * {@code /etc} must not make {@code rm -rf /etc} "inside the working directory".
   */
  private static final Set<String> NEVER_PROJECT_ROOTS = Set.of(
      "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "sys", "usr", "System");
  private static final Set<Path> NEVER_PROJECT = Set.of(
      Path.of("/var"), Path.of("/var/lib"), Path.of("/var/log"), Path.of("/var/cache"), Path.of("/var/spool"),
      Path.of("/var/run"), Path.of("/run"), Path.of("/opt"), Path.of("/srv"), Path.of("/root"), Path.of("/home"),
      Path.of("/Users"), Path.of("/Library"), Path.of("/Applications"), Path.of("/private"), Path.of("/private/etc"),
      Path.of("/private/var"), Path.of("/mnt"), Path.of("/media"), Path.of("/snap"));

  private final AnalysisContext ctx;
  private final boolean workdirIsProject;
  private final Path workdir;
  private final Path home;
  private final Set<Path> created;

  public PathJudge(AnalysisContext ctx) {
    this.ctx = ctx;
    this.workdir = ctx.workdir();
    this.home = ctx.home();
    this.created = new HashSet<>(ctx.createdBySession());
    this.workdirIsProject = isProjectFolder(workdir);
  }

  /** Whether paths inside {@code dir} may be treated as the user's project (false for /, /etc, /usr/lib...). */
  static boolean isProjectFolder(Path dir) {
    if (dir.getNameCount() == 0 || NEVER_PROJECT.contains(dir)) {
      return false;
    }
    return !(dir.isAbsolute() && NEVER_PROJECT_ROOTS.contains(dir.getName(0).toString()))
        || dir.startsWith("/usr/src") || dir.startsWith("/usr/local/src");
  }

  private int temps;

  /** A stand-in for the directory {@code mktemp -d} or {@code tempfile.mkdtemp()} will create; counts as created. */
  public Path newTempDirectory() {
    Path p = Path.of("/tmp", "i4j-mktemp-" + (++temps));
    created.add(p);
    return p;
  }

  public AnalysisContext context() {
    return ctx;
  }

  /** Remembers a path the block itself creates (mkdir, mktemp, venv), so deleting it later is fine. */
  public void created(Path p) {
    Kind k = kind(p);
    if (k == Kind.INSIDE_WORKDIR || k == Kind.OUTSIDE || k == Kind.CREATED) {
      created.add(p);
    }
  }

  private final java.util.Map<Path, Path> links = new java.util.LinkedHashMap<>();

  /**
   * A link the block makes ({@code ln -s TARGET LINK}, {@code os.symlink}): writing, reading or re-permissioning
   * through {@code link} acts on {@code target}. Deleting the link itself does not.
   */
  public void linked(Path link, Path target) {
    if (links.size() < 256 && !link.equals(target)) {
      links.put(link, target);
    }
  }

  /** The path an access to {@code p} really reaches, through the links the block made (a few hops at most). */
  public Path throughLinks(Path p) {
    Path cur = p;
    for (int hop = 0; hop < 8 && !links.isEmpty(); hop++) {
      Path next = null;
      for (var e : links.entrySet()) {
        if (cur.startsWith(e.getKey())) {
          next = e.getValue().resolve(e.getKey().relativize(cur)).normalize();
          break;
        }
      }
      if (next == null || next.equals(cur)) {
        break;
      }
      cur = next;
    }
    return cur;
  }

  boolean isCreated(Path p) {
    for (Path c : created) {
      if (p.startsWith(c)) {
        return true;
      }
    }
    return false;
  }

  public Kind kind(Path p) {
    if (p.equals(ROOT) || p.getNameCount() == 0) {
      return Kind.ROOT;
    }
    if (p.equals(home)) {
      return Kind.HOME;
    }
    if (home.startsWith(p)) {
      return Kind.ABOVE_HOME;
    }
    if (!workdirIsProject) {
      return isHomeDot(p) ? Kind.HOME_DOT : isCreated(p) ? Kind.CREATED : isSystem(p) ? Kind.SYSTEM : Kind.OUTSIDE;
    }
    if (p.equals(workdir)) {
      return Kind.WORKDIR;
    }
    if (workdir.startsWith(p)) {
      return Kind.ABOVE_WORKDIR;
    }
    boolean inWork = p.startsWith(workdir);
    if (inWork && !workdir.equals(home)) {
      return Kind.INSIDE_WORKDIR;
    }
    if (isHomeDot(p)) {
      return Kind.HOME_DOT;
    }
    if (inWork) {
      return Kind.INSIDE_WORKDIR;
    }
    if (isCreated(p)) {
      return Kind.CREATED;
    }
    if (isSystem(p)) {
      return Kind.SYSTEM;
    }
    return Kind.OUTSIDE;
  }

  /** The rule families' view of where a path lies. */
  public Place place(Path p) {
    if (isDevice(p)) {
      return Place.DEVICE;
    }
    if (p.equals(workdir) && workdirIsProject) {
      return Place.WORKDIR;
    }
    return switch (kind(p)) {
      case ROOT -> Place.ROOT;
      case HOME -> Place.HOME;
      case ABOVE_HOME, ABOVE_WORKDIR -> Place.ABOVE;
      case WORKDIR -> Place.WORKDIR;
      case INSIDE_WORKDIR, CREATED -> Place.PROJECT;
      case HOME_DOT -> Place.HOME_DOT;
      case SYSTEM -> Place.SYSTEM;
      case OUTSIDE -> p.startsWith(home) ? Place.HOME_FILES : Place.ELSEWHERE;
    };
  }

  /** Lower is worse: orders candidate values of a loop variable by what deleting them would destroy. */
  public int danger(Path p) {
    return switch (kind(p)) {
      case ROOT -> 0;
      case HOME -> 1;
      case ABOVE_HOME -> 2;
      case ABOVE_WORKDIR -> 3;
      case WORKDIR -> 4;
      case SYSTEM -> 5;
      case HOME_DOT -> 6;
      case OUTSIDE -> 7;
      case CREATED -> 8;
      case INSIDE_WORKDIR -> 9;
    };
  }

  private boolean isHomeDot(Path p) {
    return p.startsWith(home) && !p.equals(home) && home.relativize(p).getName(0).toString().startsWith(".");
  }

  private static boolean isSystem(Path p) {
    for (Path safe : NOT_SYSTEM) {
      if (p.startsWith(safe) && !p.equals(safe)) {
        return false;
      }
    }
    return p.isAbsolute() && p.getNameCount() > 0 && SYSTEM_ROOTS.contains(p.getName(0).toString());
  }

  public boolean isDevice(Path p) {
    String s = p.toString();
    return s.startsWith("/dev/") && !HARMLESS_DEVICES.contains(s) && !s.startsWith("/dev/fd/")
        && !s.startsWith("/dev/shm/") && !s.startsWith("/dev/pts/") && !s.startsWith("/dev/tcp/")
        && !s.startsWith("/dev/udp/");
  }

  private String homeRelative(Path p) {
    return p.startsWith(home) && !p.equals(home) ? home.relativize(p).toString().replace('\\', '/') : null;
  }

  public boolean isShellRc(Path p) {
    String rel = homeRelative(p);
    return rel != null && SHELL_RC.contains(rel);
  }

  /**
   * What runs a file at {@code p} later by itself ("every new shell", "login", "cron"), or null: shell and
   * interpreter start-up files, autostart entries, service units, launch agents, cron tables, git hooks, SSH keys.
   */
  String persistence(Path p) {
    String rel = homeRelative(p);
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
        && !isCreated(p) && (name.toString().equals("sitecustomize.py") || name.toString().equals("usercustomize.py")
        || name.toString().endsWith(".pth"))) {
      return "runs in every Python start (" + display(p) + ")";
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
    String rel = homeRelative(p);
    return rel != null && (rel.equals(".ssh") || rel.startsWith(".ssh/"));
  }

  /** A short description of the secret a path holds ("~/.ssh/id_rsa", "/etc/shadow"), or null. */
  public String secret(Path p) {
    String s = p.toString();
    if (SYSTEM_SECRETS.contains(s) || s.startsWith("/etc/ssl/private")
        || (s.startsWith("/proc/") && s.endsWith("/environ"))) {
      return s;
    }
    Path name = p.getFileName();
    if (name != null) {
      String n = name.toString();
      if (n.equals(".env") || (n.startsWith(".env.") && !ENV_TEMPLATES.contains(n))) {
        return display(p);
      }
    }
    String rel = homeRelative(p);
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
  public boolean containsSecrets(Path p) {
    return home.startsWith(p) || secret(p) != null;
  }

  /** A path as a user reads it: "~/x" under home, else absolute. */
  public String display(Path p) {
    if (p.equals(home)) {
      return "~";
    }
    String rel = homeRelative(p);
    return rel != null ? "~/" + rel : p.toString();
  }

  public String display(Target t) {
    String base = display(t.path());
    if (t.glob() == null) {
      return base;
    }
    return base.endsWith("/") ? base + t.glob() : base + "/" + t.glob();
  }

  /** rm -r, shutil.rmtree, find -delete. */
  public Flag recursiveDelete(Target t) {
    Kind k = kind(t.path());
    boolean glob = t.glob() != null;
    String what = display(t);
    return switch (k) {
      case ROOT -> Flag.high("rm-recursive-root", glob ? "recursive delete of everything under /" : "recursive delete of /");
      case HOME -> Flag.high("rm-recursive-home",
          glob ? "recursive delete of everything in the home directory" : "recursive delete of the home directory");
      case ABOVE_HOME -> Flag.high("rm-recursive-home", "recursive delete of " + what + ", which holds the home directory");
      case WORKDIR -> glob && !t.broadGlob() ? null : Flag.high(glob ? "rm-recursive-glob" : "rm-recursive-workdir",
          glob ? "recursive delete of everything in the working directory" : "recursive delete of the working directory");
      case ABOVE_WORKDIR -> Flag.high("rm-recursive-workdir",
          "recursive delete of " + what + ", which holds the working directory");
      case INSIDE_WORKDIR, CREATED -> null;
      case HOME_DOT -> Flag.high("rm-recursive-dotfiles", "recursive delete of " + what);
      case SYSTEM -> Flag.high("rm-recursive-system", "recursive delete of system path " + what);
      case OUTSIDE -> Flag.high("rm-recursive-outside", "recursive delete outside the working directory: " + what);
    };
  }

  /** rm without -r, os.remove, Path.unlink. */
  public Flag delete(Target t) {
    Kind k = kind(t.path());
    String what = display(t);
    if (t.glob() != null && t.glob().contains("**") && (k == Kind.ROOT || k == Kind.HOME || k == Kind.ABOVE_HOME
        || k == Kind.ABOVE_WORKDIR || k == Kind.SYSTEM || k == Kind.HOME_DOT)) {
      return Flag.high("rm-broad", "deletes files matching " + t.glob() + " everywhere under " + display(t.path()));
    }
    if (t.glob() != null && t.broadGlob()) {
      return switch (k) {
        case ROOT, HOME, ABOVE_HOME, ABOVE_WORKDIR, SYSTEM -> Flag.high("rm-broad", "deletes every file in " + display(t.path()));
        case WORKDIR -> Flag.medium("rm-all-files", "deletes every file in the working directory");
        case INSIDE_WORKDIR, CREATED -> null;
        default -> Flag.medium("rm-outside", "deletes files outside the working directory: " + what);
      };
    }
    return switch (k) {
      case HOME_DOT -> {
        if (isHistory(t.path())) {
          yield Flag.high("history-wipe", "deletes shell history " + what);
        }
        boolean direct = home.relativize(t.path()).getNameCount() == 1;
        yield isSsh(t.path()) || isShellRc(t.path()) || secret(t.path()) != null || direct
            ? Flag.high("rm-dotfile", "deletes " + what)
            : Flag.medium("rm-outside", "deletes a file outside the working directory: " + what);
      }
      case SYSTEM -> Flag.high("rm-system", "deletes system file " + what);
      case OUTSIDE -> Flag.medium("rm-outside", "deletes a file outside the working directory: " + what);
      default -> isHistory(t.path()) ? Flag.high("history-wipe", "deletes shell history " + what) : null;
    };
  }

  /** Redirections, tee, cp/mv/ln destinations, dd of=, open(..., 'w'). */
  public Flag write(Target t, boolean append) {
    Path p = t.path();
    String what = display(t);
    if (p.toString().startsWith("/dev/")) {
      return isDevice(p) ? Flag.high("disk-write", "writes to device " + what) : null;
    }
    if (isHistory(p)) {
      return append ? null : Flag.high("history-wipe", "overwrites shell history " + what);
    }
    String later = persistence(p);
    if (later != null) {
      return Flag.high("persistence", (append ? "appends to " : "writes ") + what + ", which " + later);
    }
    Kind k = kind(p);
    if (k == Kind.HOME_DOT) {
      if (isSsh(p)) {
        return Flag.high("write-ssh", "writes to " + what);
      }
      if (isShellRc(p)) {
        return append ? Flag.medium("append-shell-rc", "appends to " + what + ", which runs in every new shell")
            : Flag.high("overwrite-dotfile", "overwrites " + what);
      }
      boolean direct = home.relativize(p).getNameCount() == 1;
      if (secret(p) != null || direct) {
        return append ? Flag.medium("append-dotfile", "appends to " + what)
            : Flag.high("overwrite-dotfile", "overwrites " + what);
      }
      return Flag.medium("write-dotfile", "writes to " + what);
    }
    if (k == Kind.SYSTEM) {
      return Flag.high("system-file-write", (append ? "writes to system file " : "overwrites system file ") + what);
    }
    return null;
  }

  /** The source of mv, shutil.move, os.rename. */
  public Flag moveSource(Target t) {
    Kind k = kind(t.path());
    String what = display(t);
    return switch (k) {
      case ROOT -> Flag.high("mv-system", "moves / away");
      case HOME, ABOVE_HOME -> Flag.high("mv-system", "moves the home directory away");
      case WORKDIR, ABOVE_WORKDIR -> Flag.high("mv-system", "moves the working directory away");
      case SYSTEM -> Flag.high("mv-system", "moves system path " + what);
      case HOME_DOT -> {
        if (isHistory(t.path())) {
          yield Flag.high("history-wipe", "moves shell history " + what + " away");
        }
        // without ~/.ssh or a credentials file the user is locked out of remote machines
        yield isSsh(t.path()) || secret(t.path()) != null ? Flag.high("mv-dotfile", "moves " + what + " away")
            : Flag.medium("mv-dotfile", "moves " + what);
      }
      default -> null;
    };
  }

  /** The destination of mv: a device destroys what is moved there. */
  public Flag moveDestination(Target t) {
    if (t.path().toString().startsWith("/dev/")) {
      return Flag.high("move-to-device", "moves a file onto " + display(t) + ", destroying it");
    }
    return write(t, false);
  }

  /**
   * chmod with its mode: beyond {@link #permissions(Target, boolean, String)}, a mode that lets every user write a
   * protected place, or lets others read or write keys and credentials, is HIGH even without -R.
   */
  public Flag permissions(Target t, boolean recursive, String tool, String mode) {
    Flag base = permissions(t, recursive, tool);
    if (mode == null || !tool.equals("chmod") || base != null && base.level() == Level.HIGH) {
      return base;
    }
    Kind k = kind(t.path());
    String what = display(t);
    boolean protectedPlace = k == Kind.ROOT || k == Kind.HOME || k == Kind.ABOVE_HOME || k == Kind.HOME_DOT
        || k == Kind.SYSTEM || k == Kind.ABOVE_WORKDIR || k == Kind.WORKDIR && t.glob() == null;
    if (protectedPlace && Modes.worldWritable(mode)) {
      return Flag.high("chmod-world-writable", "lets every user write " + what + " (chmod " + mode + ")");
    }
    boolean secret = isSsh(t.path()) && (t.glob() != null || secret(t.path()) != null || t.path().endsWith(".ssh"))
        || secret(t.path()) != null;
    if (secret && Modes.opensToOthers(mode)) {
      return Flag.high("chmod-secret", "lets other users read or change " + what + " (chmod " + mode + ")");
    }
    return base;
  }

  /** chmod, chown, chgrp. */
  public Flag permissions(Target t, boolean recursive, String tool) {
    Kind k = kind(t.path());
    String what = display(t);
    return switch (k) {
      case ROOT, ABOVE_HOME, SYSTEM, ABOVE_WORKDIR -> recursive
          ? Flag.high(tool + "-recursive-system", tool + " -R on " + what)
          : Flag.high(tool + "-system", tool + " on system path " + what);
      case HOME -> recursive ? Flag.high(tool + "-recursive-system", tool + " -R on the home directory")
          : Flag.medium(tool + "-home", tool + " on the home directory");
      case HOME_DOT, OUTSIDE -> recursive ? Flag.medium(tool + "-recursive-outside", tool + " -R outside the working directory: " + what) : null;
      default -> null;
    };
  }
}
