package io.interpreter4j.core.safety.shell;

import java.util.List;

/**
 * The shell syntax the danger analysis reads, and its entry points: a script's simple commands ({@link #parse}), one
 * word ({@link #word}), and text helpers. Words, their parts, redirections and commands are values; {@link ShellReader}
 * does the reading and {@link ShellSyntax} holds what needs no reader state.
 */
public final class ShellLexer {

  /** What a piece of a word is: literal text, a variable expansion, or a command substitution. */
  public enum PartKind { TEXT, VAR, SUBST }

  /**
   * One piece of a word.
   *
   * @param text       the literal text, the variable name, or the code inside the substitution
   * @param quoted     whether it was inside quotes (globs and tildes only act unquoted)
   * @param mayBeEmpty for variables: whether the expansion can be empty ({@code ${X:?}} cannot)
   * @param fallback   for variables: the default of {@code ${X:-default}} (source text), used when X is unset; or null
   */
  public record Part(PartKind kind, String text, boolean quoted, boolean mayBeEmpty, String fallback) {

    public Part(PartKind kind, String text, boolean quoted, boolean mayBeEmpty) {
      this(kind, text, quoted, mayBeEmpty, null);
    }
  }

  /** A shell word: its pieces and the source text it came from; its text forms are computed once. */
  public static final class Word {
    private final List<Part> parts;
    private final String raw;
    private final String literal;
    private final String text;

    public Word(List<Part> parts, String raw) {
      this.raw = raw;
      if (parts.size() == 1 && parts.get(0).kind() == PartKind.TEXT) {
        // the common case, a plain word: no copying, no builders
        this.parts = List.of(parts.get(0));
        this.literal = parts.get(0).text();
        this.text = this.literal;
        return;
      }
      this.parts = List.copyOf(parts);
      StringBuilder lit = new StringBuilder();
      StringBuilder txt = new StringBuilder();
      boolean pure = true;
      for (Part p : this.parts) {
        switch (p.kind()) {
          case TEXT -> {
            lit.append(p.text());
            txt.append(p.text());
          }
          case VAR -> {
            pure = false;
            txt.append('$').append(p.text());
          }
          case SUBST -> {
            pure = false;
            txt.append("$(").append(p.text()).append(')');
          }
        }
      }
      this.literal = pure ? lit.toString() : null;
      this.text = txt.toString();
    }

    public List<Part> parts() {
      return parts;
    }

    public String raw() {
      return raw;
    }

    /** The word's value when it is pure literal text, else null. */
    public String literal() {
      return literal;
    }

    /** The value with expansions shown as {@code $NAME} and {@code $(...)}: for display and name checks. */
    public String text() {
      return text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** A redirection such as {@code > file}, {@code >> file}, {@code < file} or a heredoc ({@code <<}). */
  public record Redirect(String op, Word target) {

    public boolean writes() {
      return op.startsWith(">") || op.startsWith("&>") || op.equals("<>");
    }

    public boolean appends() {
      return op.equals(">>") || op.equals("&>>");
    }

    public boolean reads() {
      return op.equals("<") || op.equals("<>");
    }
  }

  /**
   * A simple command: what sits between two of {@code ; && || | & newline ( )}. Its lists are the reader's own (no
   * copy, no wrapper: the analysis walks them for every command it reads); they are read, never changed.
   *
   * @param words     its words, assignments and command name included
   * @param redirects its redirections, heredocs included
   * @param heredocs  the bodies of its heredocs, in order
   * @param text      its source text, trimmed
   * @param pipeline  which pipeline of the script it belongs to (commands joined by {@code |} share one)
   */
  public record Command(List<Word> words, List<Redirect> redirects, List<String> heredocs, String text, int pipeline) {

    @Override
    public String toString() {
      return text;
    }
  }

  private ShellLexer() {}

  /** The simple commands of a script in source order; heredoc bodies hang off the command that opened them. */
  public static List<Command> parse(String src) {
    return ShellReader.read(src);
  }

  /** The source text of a variable's default ({@code $HOME}, {@code ~/out}, {@code "a b"}) as one word. */
  public static Word word(String source) {
    List<Command> cmds = parse("w " + source);
    if (cmds.size() == 1 && cmds.get(0).words().size() == 2 && cmds.get(0).redirects().isEmpty()) {
      return cmds.get(0).words().get(1);
    }
    return new Word(List.of(new Part(PartKind.TEXT, source, true, false)), source);
  }

  /** Index of the {@code close} matching an {@code open} whose content starts at {@code from}; the length when unterminated. */
  public static int closing(String s, int from, char open, char close) {
    return ShellSyntax.closing(s, from, open, close);
  }

  /**
   * The source with the inside of quotes and comments blanked out, same length: lets text patterns (fork bombs)
   * look at code without matching what is merely echoed or commented.
   */
  public static String maskQuotesAndComments(String s) {
    return ShellSyntax.maskQuotesAndComments(s);
  }
}
