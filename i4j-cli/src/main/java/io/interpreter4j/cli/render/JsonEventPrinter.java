package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import java.io.PrintStream;
import java.util.function.Consumer;

/** The {@code --json} protocol: one event per line on stdout, nothing else. */
public final class JsonEventPrinter implements Consumer<Event> {
  private final PrintStream out;

  public JsonEventPrinter(PrintStream out) {
    this.out = out;
  }

  @Override
  public void accept(Event event) {
    String line = EventCodec.toJson(event);
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
