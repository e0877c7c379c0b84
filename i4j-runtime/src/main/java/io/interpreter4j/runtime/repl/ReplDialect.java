package io.interpreter4j.runtime.repl;

import io.interpreter4j.core.intercept.Languages;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What differs between the workers of each language: how to start the driver and how to hand it a block. Python and
 * bash are here; the other drivers are {@link DriverDialect}s, and languages run as one process per block are
 * {@link PerBlockDialect}s.
 */
abstract class ReplDialect {

  /** The driver resources, read from the jar once each (a handful of files). */
  private static final Map<String, String> RESOURCES = new ConcurrentHashMap<>();

  /** How a worker whose process died tells that the next block starts from scratch. */
  static final String NEW_PROCESS_NEXT = "its state was lost and a new process will start for the next block.";

  static final ReplDialect PYTHON = new ReplDialect("python", "python process", "process",
      "earlier state (variables, imports)", NEW_PROCESS_NEXT, "py") {
    @Override
    List<String> argv(ReplConfig config) {
      String python = config.pythonExecutable() != null ? config.pythonExecutable() : PythonExecutable.resolve();
      if (Path.of(python).isAbsolute() && !java.nio.file.Files.isExecutable(Path.of(python))) {
        // caught here, since behind setsid a missing interpreter would only show as exit code 127
        throw new UncheckedIOException(new IOException("no executable python at " + python));
      }
      // -u: unbuffered, so output streams live; the driver puts itself in its own process group if setsid is absent
      return withSetsid(List.of(python, "-u", "-c", resource("python_driver.py")));
    }

    @Override
    String inlineCommand(String marker, int block, String code) {
      // "<marker> <bytes> <name>" then the code's UTF-8 bytes: no file to write, any character allowed
      return marker + " " + code.getBytes(StandardCharsets.UTF_8).length + " <block-" + block + ">\n" + code;
    }

    @Override
    boolean ownsProcessGroup() {
      return true;
    }
  };

  /** The largest bash block in UTF-8 bytes: its length goes to the driver as 9 digits. */
  static final int MAX_CODE_BYTES = 999_999_999;

  static final ReplDialect BASH = new ReplDialect("bash", "bash shell", "shell",
      "earlier state (cwd, variables, functions)",
      "a new shell will start for the next block and its state (cwd, variables, functions) was reset.", "sh") {
    @Override
    List<String> argv(ReplConfig config) {
      // the script comes through stdin as a file bash opens itself, so fd 0 is free to become /dev/null
      return withSetsid(ReplProcess.withDefaultSigint(List.of("bash", "--noprofile", "--norc", "/dev/stdin")));
    }

    @Override
    String prelude() {
      return BashPrelude.TEXT;
    }

    @Override
    String command(String marker, Path codeFile) {
      String quoted = "'" + checkedPath(codeFile).replace("'", "'\\''") + "'";
      return "{ __i4j_begin f;} 2>&63;. " + quoted + ";{ __i4j_done $?;} 2>&63\n" + BashHeader.of(marker, 0, true);
    }

    @Override
    String inlineCommand(String marker, int block, String code) {
      // The line `__i4j_x` for bash's parser, which reads a pipe a byte at a time (an alias for the block's command
      // line), then a fixed header and the code, which the driver takes with `read -N` and sources at top level
      // (bash_driver.sh). bash drops NUL bytes without counting them, so they are left out here; a count in
      // characters is the same in every locale only for ASCII code, so other code is counted in UTF-8 bytes and
      // read in the C locale.
      String verbatim = code.indexOf('\0') < 0 ? code : code.replace("\0", "");
      int bytes = utf8Length(verbatim);
      return "__i4j_x\n" + BashHeader.of(marker, bytes, bytes == verbatim.length()) + verbatim;
    }

    @Override
    boolean ownsProcessGroup() {
      return ReplProcess.SETSID != null;
    }
  };

  private final String name;
  private final String processName;
  private final String processNoun;
  private final String earlierState;
  private final String stateLostTail;
  private final String codeExtension;

  ReplDialect(String name, String processName, String processNoun, String earlierState, String stateLostTail,
      String codeExtension) {
    this.name = name;
    this.processName = processName;
    this.processNoun = processNoun;
    this.earlierState = earlierState;
    this.stateLostTail = stateLostTail;
    this.codeExtension = codeExtension;
  }

  /** "python", "py", "bash", "sh", "js", "rb", ... to the dialect of a built-in language. */
  static ReplDialect of(String language) {
    String canonical = Languages.normalize(language.strip().toLowerCase(Locale.ROOT), "");
    return switch (canonical) {
      case Languages.PYTHON -> PYTHON;
      case Languages.BASH -> BASH;
      case Languages.JAVASCRIPT -> DriverDialect.JAVASCRIPT;
      case Languages.RUBY -> DriverDialect.RUBY;
      case Languages.R -> DriverDialect.R;
      case Languages.POWERSHELL -> DriverDialect.POWERSHELL;
      case Languages.JAVA -> DriverDialect.JAVA;
      case Languages.APPLESCRIPT -> PerBlockDialect.APPLESCRIPT;
      case Languages.HTML -> PerBlockDialect.html();
      default -> throw new IllegalArgumentException("no REPL for language '" + language + "'");
    };
  }

  /** The command line that starts the driver. */
  abstract List<String> argv(ReplConfig config);

  /** Text written to the driver's stdin right after start, or null (none, the default). */
  String prelude() {
    return null;
  }

  /**
   * The line that tells the driver to run {@code codeFile} and end with {@code marker}. By default the protocol of
   * {@code python_driver.py}, which the other drivers ({@link DriverDialect}) speak too: {@code "<marker> <path>"}.
   */
  String command(String marker, Path codeFile) {
    return marker + " " + checkedPath(codeFile) + "\n";
  }

  /**
   * What tells the driver to run {@code code} itself, sent over the command channel with no code file, or null
   * when the driver only reads code files ({@link #command} is used then).
   */
  String inlineCommand(String marker, int block, String code) {
    return null;
  }

  /** Whether the driver leads its own process group, so one signal to the group reaches all the code's children. */
  abstract boolean ownsProcessGroup();

  /** Where block {@code block}'s code is written: {@code sessionDir/code/block-<n>.<ext>}. */
  Path codeFile(Path sessionDir, int block) {
    return sessionDir.resolve("code").resolve("block-" + block + "." + codeExtension);
  }

  /** Variables the driver needs in its environment (added to the worker's own). */
  Map<String, String> environment() {
    return Map.of();
  }

  /** Whether blocks share state (variables, definitions); false when every block runs in a new process. */
  boolean keepsState() {
    return true;
  }

  /** The canonical language name, e.g. "python". */
  String name() {
    return name;
  }

  String processName() {
    return processName;
  }

  String processNoun() {
    return processNoun;
  }

  String earlierState() {
    return earlierState;
  }

  String stateLostTail() {
    return stateLostTail;
  }

  String codeExtension() {
    return codeExtension;
  }

  static List<String> withSetsid(List<String> argv) {
    if (ReplProcess.SETSID == null) {
      return argv;
    }
    // a new session: the driver leads its own process group and has no controlling terminal, so tools that
    // would prompt on /dev/tty (sudo, ssh) fail fast instead of hanging
    List<String> all = new ArrayList<>();
    all.add(ReplProcess.SETSID);
    all.addAll(argv);
    return all;
  }

  /** The length of {@code text} in UTF-8 bytes as {@link ReplProcess#send} writes it (a lone surrogate as '?'). */
  static int utf8Length(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return text.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return text.length();
  }

  static String checkedPath(Path codeFile) {
    String path = codeFile.toAbsolutePath().toString();
    if (path.indexOf('\n') >= 0 || path.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a line break in the session folder's path: " + path);
    }
    return path;
  }

  static String resource(String name) {
    return RESOURCES.computeIfAbsent(name, ReplDialect::readResource);
  }

  private static String readResource(String name) {
    try (InputStream in = ReplDialect.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing driver resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the bash driver reads after its command line, before the code. */
  static final class BashHeader {
    private BashHeader() {}

    /**
     * The 42 characters the driver reads before the code: the 32-character marker ({@link MarkerScanner#newMarker}),
     * the code's length as 9 digits and {@code -} when that length is in characters (ASCII code) or {@code b} when it
     * is in UTF-8 bytes.
     */
    static String of(String marker, int length, boolean ascii) {
      if (marker.length() != 32) {
        throw new IllegalArgumentException("the bash driver takes a 32-character marker, not '" + marker + "'");
      }
      if (length > MAX_CODE_BYTES) {
        throw new IllegalArgumentException("a bash block of " + length + " bytes is more than the driver takes ("
            + MAX_CODE_BYTES + "); split it into smaller blocks");
      }
      return marker + String.format(Locale.ROOT, "%09d", length) + (ascii ? "-" : "b");
    }
  }

  /**
   * The bash driver as sent to the shell: one short line that reads the rest with {@code read -N} (one read(2); a
   * byte per read(2) with {@code -n} on a bash before 4.1) and evaluates it at top level, then the driver without
   * its comments. bash's parser reads a script from a pipe a byte per system call: read by the parser, the driver's
   * 6 KB cost a millisecond or more at each shell start.
   */
  static final class BashPrelude {
    static final String TEXT = bootstrapped(withoutComments(resource("bash_driver.sh")));

    private BashPrelude() {}

    static String bootstrapped(String driver) {
      int length = utf8Length(driver);
      if (length != driver.length()) {
        throw new IllegalStateException("the bash driver must be ASCII: read -N counts characters");
      }
      return "if [ -z \"${I4J_BASH_NO_READ_N-}\" ]&&((BASH_VERSINFO[0]>4||(BASH_VERSINFO[0]==4&&BASH_VERSINFO[1]>=1)))"
          + ";then builtin read -r -N " + length + " -u 255 __i4j_p;else IFS= builtin read -r -d '' -n " + length
          + " -u 255 __i4j_p;fi;eval \"$__i4j_p\";unset __i4j_p\n" + driver;
    }
  }

  /**
   * {@code script} without its comment lines, blank lines and indentation: bash reads its script from a pipe a byte
   * per read(2), so each byte of the prelude costs a system call at every shell start. Only for scripts with no
   * multi-line string or here-document (the bash driver has none).
   */
  static String withoutComments(String script) {
    StringBuilder out = new StringBuilder(script.length());
    for (String line : script.split("\n", -1)) {
      String code = line.strip();
      if (!code.isEmpty() && code.charAt(0) != '#') {
        out.append(code).append('\n');
      }
    }
    return out.toString();
  }

  /** The real interpreter behind {@code python3}, found once: spawning through a pyenv shim costs a bash run each time. */
  static final class PythonExecutable {
    private static volatile String resolved;

    private PythonExecutable() {}

    static String resolve() {
      String known = resolved;
      if (known != null) {
        return known;
      }
      synchronized (PythonExecutable.class) {
        if (resolved == null) {
          resolved = ask();
        }
        return resolved;
      }
    }

    private static String ask() {
      try {
        // -S: no site import, which is most of a python start (a .pth file may import whole packages) and does not
        // change sys.executable; this runs before the first prompt
        Process p = new ProcessBuilder("python3", "-S", "-c", "import sys;print(sys.executable)")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
        // wait first: the one short line fits in the pipe, and a hung interpreter must not hang us
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          return "python3";
        }
        byte[] out = p.getInputStream().readNBytes(4096);
        String path = new String(out, StandardCharsets.UTF_8).strip();
        return p.exitValue() == 0 && !path.isEmpty() ? path : "python3";
      } catch (IOException e) {
        return "python3";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "python3";
      }
    }
  }
}
