package io.interpreter4j.core.event;

import java.time.Instant;

/** One step of a session: its envelope ({@code session}, {@code seq}, {@code ts}) and a typed payload. */
public record Event(String session, long seq, Instant ts, EventPayload payload) {

  public String type() {
    return payload.type();
  }
}
