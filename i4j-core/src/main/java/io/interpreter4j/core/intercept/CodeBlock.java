package io.interpreter4j.core.intercept;

/**
 * A fenced code block found in the model's answer.
 *
 * @param index        1-based number of the block within the session
 * @param language     normalised language ("python", "bash", ...) or the raw tag when not runnable
 * @param info         the whole info string after the fence, as written
 * @param code         the code, with the fence's indentation removed and lines joined by '\n'
 * @param runnable     whether the block is code to run (false for text, output, json, ...)
 * @param unterminated whether the stream ended before the closing fence
 */
public record CodeBlock(int index, String language, String info, String code, boolean runnable, boolean unterminated) {

  public CodeBlock withCode(String newCode) {
    return new CodeBlock(index, language, info, newCode, runnable, unterminated);
  }
}
