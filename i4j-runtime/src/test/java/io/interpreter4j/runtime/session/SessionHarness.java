package io.interpreter4j.runtime.session;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.supervision.Faults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;

/** Starts real sessions (real REPL processes, the replay model) and collects their events for assertions. */
final class SessionHarness {
  static final HostInfo HOST = new HostInfo("Linux", "test", "amd64", "tester", "/tmp", "/bin/bash", "3",
      List.of("python", "bash"));

  final ActorTestKit testKit;
  final Path dataDir;
  final Path workdir;

  SessionHarness(ActorTestKit testKit, Path dataDir, Path workdir) {
    this.testKit = testKit;
    this.dataDir = dataDir;
    this.workdir = workdir;
  }

  Settings settings(Map<String, Object> overrides) {
    Map<String, Object> all = new HashMap<>();
    all.put("interpreter4j.data-dir", dataDir.toString());
    all.put("interpreter4j.workdir", workdir.toString());
    all.put("interpreter4j.approval.mode", "auto");
    all.put("interpreter4j.model-retry.min-backoff", "10ms");
    all.putAll(overrides);
    return Settings.from(ConfigLoader.load(null, all, Map.of("XDG_CONFIG_HOME", dataDir.resolve("no-config").toString())),
        Map.of());
  }

  /** A started session and the events it publishes. */
  final class Running {
    final String id;
    volatile ActorRef<Session.Command> ref;
    final LinkedBlockingQueue<Event> queue = new LinkedBlockingQueue<>();
    final List<Event> all = new CopyOnWriteArrayList<>();

    Running(String id, ActorRef<Session.Command> ref) {
      this.id = id;
      this.ref = ref;
    }

    void accept(Event e) {
      all.add(e);
      queue.add(e);
    }

    /** Sends a message and waits for the turn to end; returns the turn_finished payload. */
    EventPayload.TurnFinished turn(String text, Duration within) throws InterruptedException {
      ref.tell(new Session.UserMessage(text));
      return awaitTurn(within);
    }

    EventPayload.TurnFinished awaitTurn(Duration within) throws InterruptedException {
      Event e = awaitType("turn_finished", within);
      return (EventPayload.TurnFinished) e.payload();
    }

    Event awaitType(String type, Duration within) throws InterruptedException {
      long deadline = System.nanoTime() + within.toNanos();
      while (true) {
        long left = deadline - System.nanoTime();
        Event e = queue.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
        assertNotNull(e, "no " + type + " event within " + within + "; events so far: " + types());
        if (e.type().equals(type)) {
          return e;
        }
      }
    }

    @SuppressWarnings("unchecked")
    <T extends EventPayload> List<T> payloads(Class<T> type) {
      List<T> out = new ArrayList<>();
      for (Event e : all) {
        if (type.isInstance(e.payload())) {
          out.add((T) e.payload());
        }
      }
      return out;
    }

    String types() {
      return all.stream().map(Event::type).filter(t -> !t.equals("assistant_delta"))
          .collect(Collectors.joining(","));
    }

    String output() {
      return payloads(EventPayload.Output.class).stream().map(EventPayload.Output::text)
          .collect(Collectors.joining());
    }
  }

  Running start(ModelProvider provider, Approver approver, Map<String, Object> overrides) {
    return start(SessionIds.next(), provider, approver, overrides, Faults.NONE);
  }

  /** A session with this id whose actors crash at the armed points of {@code faults}. */
  Running start(String id, ModelProvider provider, Approver approver, Map<String, Object> overrides, Faults faults) {
    return start(id, provider, approver, overrides, spec -> spec.withFaults(faults));
  }

  /** A session whose spec {@code adjust} changes (its containment, ...) before it starts. */
  Running start(String id, ModelProvider provider, Approver approver, Map<String, Object> overrides,
                java.util.function.UnaryOperator<SessionSpec> adjust) {
    Running running = new Running(id, null);
    SessionSpec spec = adjust.apply(new SessionSpec(id, settings(overrides), provider, approver, HOST,
        List.of(running::accept)));
    running.ref = testKit.spawn(Session.create(spec), "session-" + id);
    return running;
  }

  static ModelProvider cassette(String json) {
    return new ReplayModelProvider("replay:test", Cassette.parse(json, "test"));
  }

  static String cassetteJson(String... replies) {
    StringBuilder sb = new StringBuilder("{\"turns\": [");
    for (int i = 0; i < replies.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(replies[i]);
    }
    return sb.append("]}").toString();
  }

  static String turn(String expect, String reply) {
    var mapper = io.interpreter4j.core.event.EventCodec.mapper();
    var node = mapper.createObjectNode();
    if (expect != null) {
      node.put("expect", expect);
    }
    node.put("reply", reply);
    node.put("chunk_chars", 7);
    return node.toString();
  }

  static Map<String, Object> noOverrides() {
    return Map.of();
  }

  static final Approver NO = (s, b) -> java.util.concurrent.CompletableFuture.completedFuture(
      Approver.Answer.no("not now"));
}
