package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.util.List;
import java.util.function.Consumer;

/**
 * Everything a new session needs: its id, settings, its own model provider instance (a replay cassette is
 * replayed per session), who approves its blocks, the host facts for the system prompt, and the event
 * subscribers attached before its first event.
 */
public record SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                          List<Consumer<Event>> subscribers) {

  public SessionSpec {
    subscribers = List.copyOf(subscribers);
  }
}
