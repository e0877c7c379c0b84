package io.interpreter4j.core.replay;

/** A cassette file cannot be used; the message names the file, what is wrong and how to fix it. */
public class CassetteException extends IllegalArgumentException {

  public CassetteException(String message) {
    super(message);
  }

  public CassetteException(String message, Throwable cause) {
    super(message, cause);
  }
}
