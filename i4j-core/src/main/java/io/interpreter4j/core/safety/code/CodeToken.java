package io.interpreter4j.core.safety.code;

/** A token of a program the analysis reads (python, JavaScript, Ruby, R): its kind and text. */
public interface CodeToken {

  TokenKind kind();

  /** The token's text: a name, an operator, a literal's value. */
  String text();

  /** Whether the token is the operator or name {@code s}. */
  default boolean is(String s) {
    return (kind() == TokenKind.OP || kind() == TokenKind.NAME) && text().equals(s);
  }

  /** Whether the token is a name (an identifier, a keyword). */
  default boolean isName() {
    return kind() == TokenKind.NAME;
  }

  /** Whether it opens a bracket: {@code (}, {@code [} or <code>{</code>. */
  default boolean opens() {
    return is("(") || is("[") || is("{");
  }

  /** Whether it closes a bracket: {@code )}, {@code ]} or <code>}</code>. */
  default boolean closes() {
    return is(")") || is("]") || is("}");
  }
}
