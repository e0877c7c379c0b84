package io.interpreter4j.core.replay;

/** The conversation left the cassette's script: a turn's expectation did not match, or the turns ran out. */
public class ReplayException extends IllegalStateException {

  public ReplayException(String message) {
    super(message);
  }
}
