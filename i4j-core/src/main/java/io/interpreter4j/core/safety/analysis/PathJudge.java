package io.interpreter4j.core.safety.analysis;

import java.nio.file.Path;

/**
 * Judges what deleting, writing, moving or re-permissioning a resolved path means for this machine: the same
 * rules serve rm and shutil.rmtree, shell redirections and python's open(..., 'w'). Where a path lies is the
 * {@link PathMap}'s to say; which paths hold secrets or run later, the {@link SensitivePaths}'.
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

  private final AnalysisContext ctx;
  private final PathMap map;
  private final SensitivePaths sensitive;
  private final Path home;

  public PathJudge(AnalysisContext ctx) {
    this.ctx = ctx;
    this.map = new PathMap(ctx);
    this.sensitive = new SensitivePaths(map);
    this.home = ctx.home();
  }

  public AnalysisContext context() {
    return ctx;
  }

  /** A stand-in for the directory {@code mktemp -d} or {@code tempfile.mkdtemp()} will create; counts as created. */
  public Path newTempDirectory() {
    return map.newTempDirectory();
  }

  /** Remembers a path the block itself creates (mkdir, mktemp, venv), so deleting it later is fine. */
  public void created(Path p) {
    map.created(p);
  }

  /**
   * A link the block makes ({@code ln -s TARGET LINK}, {@code os.symlink}): writing, reading or re-permissioning
   * through {@code link} acts on {@code target}. Deleting the link itself does not.
   */
  public void linked(Path link, Path target) {
    map.linked(link, target);
  }

  /** The path an access to {@code p} really reaches, through the links the block made (a few hops at most). */
  public Path throughLinks(Path p) {
    return map.throughLinks(p);
  }

  public Kind kind(Path p) {
    return map.kind(p);
  }

  /** The rule families' view of where a path lies. */
  public Place place(Path p) {
    if (isDevice(p)) {
      return Place.DEVICE;
    }
    if (p.equals(map.workdir()) && map.workdirIsProject()) {
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

  public boolean isDevice(Path p) {
    return sensitive.isDevice(p);
  }

  public boolean isShellRc(Path p) {
    return sensitive.isShellRc(p);
  }

  /** A short description of the secret a path holds ("~/.ssh/id_rsa", "/etc/shadow"), or null. */
  public String secret(Path p) {
    return sensitive.secret(p);
  }

  /** Whether archiving or copying the path wholesale would carry secrets along (/, /home, ~). */
  public boolean containsSecrets(Path p) {
    return sensitive.containsSecrets(p);
  }

  /** A path as a user reads it: "~/x" under home, else absolute. */
  public String display(Path p) {
    return map.display(p);
  }

  public String display(Target t) {
    return map.display(t);
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
        if (sensitive.isHistory(t.path())) {
          yield Flag.high("history-wipe", "deletes shell history " + what);
        }
        boolean direct = home.relativize(t.path()).getNameCount() == 1;
        yield sensitive.isSsh(t.path()) || isShellRc(t.path()) || secret(t.path()) != null || direct
            ? Flag.high("rm-dotfile", "deletes " + what)
            : Flag.medium("rm-outside", "deletes a file outside the working directory: " + what);
      }
      case SYSTEM -> Flag.high("rm-system", "deletes system file " + what);
      case OUTSIDE -> Flag.medium("rm-outside", "deletes a file outside the working directory: " + what);
      default -> sensitive.isHistory(t.path()) ? Flag.high("history-wipe", "deletes shell history " + what) : null;
    };
  }

  /** Redirections, tee, cp/mv/ln destinations, dd of=, open(..., 'w'). */
  public Flag write(Target t, boolean append) {
    Path p = t.path();
    String what = display(t);
    if (p.toString().startsWith("/dev/")) {
      return isDevice(p) ? Flag.high("disk-write", "writes to device " + what) : null;
    }
    if (sensitive.isHistory(p)) {
      return append ? null : Flag.high("history-wipe", "overwrites shell history " + what);
    }
    String later = sensitive.persistence(p);
    if (later != null) {
      return Flag.high("persistence", (append ? "appends to " : "writes ") + what + ", which " + later);
    }
    Kind k = kind(p);
    if (k == Kind.HOME_DOT) {
      if (sensitive.isSsh(p)) {
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
        if (sensitive.isHistory(t.path())) {
          yield Flag.high("history-wipe", "moves shell history " + what + " away");
        }
        // without ~/.ssh or a credentials file the user is locked out of remote machines
        yield sensitive.isSsh(t.path()) || secret(t.path()) != null ? Flag.high("mv-dotfile", "moves " + what + " away")
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
    boolean secret = sensitive.isSsh(t.path()) && (t.glob() != null || secret(t.path()) != null || t.path().endsWith(".ssh"))
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
