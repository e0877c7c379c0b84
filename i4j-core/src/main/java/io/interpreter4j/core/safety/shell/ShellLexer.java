package io.interpreter4j.core.safety.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits shell source into simple commands (words, redirections, heredoc bodies) the way bash would read
 * them, closely enough to analyse: quotes, escapes, {@code $(...)}, backticks, {@code ${...}}, process
 * substitution and heredocs are understood; anything it cannot parse degrades to plain words, never an error.
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

  /** A simple command: what sits between two of {@code ; && || | & newline ( )}. */
  public static final class Command {
    public final List<Word> words = new ArrayList<>();
    public final List<Redirect> redirects = new ArrayList<>();
    public final List<String> heredocs = new ArrayList<>();
    /** The command's source text, trimmed. */
    public String text = "";
    /** Which pipeline of the script the command belongs to, and its position in it. */
    public int pipeline;
    int stage;

    boolean isEmpty() {
      return words.isEmpty() && redirects.isEmpty();
    }

    @Override
    public String toString() {
      return text;
    }
  }

  private record PendingHeredoc(String delimiter, boolean stripTabs, Command owner) {}

  private final String src;
  private final int n;
  private int i;
  private final List<Command> out = new ArrayList<>();
  private Command cur = new Command();
  private int cmdStart;
  private int pipeline;
  private int stage;
  private final List<Part> parts = new ArrayList<>();
  private final StringBuilder text = new StringBuilder();
  private boolean textQuoted;
  private boolean wordStarted;
  private int wordStart = -1;
  private String pendingRedirect;
  private final List<PendingHeredoc> heredocs = new ArrayList<>();

  private ShellLexer(String src) {
    this.src = src;
    this.n = src.length();
  }

  /** The simple commands of a script in source order; heredoc bodies hang off the command that opened them. */
  public static List<Command> parse(String src) {
    ShellLexer lexer = new ShellLexer(src);
    lexer.run();
    return lexer.out;
  }

  private void run() {
    while (i < n) {
      char c = src.charAt(i);
      switch (c) {
        case ' ', '\t', '\r' -> {
          finishWord();
          i++;
        }
        case '\n' -> {
          endCommand(i, 1, false);
          readHeredocBodies();
        }
        case '\\' -> {
          if (i + 1 < n && src.charAt(i + 1) == '\n') {
            i += 2;
          } else {
            startWord();
            if (i + 1 < n) {
              appendText(String.valueOf(src.charAt(i + 1)), true);
            }
            i += 2;
          }
        }
        case '#' -> {
          if (!wordStarted) {
            while (i < n && src.charAt(i) != '\n') {
              i++;
            }
          } else {
            appendText("#", false);
            i++;
          }
        }
        case '\'' -> {
          startWord();
          int end = src.indexOf('\'', i + 1);
          if (end < 0) {
            end = n;
          }
          appendText(src.substring(i + 1, end), true);
          i = Math.min(n, end + 1);
        }
        case '"' -> {
          startWord();
          readDoubleQuoted();
        }
        case '`' -> {
          startWord();
          int end = i + 1;
          while (end < n && src.charAt(end) != '`') {
            end += src.charAt(end) == '\\' ? 2 : 1;
          }
          addPart(new Part(PartKind.SUBST, src.substring(i + 1, Math.min(end, n)), false, true));
          i = Math.min(n, end + 1);
        }
        case '$' -> {
          startWord();
          readDollar(false);
        }
        case ';' -> {
          int len = (i + 1 < n && (src.charAt(i + 1) == ';' || src.charAt(i + 1) == '&')) ? 2 : 1;
          endCommand(i, len, false);
        }
        case '&' -> {
          if (i + 1 < n && src.charAt(i + 1) == '&') {
            endCommand(i, 2, false);
          } else if (i + 1 < n && src.charAt(i + 1) == '>') {
            finishWord();
            boolean append = i + 2 < n && src.charAt(i + 2) == '>';
            pendingRedirect = append ? "&>>" : "&>";
            i += append ? 3 : 2;
          } else {
            endCommand(i, 1, false);
          }
        }
        case '|' -> {
          if (i + 1 < n && src.charAt(i + 1) == '|') {
            endCommand(i, 2, false);
          } else {
            endCommand(i, (i + 1 < n && src.charAt(i + 1) == '&') ? 2 : 1, true);
          }
        }
        case '(' -> {
          if (wordStarted && text.length() > 0 && text.charAt(text.length() - 1) == '=') {
            // array assignment: arr=(a b c) holds words, not commands
            int end = closingParen(i + 1);
            appendText(src.substring(i, Math.min(n, end + 1)), true);
            i = Math.min(n, end + 1);
          } else if (!wordStarted && cur.isEmpty() && i + 1 < n && src.charAt(i + 1) == '(') {
            int end = src.indexOf("))", i + 2);
            i = end < 0 ? n : end + 2;
          } else {
            endCommand(i, 1, false);
          }
        }
        case ')' -> endCommand(i, 1, false);
        case '<', '>' -> readAngle(c);
        default -> {
          startWord();
          int end = i + 1;
          while (end < n && !isSpecial(src.charAt(end))) {
            end++;
          }
          appendText(src.substring(i, end), false);
          i = end;
        }
      }
    }
    endCommand(n, 0, false);
  }

  private void readAngle(char c) {
    if (i + 1 < n && src.charAt(i + 1) == '(') {
      startWord();
      int end = closingParen(i + 2);
      addPart(new Part(PartKind.SUBST, src.substring(i + 2, Math.min(end, n)), false, false));
      i = Math.min(n, end + 1);
      return;
    }
    // a word made only of digits right before the operator is a file descriptor, not an argument
    if (wordStarted && parts.isEmpty() && !textQuoted && isDigits(text)) {
      resetWord();
    } else {
      finishWord();
    }
    String op;
    if (c == '<') {
      if (src.startsWith("<<<", i)) {
        op = "<<<";
      } else if (src.startsWith("<<-", i)) {
        op = "<<-";
      } else if (src.startsWith("<<", i)) {
        op = "<<";
      } else if (src.startsWith("<>", i)) {
        op = "<>";
      } else if (src.startsWith("<&", i)) {
        op = "<&";
      } else {
        op = "<";
      }
    } else if (src.startsWith(">>", i)) {
      op = ">>";
    } else if (src.startsWith(">|", i)) {
      op = ">|";
    } else if (src.startsWith(">&", i)) {
      op = ">&";
    } else {
      op = ">";
    }
    i += op.length();
    pendingRedirect = op;
  }

  private void readDoubleQuoted() {
    i++;
    while (i < n) {
      char c = src.charAt(i);
      if (c == '"') {
        i++;
        return;
      }
      if (c == '\\' && i + 1 < n) {
        char next = src.charAt(i + 1);
        if (next == '\n') {
          i += 2;
        } else if (next == '"' || next == '\\' || next == '$' || next == '`') {
          appendText(String.valueOf(next), true);
          i += 2;
        } else {
          appendText("\\", true);
          i++;
        }
      } else if (c == '$') {
        readDollar(true);
      } else if (c == '`') {
        int end = i + 1;
        while (end < n && src.charAt(end) != '`') {
          end += src.charAt(end) == '\\' ? 2 : 1;
        }
        addPart(new Part(PartKind.SUBST, src.substring(i + 1, Math.min(end, n)), true, true));
        i = Math.min(n, end + 1);
      } else {
        appendText(String.valueOf(c), true);
        i++;
      }
    }
  }

  private void readDollar(boolean quoted) {
    if (i + 1 >= n) {
      appendText("$", quoted);
      i++;
      return;
    }
    char next = src.charAt(i + 1);
    if (next == '(' && i + 2 < n && src.charAt(i + 2) == '(') {
      int end = src.indexOf("))", i + 3);
      end = end < 0 ? n : end;
      addPart(new Part(PartKind.VAR, "((" + src.substring(i + 3, end) + "))", quoted, false));
      i = Math.min(n, end + 2);
    } else if (next == '(') {
      int end = closingParen(i + 2);
      addPart(new Part(PartKind.SUBST, src.substring(i + 2, Math.min(end, n)), quoted, true));
      i = Math.min(n, end + 1);
    } else if (next == '{') {
      int end = closingBrace(i + 2);
      addPart(braceVariable(src.substring(i + 2, Math.min(end, n)), quoted));
      i = Math.min(n, end + 1);
    } else if (next == '\'' && !quoted) {
      int end = i + 2;
      StringBuilder sb = new StringBuilder();
      while (end < n && src.charAt(end) != '\'') {
        char ch = src.charAt(end);
        if (ch == '\\' && end + 1 < n) {
          char e = src.charAt(end + 1);
          sb.append(switch (e) {
            case 'n' -> '\n';
            case 't' -> '\t';
            default -> e;
          });
          end += 2;
        } else {
          sb.append(ch);
          end++;
        }
      }
      appendText(sb.toString(), true);
      i = Math.min(n, end + 1);
    } else if (next == '"' && !quoted) {
      i++;
      readDoubleQuoted();
    } else if (Character.isLetter(next) || next == '_') {
      int end = i + 1;
      while (end < n && (Character.isLetterOrDigit(src.charAt(end)) || src.charAt(end) == '_')) {
        end++;
      }
      addPart(new Part(PartKind.VAR, src.substring(i + 1, end), quoted, true));
      i = end;
    } else if (Character.isDigit(next) || "@*#?$!-".indexOf(next) >= 0) {
      boolean mayBeEmpty = Character.isDigit(next) || next == '@' || next == '*' || next == '-';
      addPart(new Part(PartKind.VAR, String.valueOf(next), quoted, mayBeEmpty));
      i += 2;
    } else {
      appendText("$", quoted);
      i++;
    }
  }

  /** {@code ${NAME}}, {@code ${NAME:?msg}}, {@code ${NAME:-default}}, {@code ${#NAME}}: only the guards matter. */
  private static Part braceVariable(String inner, boolean quoted) {
    if (inner.startsWith("#") && inner.length() > 1) {
      return new Part(PartKind.VAR, inner, quoted, false);
    }
    int end = 0;
    while (end < inner.length() && (Character.isLetterOrDigit(inner.charAt(end)) || inner.charAt(end) == '_')) {
      end++;
    }
    if (end == 0 && !inner.isEmpty() && "@*#?$!-".indexOf(inner.charAt(0)) >= 0) {
      end = 1;
    }
    String name = inner.substring(0, end);
    String op = inner.substring(end);
    boolean mayBeEmpty = true;
    String fallback = null;
    if (op.startsWith(":?") || op.startsWith("?")) {
      mayBeEmpty = false;
    } else if (op.startsWith(":-") || op.startsWith(":=")) {
      mayBeEmpty = op.length() <= 2;
      fallback = op.substring(2);
    } else if (op.startsWith("-") || op.startsWith("=")) {
      fallback = op.substring(1);
    }
    return new Part(PartKind.VAR, name, quoted, mayBeEmpty, fallback);
  }

  /** The source text of a variable's default ({@code $HOME}, {@code ~/out}, {@code "a b"}) as one word. */
  public static Word word(String source) {
    List<Command> cmds = parse("w " + source);
    if (cmds.size() == 1 && cmds.get(0).words.size() == 2 && cmds.get(0).redirects.isEmpty()) {
      return cmds.get(0).words.get(1);
    }
    return new Word(List.of(new Part(PartKind.TEXT, source, true, false)), source);
  }

  /** Index of the {@code )} closing a group whose content starts at {@code from}; n when unterminated. */
  private int closingParen(int from) {
    return closing(src, from, '(', ')');
  }

  private int closingBrace(int from) {
    return closing(src, from, '{', '}');
  }

  public static int closing(String s, int from, char open, char close) {
    int depth = 1;
    int j = from;
    int len = s.length();
    while (j < len) {
      char c = s.charAt(j);
      if (c == '\\') {
        j += 2;
        continue;
      }
      if (c == '\'') {
        int end = s.indexOf('\'', j + 1);
        j = end < 0 ? len : end + 1;
        continue;
      }
      if (c == '"') {
        j++;
        while (j < len && s.charAt(j) != '"') {
          j += s.charAt(j) == '\\' ? 2 : 1;
        }
        j++;
        continue;
      }
      if (c == open) {
        depth++;
      } else if (c == close) {
        depth--;
        if (depth == 0) {
          return j;
        }
      }
      j++;
    }
    return len;
  }

  private void readHeredocBodies() {
    for (PendingHeredoc h : heredocs) {
      StringBuilder body = new StringBuilder();
      while (i < n) {
        int eol = src.indexOf('\n', i);
        int lineEnd = eol < 0 ? n : eol;
        String line = src.substring(i, lineEnd);
        i = eol < 0 ? n : eol + 1;
        String cmp = h.stripTabs() ? line.replaceFirst("^\t+", "") : line;
        if (cmp.equals(h.delimiter())) {
          break;
        }
        body.append(line).append('\n');
      }
      h.owner().heredocs.add(body.toString());
    }
    heredocs.clear();
    cmdStart = i;
  }

  private void startWord() {
    if (!wordStarted) {
      wordStarted = true;
      wordStart = i;
    }
  }

  private void appendText(String s, boolean quoted) {
    startWord();
    if (text.length() > 0 && quoted != textQuoted) {
      flushText();
    }
    textQuoted = quoted;
    text.append(s);
  }

  private void addPart(Part p) {
    flushText();
    parts.add(p);
  }

  private void flushText() {
    if (text.length() > 0) {
      parts.add(new Part(PartKind.TEXT, text.toString(), textQuoted, false));
      text.setLength(0);
    }
  }

  private void resetWord() {
    parts.clear();
    text.setLength(0);
    wordStarted = false;
  }

  private void finishWord() {
    if (!wordStarted) {
      return;
    }
    flushText();
    if (parts.isEmpty()) {
      parts.add(new Part(PartKind.TEXT, "", true, false));
    }
    Word w = new Word(parts, src.substring(wordStart, Math.min(i, n)));
    resetWord();
    if (pendingRedirect != null) {
      String op = pendingRedirect;
      pendingRedirect = null;
      cur.redirects.add(new Redirect(op, w));
      if (op.equals("<<") || op.equals("<<-")) {
        heredocs.add(new PendingHeredoc(unquoted(w), op.equals("<<-"), cur));
      }
    } else {
      cur.words.add(w);
    }
  }

  private static String unquoted(Word w) {
    StringBuilder sb = new StringBuilder();
    for (Part p : w.parts()) {
      sb.append(p.kind() == PartKind.VAR ? "$" + p.text() : p.text());
    }
    return sb.toString();
  }

  /** Closes the current command at {@code at}; the operator there is {@code len} chars long. */
  private void endCommand(int at, int len, boolean pipe) {
    finishWord();
    pendingRedirect = null;
    if (!cur.isEmpty()) {
      cur.text = src.substring(Math.min(cmdStart, at), at).strip();
      cur.pipeline = pipeline;
      cur.stage = stage;
      out.add(cur);
      cur = new Command();
      if (pipe) {
        stage++;
      } else {
        pipeline++;
        stage = 0;
      }
    }
    // an empty command (a blank line after "|", a group's parenthesis) leaves the pipeline as it is
    i = at + len;
    cmdStart = i;
  }

  /** Characters that end a run of plain word characters. */
  private static boolean isSpecial(char c) {
    return switch (c) {
      case ' ', '\t', '\r', '\n', '\\', '#', '\'', '"', '`', '$', ';', '&', '|', '(', ')', '<', '>' -> true;
      default -> false;
    };
  }

  private static boolean isDigits(CharSequence s) {
    if (s.length() == 0) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (!Character.isDigit(s.charAt(k))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The source with the inside of quotes and comments blanked out, same length: lets text patterns (fork bombs)
   * look at code without matching what is merely echoed or commented.
   */
  public static String maskQuotesAndComments(String s) {
    char[] out = s.toCharArray();
    int len = s.length();
    int j = 0;
    boolean wordStart = true;
    while (j < len) {
      char c = s.charAt(j);
      if (c == '\\') {
        j += 2;
        wordStart = false;
        continue;
      }
      if (c == '\'' || c == '"') {
        int k = j + 1;
        while (k < len && s.charAt(k) != c) {
          if (c == '"' && s.charAt(k) == '\\') {
            out[k] = ' ';
            k++;
          }
          if (k < len) {
            out[k] = ' ';
          }
          k++;
        }
        j = k + 1;
        wordStart = false;
        continue;
      }
      if (c == '#' && wordStart) {
        while (j < len && s.charAt(j) != '\n') {
          out[j] = ' ';
          j++;
        }
        continue;
      }
      wordStart = Character.isWhitespace(c) || c == ';' || c == '&' || c == '|' || c == '(' || c == ')';
      j++;
    }
    return new String(out);
  }
}
