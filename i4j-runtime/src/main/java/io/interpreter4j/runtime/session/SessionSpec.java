package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.supervision.Faults;
import java.util.List;
import java.util.function.Consumer;

/**
 * Everything a new session needs: its id, settings, its own model provider instance (a replay cassette is
 * replayed per session), who approves its blocks, the host facts for the system prompt, and the event
 * subscribers attached before its first event, and where its code runs: the containment (which sandbox, by the
 * approval mode), and where pip installs go; and whether the model may use the computer.
 */
public record SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                          List<Consumer<Event>> subscribers, Containment containment, VenvMode venv, Faults faults,
                          ComputerSpec computer) {

  public SessionSpec {
    subscribers = List.copyOf(subscribers);
    containment = containment == null ? Containment.fixed(Sandbox.none()) : containment;
    venv = venv == null ? VenvMode.AUTO : venv;
    faults = faults == null ? Faults.NONE : faults;
    computer = computer == null ? ComputerSpec.OFF : computer;
  }

  /** The process's computer use ({@link ProcessDefaults#computer()}: off unless {@code --computer} was given). */
  public SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                     List<Consumer<Event>> subscribers, Containment containment, VenvMode venv, Faults faults) {
    this(id, settings, provider, approver, host, subscribers, containment, venv, faults, ProcessDefaults.computer());
  }

  /** One sandbox for the session whatever its approval mode. */
  public SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                     List<Consumer<Event>> subscribers, Sandbox sandbox, VenvMode venv) {
    this(id, settings, provider, approver, host, subscribers,
        Containment.fixed(sandbox == null ? Sandbox.none() : sandbox), venv, Faults.NONE);
  }

  /**
   * The process's containment and install mode ({@link ProcessDefaults}: unless set at start, reference.conf's:
   * auto-run code in the platform's sandbox, isolated installs).
   */
  public SessionSpec(String id, Settings settings, ModelProvider provider, Approver approver, HostInfo host,
                     List<Consumer<Event>> subscribers) {
    this(id, settings, provider, approver, host, subscribers, ProcessDefaults.containment(), ProcessDefaults.venv(),
        Faults.NONE);
  }

  /** The sandbox the session starts in: the containment's for its approval mode (may probe once, blocking). */
  public Sandbox sandbox() {
    return containment.forMode(settings.approvalMode());
  }

  /** This one sandbox whatever the approval mode. */
  public SessionSpec withSandbox(Sandbox value) {
    return withContainment(Containment.fixed(value));
  }

  public SessionSpec withContainment(Containment value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, value, venv, faults, computer);
  }

  public SessionSpec withVenv(VenvMode value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, containment, value, faults, computer);
  }

  /** Test-only crash points ({@link Faults}); the CLI, the server and batches never set any. */
  public SessionSpec withFaults(Faults value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, containment, venv, value, computer);
  }

  /** Computer use for this session: the screen, and the targets registered besides it (the browser). */
  public SessionSpec withComputer(ComputerSpec value) {
    return new SessionSpec(id, settings, provider, approver, host, subscribers, containment, venv, faults, value);
  }
}
