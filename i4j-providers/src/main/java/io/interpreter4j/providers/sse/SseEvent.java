package io.interpreter4j.providers.sse;

/**
 * One Server-Sent Event: {@code event} is the type ("message" when the stream named none), {@code data} the
 * {@code data:} lines joined by newlines, {@code id} the last event id seen on the stream ("" when none).
 */
public record SseEvent(String event, String data, String id) {

  public static final String DEFAULT_TYPE = "message";

  public static SseEvent message(String data) {
    return new SseEvent(DEFAULT_TYPE, data, "");
  }
}
