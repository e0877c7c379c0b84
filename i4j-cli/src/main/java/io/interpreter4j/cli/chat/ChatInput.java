package io.interpreter4j.cli.chat;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.jline.builtins.Completers;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.EOFError;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;

/**
 * The chat's line editor: JLine with its history kept in a file across runs, multi-line messages between lines of
 * {@code """}, and tab completion of {@code %} commands and file paths. Backslashes, quotes and {@code !} are
 * taken literally (no shell-style escapes or history expansion): a message is text, not a command line.
 */
public final class ChatInput {

  static final String FENCE = "\"\"\"";

  private ChatInput() {}

  /**
   * A line reader on {@code terminal}; {@code workdir} gives the folder relative paths are completed from (asked at
   * each completion). A null {@code historyFile} keeps the history in memory until {@link LineReader#HISTORY_FILE}
   * is set (before the first readLine, which loads it).
   */
  public static LineReader reader(Terminal terminal, Path historyFile, Supplier<Path> workdir) {
    LineReaderBuilder builder = LineReaderBuilder.builder()
        .terminal(terminal)
        .appName("i4j")
        .parser(new Parser())
        .completer(new InputCompleter(workdir))
        .variable(LineReader.SECONDARY_PROMPT_PATTERN, "%P… ")
        .variable(LineReader.HISTORY_SIZE, 1000)
        .variable(LineReader.HISTORY_FILE_SIZE, 10_000)
        .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
        .option(LineReader.Option.HISTORY_IGNORE_SPACE, true);
    if (historyFile != null) {
      builder.variable(LineReader.HISTORY_FILE, historyFile);
    }
    return builder.build();
  }

  /** Whether a line leaves a {@code """} block open (an odd number of {@code """}). */
  public static boolean opensBlock(String line) {
    int count = 0;
    for (int i = line.indexOf(FENCE); i >= 0; i = line.indexOf(FENCE, i + FENCE.length())) {
      count++;
    }
    return count % 2 == 1;
  }

  /** The message a line stands for: the text between {@code """} markers when it is a multi-line block. */
  public static String message(String line) {
    String s = line.strip();
    if (s.startsWith(FENCE) && s.endsWith(FENCE) && s.length() >= 2 * FENCE.length()) {
      return s.substring(FENCE.length(), s.length() - FENCE.length()).strip();
    }
    return s;
  }

  /** Splits words at whitespace only, and asks for more lines while a {@code """} block is open. */
  static final class Parser extends DefaultParser {
    Parser() {
      setEscapeChars(new char[0]);
      setQuoteChars(new char[0]);
    }

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
      if (context == ParseContext.ACCEPT_LINE && opensBlock(line)) {
        throw new EOFError(-1, cursor, "a \"\"\" block is open", FENCE);
      }
      return super.parse(line, cursor, context);
    }
  }

  /** {@code %} commands as the first word, file paths everywhere else. */
  static final class InputCompleter implements Completer {
    private final Completers.FileNameCompleter files;

    InputCompleter(Supplier<Path> workdir) {
      this.files = new Completers.FileNameCompleter() {
        @Override
        protected Path getUserDir() {
          return workdir.get();
        }
      };
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
      if (line.wordIndex() == 0 && line.word().startsWith("%")) {
        for (MagicCommand.Spec spec : MagicCommand.SPECS) {
          if (spec.name().startsWith(line.word())) {
            candidates.add(new Candidate(spec.name(), spec.name(), null, spec.summary(), null, null,
                spec.arguments().isEmpty()));
          }
        }
        return;
      }
      files.complete(reader, line, candidates);
    }
  }
}
