package io.interpreter4j.runtime.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A language without a persistent REPL: each block is written to a file and run as a fresh process by a small
 * POSIX shell runner ({@code per_block_runner.sh}) that stays between blocks, so the block still gets stdin at
 * end-of-file, stdout and stderr apart, an end marker with its exit status, SIGINT on timeout and a kill of its
 * process tree. Used for AppleScript and for languages added in the configuration.
 */
final class PerBlockDialect extends ReplDialect {

  /** The word in a command that stands for the block's file. */
  static final String FILE_PLACEHOLDER = "{file}";

  static final PerBlockDialect APPLESCRIPT = new PerBlockDialect("applescript", List.of("osascript", FILE_PLACEHOLDER),
      "scpt");

  /** Headless browsers that can render an html block, by preference. */
  static final List<String> BROWSERS = List.of("chromium", "chromium-browser", "google-chrome",
      "google-chrome-stable", "microsoft-edge", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Applications/Chromium.app/Contents/MacOS/Chromium");

  private static volatile PerBlockDialect html;

  private final List<String> command;
  private final String folder;

  /**
   * @param command   argv of one run; every {@code {file}} (also inside a word) becomes the block's file, which is
   *                  appended as the last word when no word names it
   * @param extension the block file's extension, without the dot
   */
  PerBlockDialect(String name, List<String> command, String extension) {
    this(name, command, extension, "code");
  }

  private PerBlockDialect(String name, List<String> command, String extension, String folder) {
    super(name, name + " runner", "runner", "nothing (each block runs in a new process)",
        "a new runner will start for the next block (blocks share no state anyway).", extension);
    if (command.isEmpty()) {
      throw new IllegalArgumentException("the command of language '" + name + "' is empty");
    }
    this.command = List.copyOf(command);
    this.folder = folder;
  }

  /**
   * {@code html}: not executed. The block is saved as {@code sessionDir/html/block-<n>.html}; where a headless
   * browser is installed, its {@code --dump-dom} (scripts run) goes through {@link HtmlText} so the model reads the
   * page's text. Exit code 0 either way.
   */
  static PerBlockDialect html() {
    PerBlockDialect known = html;
    if (known == null) {
      known = new PerBlockDialect("html", htmlCommand(Executables.first(BROWSERS).orElse(null)), "html", "html");
      html = known;
    }
    return known;
  }

  /** The browser that renders html blocks, or null. */
  static Path browser() {
    return Executables.first(BROWSERS).orElse(null);
  }

  private static List<String> htmlCommand(Path browser) {
    if (browser == null) {
      return List.of("sh", "-c", "printf '%s\\n' \"Saved the page to $1 (HTML is not executed; no headless browser"
          + " was found to render it).\"", "i4j-html", FILE_PLACEHOLDER);
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classes = DriverDialect.classesOf(HtmlText.class);
    // chromium refuses to run as root without --no-sandbox; a throw-away profile, removed even on SIGINT
    String sandbox = "root".equals(System.getProperty("user.name")) ? " --no-sandbox" : "";
    // one line: the runner's protocol sends each command word on the block's line
    String script = String.join(" ",
        "profile=$(mktemp -d) || exit 1;",
        "trap 'rm -rf \"$profile\"' EXIT; trap 'exit 130' INT TERM;",
        "\"$0\" --headless --disable-gpu --no-first-run --no-default-browser-check --mute-audio" + sandbox,
        "--user-data-dir=\"$profile\" --virtual-time-budget=3000 --dump-dom \"$1\" 2>/dev/null",
        "| \"$2\" -Dfile.encoding=UTF-8 -Dstdout.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1 -cp \"$3\"", HtmlText.class.getName(), "\"$1\" \"$4\"");
    return List.of("sh", "-c", script, browser.toString(), FILE_PLACEHOLDER, java.toString(), classes,
        browser.getFileName().toString());
  }

  @Override
  List<String> argv(ReplConfig config) {
    return withSetsid(ReplProcess.withDefaultSigint(
        List.of("sh", "-c", resource("per_block_runner.sh"), "i4j-" + name())));
  }

  @Override
  String command(String marker, Path codeFile) {
    StringBuilder line = new StringBuilder(marker);
    for (String word : commandFor(checkedPath(codeFile))) {
      line.append(' ').append(quoted(word));
    }
    return line.append('\n').toString();
  }

  @Override
  boolean ownsProcessGroup() {
    return ReplProcess.SETSID != null;
  }

  @Override
  boolean keepsState() {
    return false;
  }

  @Override
  Path codeFile(Path sessionDir, int block) {
    return sessionDir.resolve(folder).resolve("block-" + block + "." + codeExtension());
  }

  List<String> command() {
    return command;
  }

  /** The argv that runs {@code file}. */
  List<String> commandFor(String file) {
    List<String> argv = new ArrayList<>(command.size() + 1);
    boolean named = false;
    for (String word : command) {
      named |= word.contains(FILE_PLACEHOLDER);
      argv.add(word.replace(FILE_PLACEHOLDER, file));
    }
    if (!named) {
      argv.add(file);
    }
    return argv;
  }

  /** One shell word: single quotes, with each embedded single quote closed, escaped and reopened. */
  static String quoted(String word) {
    if (word.indexOf('\n') >= 0 || word.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("a line break in a command word: " + word);
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
