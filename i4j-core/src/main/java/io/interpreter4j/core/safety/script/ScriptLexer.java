package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.code.CodeToken;
import io.interpreter4j.core.safety.code.TokenKind;
import java.util.List;

/**
 * Tokens of JavaScript, Ruby and R, closely enough for the danger analysis: names (R's may hold dots, Ruby's end
 * in ? or !), numbers, operators, newlines, and string literals with their interpolations ({@code `${x}`},
 * {@code "#{x}"}) kept apart from the literal text. Ruby's backticks and {@code %x()} become shell-command tokens.
 * Comments and regular-expression literals are skipped. Never fails: what it cannot read becomes operators.
 */
public final class ScriptLexer extends ScriptLiterals {

  /** Which language's spelling to read. */
  public enum Dialect { JAVASCRIPT, RUBY, R }

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
  record Tok(TokenKind kind, String text, List<Piece> pieces, int line) implements CodeToken {

    /** The literal's text when it holds no interpolation, else null. */
    String literal() {
      if (kind != TokenKind.STRING && kind != TokenKind.SHELL) {
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

  private ScriptLexer(String src, Dialect dialect) {
    super(src, dialect);
  }

  static List<Tok> lex(String src, Dialect dialect) {
    ScriptLexer l = new ScriptLexer(src, dialect);
    l.run();
    l.out.add(new Tok(TokenKind.NEWLINE, "\n", List.of(), l.line));
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
        string(c, dialect != Dialect.R || c == '"' ? interpolating(c) : false, TokenKind.STRING);
      } else if (c == '`') {
        string('`', true, dialect == Dialect.RUBY ? TokenKind.SHELL : dialect == Dialect.R ? TokenKind.NAME : TokenKind.STRING);
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
        add(TokenKind.NUMBER, src.substring(start, i), List.of());
      } else if (c == '/' && dialect != Dialect.R && regexAllowed()) {
        skipRegex();
      } else {
        operator(c);
      }
    }
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
    add(TokenKind.NAME, src.substring(start, i), List.of());
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
    if (last.kind() == TokenKind.NEWLINE) {
      return true;
    }
    if (last.kind() == TokenKind.OP) {
      return !(last.is(")") || last.is("]") || last.is("}"));
    }
    return last.kind() == TokenKind.NAME && (last.is("return") || last.is("typeof") || last.is("when") || last.is("if")
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
    add(TokenKind.NAME, "__regex__", List.of());
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
      add(TokenKind.NEWLINE, ";", List.of());
      i++;
      return;
    }
    for (String op : OPERATORS) {
      if (src.startsWith(op, i)) {
        add(TokenKind.OP, op, List.of());
        i += op.length();
        return;
      }
    }
    add(TokenKind.OP, String.valueOf(c), List.of());
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
    if (last.kind() == TokenKind.NAME) {
      return dialect == Dialect.JAVASCRIPT && (last.is("return") || last.is("await") || last.is("yield"));
    }
    return last.kind() == TokenKind.OP && (last.is("(") || last.is(",") || last.is("=") || last.is("[") || last.is(":")
        || last.is("=>") && dialect == Dialect.RUBY || last.is("?") || last.is("||") || last.is("??") || last.is("&&")
        || last.is("||="));
  }

  /** Multi-character operators, longest first. */
  private static final List<String> OPERATORS = List.of(
      "<<-", "...", "===", "!==", "**=", "||=", "&&=", "??=", "%||%", "|>", "<-", "->", "=>", "==", "!=", "<=", ">=", "&&", "||",
      "??", "?.", "::", "+=", "-=", "*=", "/=", "=~", "**", "++", "--", "%in%", "%>%", "%%");
}
