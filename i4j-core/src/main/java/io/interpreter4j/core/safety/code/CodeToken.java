package io.interpreter4j.core.safety.code;

/** A token of a program the analysis reads (python, JavaScript, Ruby, R): enough to find its brackets and commas. */
public interface CodeToken {

  /** Whether the token is the operator or name {@code s}. */
  boolean is(String s);

  /** Whether the token is a name (an identifier, a keyword). */
  boolean isName();

  /** The token's text: a name, an operator, a literal's value. */
  String text();

  /** Whether it opens a bracket: {@code (}, {@code [} or <code>{</code>. */
  default boolean opens() {
    return is("(") || is("[") || is("{");
  }

  /** Whether it closes a bracket: {@code )}, {@code ]} or <code>}</code>. */
  default boolean closes() {
    return is(")") || is("]") || is("}");
  }
}
