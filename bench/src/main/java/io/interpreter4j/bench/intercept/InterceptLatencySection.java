package io.interpreter4j.bench.intercept;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.BoundedSourceQueue;

/**
 * {@code intercept_latency}: from offering the chunk that closes a fence to the model stream, to the session
 * handing the block to its REPL worker ({@code exec_started} is published right before the {@code Execute} is
 * sent), under auto-approval: scanner, stream stages, streamer, session, approval gate with its danger analysis.
 * Beside it, the floor: the fence scanner alone plus one hand-off to another thread.
 */
public final class InterceptLatencySection {

  /** An event as a subscriber saw it, on the session's thread. */
  private record Stamp(String type, long nanos, String text) {}

  private static final String OPENING = "Let me check.\n\n```bash\necho 1\n";
  private static final String CLOSING = "```\n";
  /** Tokens of a real model come tens of milliseconds apart: the runtime is idle when the closing one arrives. */
  private static final long GAP_MS = 2;

  private InterceptLatencySection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    // enough warm-up rounds (without the gap) for the JIT to compile the whole path, as in a long-running server
    int warmup = quick ? 2000 : 6000;
    int trials = quick ? 400 : 2000;
    Path dir = Files.createTempDirectory("i4j-bench-intercept");
    ActorSystem<SessionManager.Command> system = null;
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      var config = SessionKit.config(dir.resolve("data"), work, Map.of());
      Settings settings = SessionKit.settings(config);
      system = SessionKit.system("bench-intercept", config);
      ControlledModel model = new ControlledModel();
      LinkedBlockingQueue<Stamp> stamps = new LinkedBlockingQueue<>();
      ActorRef<Session.Command> session = SessionKit.create(system, "bench-intercept", settings,
          SessionKit.containment(config), model,
          List.of(event -> stamp(event, stamps))).toCompletableFuture().get(60, TimeUnit.SECONDS);

      Samples toExec = new Samples(trials);
      Samples toCodeBlock = new Samples(trials);
      Samples toMessage = new Samples(trials);
      Samples toApproval = new Samples(trials);
      for (int i = 0; i < warmup + trials; i++) {
        session.tell(new Session.UserMessage("trial " + i));
        BoundedSourceQueue<LlmChunk> call = model.calls.poll(30, TimeUnit.SECONDS);
        call.offer(new LlmChunk.TextDelta(OPENING));
        await(stamps, "assistant_delta", "echo 1\n");
        if (i >= warmup) {
          Thread.sleep(GAP_MS);
        }
        long start = System.nanoTime();
        call.offer(new LlmChunk.TextDelta(CLOSING));
        Stamp block = await(stamps, "code_block", null);
        Stamp message = await(stamps, "assistant_message", null);
        Stamp approval = await(stamps, "approval", null);
        Stamp exec = await(stamps, "exec_started", null);
        BoundedSourceQueue<LlmChunk> answer = model.calls.poll(30, TimeUnit.SECONDS);
        answer.offer(new LlmChunk.TextDelta("Done."));
        answer.complete();
        Stamp finished = await(stamps, "turn_finished", null);
        if (!"done".equals(finished.text())) {
          throw new IllegalStateException("trial " + i + " ended " + finished.text());
        }
        if (i >= warmup) {
          toCodeBlock.add(block.nanos() - start);
          toExec.add(exec.nanos() - start);
          toMessage.add(message.nanos() - start);
          toApproval.add(approval.nanos() - start);
        }
      }
      Samples floor = floor(warmup, trials);

      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("what", "closing fence chunk offered to the model stream -> exec_started (the Execute sent to the "
          + "worker), auto-approval, bash block; milliseconds");
      node.set("i4j", toExec.toJson());
      ObjectNode steps = node.putObject("i4j_steps_median_ms");
      steps.put("code_block", toCodeBlock.medianMs());
      steps.put("assistant_message", toMessage.medianMs());
      steps.put("approval", toApproval.medianMs());
      steps.put("exec_started", toExec.medianMs());
      node.set("floor_scanner_and_one_handoff", floor.toJson());
      ObjectNode ratios = node.putObject("ratios");
      ratios.put("over_floor_median", Samples.round(toExec.medianMs() / floor.medianMs()));
      ratios.put("over_floor_p99", Samples.round(toExec.p99Ms() / floor.p99Ms()));
      return node;
    } finally {
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      Tools.deleteTree(dir);
    }
  }

  private static void stamp(Event event, LinkedBlockingQueue<Stamp> stamps) {
    long now = System.nanoTime();
    EventPayload p = event.payload();
    if (p instanceof EventPayload.AssistantDelta d) {
      stamps.add(new Stamp(event.type(), now, d.text()));
    } else if (p instanceof EventPayload.TurnFinished t) {
      stamps.add(new Stamp(event.type(), now, t.status().wire()));
    } else if (p instanceof EventPayload.CodeBlockEvent || p instanceof EventPayload.ExecStarted
        || p instanceof EventPayload.AssistantMessage || p instanceof EventPayload.Approval
        || p instanceof EventPayload.Error) {
      stamps.add(new Stamp(event.type(), now, p.toString()));
    }
  }

  /** The next stamp of {@code type} (with {@code text}, if given); an error event or 30 s of silence fails. */
  private static Stamp await(LinkedBlockingQueue<Stamp> stamps, String type, String text) throws InterruptedException {
    while (true) {
      Stamp s = stamps.poll(30, TimeUnit.SECONDS);
      if (s == null) {
        throw new IllegalStateException("no " + type + " event within 30 s");
      }
      if (s.type().equals("error")) {
        throw new IllegalStateException("the session reported an error: " + s.text());
      }
      if (s.type().equals(type) && (text == null || text.equals(s.text()))) {
        return s;
      }
    }
  }

  /** The fence scanner on the same chunks, and the closed block handed to a waiting thread. */
  private static Samples floor(int warmup, int trials) throws InterruptedException {
    ArrayBlockingQueue<Long> handoff = new ArrayBlockingQueue<>(1);
    ArrayBlockingQueue<Long> received = new ArrayBlockingQueue<>(1);
    Thread consumer = new Thread(() -> {
      try {
        while (true) {
          handoff.take();
          received.put(System.nanoTime());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "bench-floor-consumer");
    consumer.setDaemon(true);
    consumer.start();
    Samples samples = new Samples(trials);
    for (int i = 0; i < warmup + trials; i++) {
      FenceScanner scanner = new FenceScanner("python", 1);
      scanner.feed(OPENING);
      if (i >= warmup) { // as in the session's trials: the pause only before the measured ones
        Thread.sleep(GAP_MS);
      }
      long start = System.nanoTime();
      for (Segment s : scanner.feed(CLOSING)) {
        if (s instanceof Segment.BlockClosed) {
          handoff.put(start);
        }
      }
      long end = received.take();
      if (i >= warmup) {
        samples.add(end - start);
      }
    }
    consumer.interrupt();
    return samples;
  }
}
