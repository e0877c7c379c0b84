package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.supervision.Faults;
import java.util.List;
import java.util.function.Consumer;

/**
 * Everything a new session needs: its id, settings, its own model provider instance (a replay cassette is
 * replayed per session), who approves its blocks, the host facts for the system prompt, and the event
 * subscribers attached before its first event, and where its code runs: the sandbox, and where pip installs go.
 */
public record SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                          List<Consumer<Event>> subscribers, Sandbox sandbox, VenvMode venv, Faults faults) {

  public SessionSpec {
    subscribers = List.copyOf(subscribers);
    sandbox = sandbox == null ? Sandbox.none() : sandbox;
    venv = venv == null ? VenvMode.AUTO : venv;
    faults = faults == null ? Faults.NONE : faults;
  }

  public SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                     List<Consumer<Event>> subscribers, Sandbox sandbox, VenvMode venv) {
    this(id, settings, provider, approver, host, subscribers, sandbox, venv, Faults.NONE);
  }

  /** The process's sandbox and install mode ({@link ProcessDefaults}: none and auto unless set at start). */
  public SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                     List<Consumer<Event>> subscribers) {
    this(id, settings, provider, approver, host, subscribers, ProcessDefaults.sandbox(), ProcessDefaults.venv());
  }

  public SessionSpec withSandbox(Sandbox value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, value, venv, faults);
  }

  public SessionSpec withVenv(VenvMode value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, sandbox, value, faults);
  }

  /** Test-only crash points ({@link Faults}); the CLI, the server and batches never set any. */
  public SessionSpec withFaults(Faults value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, sandbox, venv, value);
  }
}
