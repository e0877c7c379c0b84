package io.interpreter4j.cli;

import java.net.BindException;

/** A server that cannot listen, said in one line with the fix. */
final class BindFailure {

  private BindFailure() {}

  /** "port 8717 on 127.0.0.1 is already in use (--port 0 picks a free one)", or the cause in one line. */
  static String describe(String host, int port, Throwable failure) {
    String reason = failure.getMessage();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (message.contains("Address already in use")) {
        return "port " + port + " on " + host + " is already in use (--port 0 picks a free one)";
      }
      if (t instanceof BindException) {
        reason = message.replaceFirst("^\\[[^]]*\\] ", "");
      }
    }
    return "cannot listen on " + host + ":" + port + ": " + reason;
  }
}
