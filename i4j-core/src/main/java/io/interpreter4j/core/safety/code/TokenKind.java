package io.interpreter4j.core.safety.code;

/** What a token of a program is; {@link #SHELL} is a shell command written in the program (Ruby's backticks). */
public enum TokenKind { NAME, STRING, SHELL, NUMBER, OP, NEWLINE }
