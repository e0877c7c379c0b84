package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;

/** An event as it goes to a client: its session, its seq (the SSE id) and its JSON object on one line. */
public record EventLine(String session, long seq, String json) {

  public static EventLine of(Event event) {
    return new EventLine(event.session(), event.seq(), EventCodec.toJson(event));
  }
}
