package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Piece;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.shell.ShellLexer;
import java.util.ArrayList;
import java.util.List;

/**
 * The reading state of {@link ScriptLexer} and the literal forms it reads: quoted strings with their interpolations,
 * Ruby's {@code %} literals and heredocs, R's raw strings; brackets, lines and the tokens read so far.
 */
abstract class ScriptLiterals {

  final String src;
  final Dialect dialect;
  final int n;
  int i;
  int line;
  /** Open brackets; newlines end statements at top level and inside braces (blocks), not inside ( or [. */
  final StringBuilder brackets = new StringBuilder();
  final List<Tok> out = new ArrayList<>();

  ScriptLiterals(String src, Dialect dialect) {
    this.src = src;
    this.dialect = dialect;
    this.n = src.length();
  }

  boolean statementsEnd() {
    return brackets.length() == 0 || brackets.charAt(brackets.length() - 1) == '{';
  }

  void open(char c) {
    brackets.append(c);
  }

  void close() {
    if (brackets.length() > 0) {
      brackets.setLength(brackets.length() - 1);
    }
  }

  void newline() {
    if (statementsEnd() && !out.isEmpty() && out.get(out.size() - 1).kind() != TokenKind.NEWLINE) {
      add(TokenKind.NEWLINE, "\n", List.of());
    }
    line++;
  }

  void add(TokenKind kind, String text, List<Piece> pieces) {
    out.add(new Tok(kind, text, pieces, line));
  }

  void countLines(int from, int to) {
    for (int k = from; k < to && k < n; k++) {
      if (src.charAt(k) == '\n') {
        line++;
      }
    }
  }

  boolean interpolating(char quote) {
    return dialect == Dialect.RUBY && quote == '"';
  }

  /** Reads a quoted literal at i; {@code interp} turns on ${...} (JS templates) or #{...} (Ruby). */
  void string(char quote, boolean interp, TokenKind kind) {
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
  boolean percentLiteral() {
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
        || (out.size() > 0 && (out.get(out.size() - 1).kind() == TokenKind.NAME && !commandArgument()
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
      out.add(new Tok(TokenKind.SHELL, body, rubyInterpolation(body), line));
    } else if (type == 'w' || type == 'W' || type == 'i' || type == 'I') {
      add(TokenKind.OP, "[", List.of());
      boolean first = true;
      for (String w : body.strip().split("\\s+")) {
        if (w.isEmpty()) {
          continue;
        }
        if (!first) {
          add(TokenKind.OP, ",", List.of());
        }
        add(TokenKind.STRING, w, List.of(new Piece(w, false)));
        first = false;
      }
      add(TokenKind.OP, "]", List.of());
    } else {
      out.add(new Tok(TokenKind.STRING, body, type == 'Q' ? rubyInterpolation(body) : List.of(new Piece(body, false)), line));
    }
    return true;
  }

  /**
   * After a name, {@code %x{...}} is a literal when Ruby would read it as a method's first argument: {@code puts
   * %x{ls}} (a space before the {@code %}, a letter and the delimiter right after it), not {@code a % x}.
   */
  boolean commandArgument() {
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
  boolean heredoc() {
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
    out.add(new Tok(TokenKind.STRING, text, q == '\'' ? List.of(new Piece(text, false)) : rubyInterpolation(text), line));
    // the rest of the opening line is read normally; the body is skipped when the lexer reaches it
    String rest = src.substring(k, bodyStart);
    List<Tok> restToks = ScriptLexer.lex(rest, dialect);
    for (Tok t : restToks) {
      if (t.kind() != TokenKind.NEWLINE) {
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

  void rawRString() {
    char quote = src.charAt(i + 1);
    char open = src.charAt(i + 2);
    char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    String end = "" + close + quote;
    int start = i + 3;
    int stop = src.indexOf(end, start);
    stop = stop < 0 ? n : stop;
    String body = src.substring(start, stop);
    countLines(start, stop);
    add(TokenKind.STRING, body, List.of(new Piece(body, false)));
    i = Math.min(n, stop + 2);
  }
}
