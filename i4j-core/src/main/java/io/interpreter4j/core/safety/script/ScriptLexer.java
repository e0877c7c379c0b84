package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.shell.ShellLexer;
import java.util.ArrayList;
import java.util.List;

/**
 * Tokens of JavaScript, Ruby and R, closely enough for the danger analysis: names (R's may hold dots, Ruby's end
 * in ? or !), numbers, operators, newlines, and string literals with their interpolations ({@code `${x}`},
 * {@code "#{x}"}) kept apart from the literal text. Ruby's backticks and {@code %x()} become shell-command tokens.
 * Comments and regular-expression literals are skipped. Never fails: what it cannot read becomes operators.
 */
public final class ScriptLexer {

  /** Which language's spelling to read. */
  public enum Dialect { JAVASCRIPT, RUBY, R }

  enum T { NAME, STRING, SHELL, NUMBER, OP, NEWLINE }

  /**
   * A piece of a string literal: literal text, or the source of an interpolated expression.
   *
   * @param text       the literal text or the expression's source
   * @param expression whether this piece is {@code ${...}} / {@code #{...}}
   */
  record Piece(String text, boolean expression) {}

  /**
   * One token.
   *
   * @param pieces for STRING and SHELL tokens, the literal and interpolated pieces; empty otherwise
   */
  record Tok(T kind, String text, List<Piece> pieces, int line) {

    boolean is(String s) {
      return (kind == T.OP || kind == T.NAME) && text.equals(s);
    }

    /** The literal's text when it holds no interpolation, else null. */
    String literal() {
      if (kind != T.STRING && kind != T.SHELL) {
        return null;
      }
      for (Piece p : pieces) {
        if (p.expression()) {
          return null;
        }
      }
      return text;
    }
  }

  private final String src;
  private final Dialect dialect;
  private final int n;
  private int i;
  private int line;
  /** Open brackets; newlines end statements at top level and inside braces (blocks), not inside ( or [. */
  private final StringBuilder brackets = new StringBuilder();
  private final List<Tok> out = new ArrayList<>();

  private ScriptLexer(String src, Dialect dialect) {
    this.src = src;
    this.dialect = dialect;
    this.n = src.length();
  }

  static List<Tok> lex(String src, Dialect dialect) {
    ScriptLexer l = new ScriptLexer(src, dialect);
    l.run();
    l.out.add(new Tok(T.NEWLINE, "\n", List.of(), l.line));
    return l.out;
  }

  private void run() {
    while (i < n) {
      char c = src.charAt(i);
      if (c == '\n') {
        newline();
        i++;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        i++;
      } else if (c == '\\' && i + 1 < n && src.charAt(i + 1) == '\n') {
        i += 2;
        line++;
      } else if (isComment(c)) {
        skipComment();
      } else if (c == '"' || c == '\'') {
        string(c, dialect != Dialect.R || c == '"' ? interpolating(c) : false, T.STRING);
      } else if (c == '`') {
        string('`', true, dialect == Dialect.RUBY ? T.SHELL : dialect == Dialect.R ? T.NAME : T.STRING);
      } else if (dialect == Dialect.RUBY && c == '%' && i + 2 < n && percentLiteral()) {
        // %x(...), %w[...], %q{...}: handled in percentLiteral
      } else if (dialect == Dialect.RUBY && c == '<' && src.startsWith("<<", i) && heredoc()) {
        // <<~EOS ... EOS
      } else if (dialect == Dialect.R && (c == 'r' || c == 'R') && i + 2 < n && (src.charAt(i + 1) == '"' || src.charAt(i + 1) == '\'')
          && "([{".indexOf(src.charAt(i + 2)) >= 0) {
        rawRString();
      } else if (Character.isLetter(c) || c == '_' || (c == '$' && dialect != Dialect.R) || (c == '.' && dialect == Dialect.R && i + 1 < n
          && Character.isLetter(src.charAt(i + 1))) || (dialect == Dialect.RUBY && (c == '@' || c == ':') && i + 1 < n
          && (Character.isLetter(src.charAt(i + 1)) || src.charAt(i + 1) == '_') && !(c == ':' && i > 0 && src.charAt(i - 1) == ':'))) {
        name();
      } else if (Character.isDigit(c)) {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(src.charAt(i)) || src.charAt(i) == '_' || src.charAt(i) == '.')) {
          i++;
        }
        add(T.NUMBER, src.substring(start, i), List.of());
      } else if (c == '/' && dialect != Dialect.R && regexAllowed()) {
        skipRegex();
      } else {
        operator(c);
      }
    }
  }

  private boolean statementsEnd() {
    return brackets.length() == 0 || brackets.charAt(brackets.length() - 1) == '{';
  }

  private void open(char c) {
    brackets.append(c);
  }

  private void close() {
    if (brackets.length() > 0) {
      brackets.setLength(brackets.length() - 1);
    }
  }

  private void newline() {
    if (statementsEnd() && !out.isEmpty() && out.get(out.size() - 1).kind() != T.NEWLINE) {
      add(T.NEWLINE, "\n", List.of());
    }
    line++;
  }

  private void add(T kind, String text, List<Piece> pieces) {
    out.add(new Tok(kind, text, pieces, line));
  }

  private boolean isComment(char c) {
    if (dialect == Dialect.JAVASCRIPT) {
      return c == '/' && i + 1 < n && (src.charAt(i + 1) == '/' || src.charAt(i + 1) == '*');
    }
    if (dialect == Dialect.RUBY && c == '=' && src.startsWith("=begin", i) && (i == 0 || src.charAt(i - 1) == '\n')) {
      return true;
    }
    return c == '#' && !(dialect == Dialect.RUBY && i + 1 < n && src.charAt(i + 1) == '{');
  }

  private void skipComment() {
    if (src.startsWith("/*", i)) {
      int end = src.indexOf("*/", i + 2);
      end = end < 0 ? n : end + 2;
      countLines(i, end);
      i = end;
    } else if (src.startsWith("=begin", i)) {
      int end = src.indexOf("\n=end", i);
      end = end < 0 ? n : end + 5;
      countLines(i, end);
      i = end;
    } else {
      while (i < n && src.charAt(i) != '\n') {
        i++;
      }
    }
  }

  private void countLines(int from, int to) {
    for (int k = from; k < to && k < n; k++) {
      if (src.charAt(k) == '\n') {
        line++;
      }
    }
  }

  private boolean interpolating(char quote) {
    return dialect == Dialect.RUBY && quote == '"';
  }

  /** Reads a quoted literal at i; {@code interp} turns on ${...} (JS templates) or #{...} (Ruby). */
  private void string(char quote, boolean interp, T kind) {
    int startLine = line;
    i++;
    List<Piece> pieces = new ArrayList<>();
    StringBuilder lit = new StringBuilder();
    StringBuilder all = new StringBuilder();
    while (i < n) {
      char c = src.charAt(i);
      if (c == quote) {
        i++;
        break;
      }
      if (c == '\n') {
        line++;
        if (quote != '`' && dialect == Dialect.JAVASCRIPT) {
          break;
        }
      }
      if (c == '\\' && i + 1 < n) {
        char e = src.charAt(i + 1);
        char v = switch (e) {
          case 'n' -> '\n';
          case 't' -> '\t';
          case '0' -> '\0';
          default -> e;
        };
        if (e == '\n') {
          line++;
        } else if (quote == '\'' && dialect == Dialect.RUBY && e != '\'' && e != '\\') {
          lit.append('\\');
          all.append('\\');
        }
        if (e != '\n') {
          lit.append(v);
          all.append(v);
        }
        i += 2;
        continue;
      }
      boolean open = interp && ((dialect == Dialect.JAVASCRIPT && c == '$' || dialect == Dialect.RUBY && c == '#')
          && i + 1 < n && src.charAt(i + 1) == '{');
      if (open) {
        int end = ShellLexer.closing(src, i + 2, '{', '}');
        if (lit.length() > 0) {
          pieces.add(new Piece(lit.toString(), false));
          lit.setLength(0);
        }
        String expr = src.substring(i + 2, Math.min(end, n));
        pieces.add(new Piece(expr, true));
        all.append("${").append(expr).append('}');
        countLines(i, Math.min(end, n));
        i = Math.min(n, end + 1);
        continue;
      }
      lit.append(c);
      all.append(c);
      i++;
    }
    if (lit.length() > 0 || pieces.isEmpty()) {
      pieces.add(new Piece(lit.toString(), false));
    }
    out.add(new Tok(kind, all.toString(), List.copyOf(pieces), startLine));
  }

  /** Ruby's %x(...) (a shell command), %w[...] and %i[...] (word lists), %q/%Q/%() (strings). */
  private boolean percentLiteral() {
    char type = src.charAt(i + 1);
    char open = Character.isLetter(type) ? src.charAt(i + 2) : type;
    if (!Character.isLetter(type)) {
      type = 'Q';
    }
    char close = switch (open) {
      case '(' -> ')';
      case '[' -> ']';
      case '{' -> '}';
      case '<' -> '>';
      case '|', '!', '/' -> open;
      default -> 0;
    };
    if (close == 0 || "xwWiIqQ".indexOf(type) < 0 || (i > 0 && Character.isLetterOrDigit(src.charAt(i - 1)))
        || (out.size() > 0 && (out.get(out.size() - 1).kind() == T.NAME && !commandArgument()
        || out.get(out.size() - 1).is(")")))) {
      return false;
    }
    int start = i + (Character.isLetter(src.charAt(i + 1)) ? 3 : 2);
    int end = open == close ? src.indexOf(close, start) : ShellLexer.closing(src, start, open, close);
    end = end < 0 ? n : Math.min(end, n);
    String body = src.substring(start, end);
    countLines(start, end);
    i = Math.min(n, end + 1);
    if (type == 'x') {
      out.add(new Tok(T.SHELL, body, rubyInterpolation(body), line));
    } else if (type == 'w' || type == 'W' || type == 'i' || type == 'I') {
      add(T.OP, "[", List.of());
      boolean first = true;
      for (String w : body.strip().split("\\s+")) {
        if (w.isEmpty()) {
          continue;
        }
        if (!first) {
          add(T.OP, ",", List.of());
        }
        add(T.STRING, w, List.of(new Piece(w, false)));
        first = false;
      }
      add(T.OP, "]", List.of());
    } else {
      out.add(new Tok(T.STRING, body, type == 'Q' ? rubyInterpolation(body) : List.of(new Piece(body, false)), line));
    }
    return true;
  }

  /**
   * After a name, {@code %x{...}} is a literal when Ruby would read it as a method's first argument: {@code puts
   * %x{ls}} (a space before the {@code %}, a letter and the delimiter right after it), not {@code a % x}.
   */
  private boolean commandArgument() {
    return i > 0 && (src.charAt(i - 1) == ' ' || src.charAt(i - 1) == '\t') && Character.isLetter(src.charAt(i + 1))
        && !Character.isWhitespace(src.charAt(i + 2));
  }

  private static List<Piece> rubyInterpolation(String body) {
    List<Piece> pieces = new ArrayList<>();
    int k = 0;
    StringBuilder lit = new StringBuilder();
    while (k < body.length()) {
      if (body.startsWith("#{", k)) {
        int end = ShellLexer.closing(body, k + 2, '{', '}');
        if (lit.length() > 0) {
          pieces.add(new Piece(lit.toString(), false));
          lit.setLength(0);
        }
        pieces.add(new Piece(body.substring(k + 2, Math.min(end, body.length())), true));
        k = end + 1;
      } else {
        lit.append(body.charAt(k++));
      }
    }
    if (lit.length() > 0 || pieces.isEmpty()) {
      pieces.add(new Piece(lit.toString(), false));
    }
    return List.copyOf(pieces);
  }

  /** Ruby heredocs: {@code <<~EOS}, {@code <<-EOS}, {@code <<EOS} and quoted forms; the body becomes a string token. */
  private boolean heredoc() {
    int k = i + 2;
    if (k < n && (src.charAt(k) == '~' || src.charAt(k) == '-')) {
      k++;
    }
    boolean quoted = k < n && (src.charAt(k) == '\'' || src.charAt(k) == '"');
    char q = quoted ? src.charAt(k) : 0;
    if (quoted) {
      k++;
    }
    int start = k;
    while (k < n && (Character.isLetterOrDigit(src.charAt(k)) || src.charAt(k) == '_')) {
      k++;
    }
    if (k == start || !Character.isUpperCase(src.charAt(start))) {
      return false;
    }
    String id = src.substring(start, k);
    if (quoted) {
      k++;
    }
    int bodyStart = src.indexOf('\n', k);
    if (bodyStart < 0) {
      return false;
    }
    StringBuilder body = new StringBuilder();
    int p = bodyStart + 1;
    int bodyEnd = n;
    while (p < n) {
      int eol = src.indexOf('\n', p);
      int le = eol < 0 ? n : eol;
      String l = src.substring(p, le);
      if (l.strip().equals(id)) {
        bodyEnd = le;
        break;
      }
      body.append(l.stripLeading()).append('\n');
      p = eol < 0 ? n : eol + 1;
    }
    String text = body.toString();
    out.add(new Tok(T.STRING, text, q == '\'' ? List.of(new Piece(text, false)) : rubyInterpolation(text), line));
    // the rest of the opening line is read normally; the body is skipped when the lexer reaches it
    String rest = src.substring(k, bodyStart);
    List<Tok> restToks = lex(rest, dialect);
    for (Tok t : restToks) {
      if (t.kind() != T.NEWLINE) {
        out.add(t);
        if (t.is("(") || t.is("[") || t.is("{")) {
          open(t.text().charAt(0));
        } else if (t.is(")") || t.is("]") || t.is("}")) {
          close();
        }
      }
    }
    countLines(bodyStart, bodyEnd);
    newline();
    i = Math.min(n, bodyEnd + 1);
    return true;
  }

  private void rawRString() {
    char quote = src.charAt(i + 1);
    char open = src.charAt(i + 2);
    char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    String end = "" + close + quote;
    int start = i + 3;
    int stop = src.indexOf(end, start);
    stop = stop < 0 ? n : stop;
    String body = src.substring(start, stop);
    countLines(start, stop);
    add(T.STRING, body, List.of(new Piece(body, false)));
    i = Math.min(n, stop + 2);
  }

  private void name() {
    int start = i;
    i++;
    while (i < n) {
      char c = src.charAt(i);
      if (Character.isLetterOrDigit(c) || c == '_' || (c == '$' && dialect == Dialect.JAVASCRIPT)
          || (c == '.' && dialect == Dialect.R && i + 1 < n && (Character.isLetterOrDigit(src.charAt(i + 1)) || src.charAt(i + 1) == '_'))) {
        i++;
      } else if ((c == '?' || c == '!') && dialect == Dialect.RUBY && !(i + 1 < n && src.charAt(i + 1) == '=')) {
        i++;
        break;
      } else {
        break;
      }
    }
    add(T.NAME, src.substring(start, i), List.of());
  }

  /** A '/' where an operand is expected starts a regular expression literal, not a division. */
  private boolean regexAllowed() {
    if (i + 1 < n && (src.charAt(i + 1) == ' ' || src.charAt(i + 1) == '=')) {
      return false;
    }
    if (out.isEmpty()) {
      return true;
    }
    Tok last = out.get(out.size() - 1);
    if (last.kind() == T.NEWLINE) {
      return true;
    }
    if (last.kind() == T.OP) {
      return !(last.is(")") || last.is("]") || last.is("}"));
    }
    return last.kind() == T.NAME && (last.is("return") || last.is("typeof") || last.is("when") || last.is("if")
        || last.is("unless") || last.is("and") || last.is("or") || last.is("not"));
  }

  private void skipRegex() {
    i++;
    boolean inClass = false;
    while (i < n) {
      char c = src.charAt(i);
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '\n') {
        break;
      }
      if (c == '[') {
        inClass = true;
      } else if (c == ']') {
        inClass = false;
      } else if (c == '/' && !inClass) {
        i++;
        while (i < n && Character.isLetter(src.charAt(i))) {
          i++;
        }
        break;
      }
      i++;
    }
    add(T.NAME, "__regex__", List.of());
  }

  private void operator(char c) {
    if (c == '{' && objectLiteral()) {
      open('o');
    } else if (c == '(' || c == '[' || c == '{') {
      open(c);
    } else if (c == ')' || c == ']' || c == '}') {
      close();
    }
    if (c == ';' && statementsEnd()) {
      add(T.NEWLINE, ";", List.of());
      i++;
      return;
    }
    for (String op : OPERATORS) {
      if (src.startsWith(op, i)) {
        add(T.OP, op, List.of());
        i += op.length();
        return;
      }
    }
    add(T.OP, String.valueOf(c), List.of());
    i++;
  }

  /**
   * A brace where a value is expected opens an object or hash literal ({@code fetch(u, {\n method: 'DELETE' })}),
   * not a block: newlines inside it do not end statements.
   */
  private boolean objectLiteral() {
    if (dialect == Dialect.R || out.isEmpty()) {
      return false;
    }
    Tok last = out.get(out.size() - 1);
    if (last.kind() == T.NAME) {
      return dialect == Dialect.JAVASCRIPT && (last.is("return") || last.is("await") || last.is("yield"));
    }
    return last.kind() == T.OP && (last.is("(") || last.is(",") || last.is("=") || last.is("[") || last.is(":")
        || last.is("=>") && dialect == Dialect.RUBY || last.is("?") || last.is("||") || last.is("??") || last.is("&&")
        || last.is("||="));
  }

  /** Multi-character operators, longest first. */
  private static final List<String> OPERATORS = List.of(
      "<<-", "...", "===", "!==", "**=", "||=", "&&=", "??=", "%||%", "|>", "<-", "->", "=>", "==", "!=", "<=", ">=", "&&", "||",
      "??", "?.", "::", "+=", "-=", "*=", "/=", "=~", "**", "++", "--", "%in%", "%>%", "%%");
}
