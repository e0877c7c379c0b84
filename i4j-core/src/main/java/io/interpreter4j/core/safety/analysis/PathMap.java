package io.interpreter4j.core.safety.analysis;

import io.interpreter4j.core.safety.analysis.PathJudge.Kind;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a path lies for one block ({@link Kind}): the root, the home and working folders and what holds them, the
 * system, the home folder's dot-files, folders the block or its session created; and the links the block made, which
 * lead an access elsewhere. Also how a path is shown to the user ({@code ~/x}).
 */
final class PathMap {

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

  private final boolean workdirIsProject;
  private final Path workdir;
  private final Path home;
  private final Set<Path> created;
  private final Map<Path, Path> links = new LinkedHashMap<>();
  private int temps;

  PathMap(AnalysisContext ctx) {
    this.workdir = ctx.workdir();
    this.home = ctx.home();
    this.created = new HashSet<>(ctx.createdBySession());
    this.workdirIsProject = isProjectFolder(workdir);
  }

  Path home() {
    return home;
  }

  Path workdir() {
    return workdir;
  }

  /** Whether the working folder may be treated as the user's project (false for /, /etc, /usr/lib...). */
  boolean workdirIsProject() {
    return workdirIsProject;
  }

  /** Whether paths inside {@code dir} may be treated as the user's project (false for /, /etc, /usr/lib...). */
  static boolean isProjectFolder(Path dir) {
    if (dir.getNameCount() == 0 || NEVER_PROJECT.contains(dir)) {
      return false;
    }
    return !(dir.isAbsolute() && NEVER_PROJECT_ROOTS.contains(dir.getName(0).toString()))
        || dir.startsWith("/usr/src") || dir.startsWith("/usr/local/src");
  }

  /** A stand-in for the directory {@code mktemp -d} or {@code tempfile.mkdtemp()} will create; counts as created. */
  Path newTempDirectory() {
    Path p = Path.of("/tmp", "i4j-mktemp-" + (++temps));
    created.add(p);
    return p;
  }

  /** Remembers a path the block itself creates (mkdir, mktemp, venv), so deleting it later is fine. */
  void created(Path p) {
    Kind k = kind(p);
    if (k == Kind.INSIDE_WORKDIR || k == Kind.OUTSIDE || k == Kind.CREATED) {
      created.add(p);
    }
  }

  /**
   * A link the block makes ({@code ln -s TARGET LINK}, {@code os.symlink}): writing, reading or re-permissioning
   * through {@code link} acts on {@code target}. Deleting the link itself does not.
   */
  void linked(Path link, Path target) {
    if (links.size() < 256 && !link.equals(target)) {
      links.put(link, target);
    }
  }

  /** The path an access to {@code p} really reaches, through the links the block made (a few hops at most). */
  Path throughLinks(Path p) {
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

  Kind kind(Path p) {
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

  boolean isHomeDot(Path p) {
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

  String homeRelative(Path p) {
    return p.startsWith(home) && !p.equals(home) ? home.relativize(p).toString().replace('\\', '/') : null;
  }

  /** A path as a user reads it: "~/x" under home, else absolute. */
  String display(Path p) {
    if (p.equals(home)) {
      return "~";
    }
    String rel = homeRelative(p);
    return rel != null ? "~/" + rel : p.toString();
  }

  String display(Target t) {
    String base = display(t.path());
    if (t.glob() == null) {
      return base;
    }
    return base.endsWith("/") ? base + t.glob() : base + "/" + t.glob();
  }
}
