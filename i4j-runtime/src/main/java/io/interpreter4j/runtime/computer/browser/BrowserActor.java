package io.interpreter4j.runtime.computer.browser;

import io.interpreter4j.runtime.computer.ActionGate;
import io.interpreter4j.runtime.computer.ActionOutcome;
import io.interpreter4j.runtime.computer.ComputerAction;
import io.interpreter4j.runtime.computer.ComputerCommand;
import io.interpreter4j.runtime.computer.Perform;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The session's browser, target {@code browser} of computer use: performs go, snapshot, click, type, press, view
 * and text on a Chromium it owns (through {@link BrowserSession}, which runs on this actor's own thread, since
 * Playwright blocks and is not thread-safe). One action runs at a time; up to {@code max-queued} wait. Each action
 * asks its gate first for the ask-before kinds it touches ({@code type-password}, {@code submit}) and for each
 * download it starts ({@code download}); a denial means nothing is done. Every {@link Perform} is answered exactly
 * once. The browser is closed when the actor stops (or is restarted by its supervisor).
 */
public final class BrowserActor extends AbstractBehavior<ComputerCommand> {

  /** An action's pipeline ended: its outcome, or why it failed. */
  private record Finished(Perform perform, ActionOutcome outcome, Throwable failure) implements ComputerCommand {}

  public static Behavior<ComputerCommand> create(BrowserSettings settings, Path workdir, Optional<String> display) {
    return Behaviors.setup(context -> new BrowserActor(context, settings, workdir, display));
  }

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final BrowserSettings settings;
  private final Path workdir;
  private final Optional<String> display;
  /** How long one step on the browser's thread may take before the browser counts as hung. */
  private final Duration stepBound;
  private final ArrayDeque<Perform> waiting = new ArrayDeque<>();
  private ThreadPoolExecutor thread;
  private BrowserSession session;
  private Perform running;

  private BrowserActor(ActorContext<ComputerCommand> context, BrowserSettings settings, Path workdir,
      Optional<String> display) {
    super(context);
    this.settings = settings;
    this.workdir = workdir;
    this.display = display;
    // a step may start the browser (launch) and then navigate: both bounded by navigation-timeout, plus a margin
    this.stepBound = settings.navigationTimeout().multipliedBy(2).plus(settings.actionTimeout()).plusSeconds(30);
    fresh();
  }

  @Override
  public Receive<ComputerCommand> createReceive() {
    return newReceiveBuilder()
        .onMessage(Perform.class, this::onPerform)
        .onMessage(Finished.class, this::onFinished)
        .onSignal(PostStop.class, signal -> onStop())
        .onSignal(PreRestart.class, signal -> onStop())
        .build();
  }

  private Behavior<ComputerCommand> onPerform(Perform perform) {
    if (!perform.action().target().equals("browser")) {
      perform.replyTo().tell(ActionOutcome.failed("the browser performs browser actions, not "
          + perform.action().target() + "." + perform.action().action()));
    } else if (running == null) {
      start(perform);
    } else if (waiting.size() >= settings.maxQueued()) {
      perform.replyTo().tell(ActionOutcome.failed("the browser is busy: " + waiting.size() + " actions wait already; "
          + "call it again when they are done"));
    } else {
      waiting.add(perform);
    }
    return this;
  }

  private Behavior<ComputerCommand> onFinished(Finished finished) {
    ActionOutcome outcome = finished.outcome();
    if (finished.failure() != null) {
      Throwable cause = finished.failure() instanceof CompletionException c && c.getCause() != null
          ? c.getCause() : finished.failure();
      if (cause instanceof TimeoutException) {
        getContext().getLog().warn("the browser did not answer within {}; abandoning it", stepBound);
        abandon();
        outcome = ActionOutcome.failed("the browser did not answer within " + stepBound.toSeconds() + "s; it is "
            + "started again at the next action");
      } else {
        outcome = ActionOutcome.failed("browser error: " + cause);
      }
    }
    finished.perform().replyTo().tell(outcome);
    running = null;
    Perform next = waiting.poll();
    if (next != null) {
      start(next);
    }
    return this;
  }

  private Behavior<ComputerCommand> onStop() {
    if (running != null) {
      running.replyTo().tell(ActionOutcome.failed("the browser was closed before the action ended"));
    }
    for (Perform perform : waiting) {
      perform.replyTo().tell(ActionOutcome.failed("the browser was closed before the action started"));
    }
    waiting.clear();
    BrowserSession closing = session;
    thread.execute(closing::close);
    thread.shutdown();
    return this;
  }

  private void start(Perform perform) {
    running = perform;
    getContext().pipeToSelf(pipeline(session, perform.action(), perform.gate()),
        (outcome, failure) -> new Finished(perform, outcome, failure));
  }

  /** inspect -> ask the gate -> act -> ask about downloads -> save or cancel them; each browser step on its thread. */
  private CompletionStage<ActionOutcome> pipeline(BrowserSession on, ComputerAction action, ActionGate gate) {
    return onThread(() -> on.inspect(action)).thenCompose(plan -> {
      if (plan.refused().isPresent()) {
        return CompletableFuture.completedFuture(plan.refused().get());
      }
      return firstDenied(plan.asks(), gate).thenCompose(denied -> denied
          .<CompletionStage<ActionOutcome>>map(ask -> CompletableFuture.completedFuture(denial(ask)))
          .orElseGet(() -> onThread(() -> on.act(action)).thenCompose(acted -> !acted.startedDownloads()
              ? CompletableFuture.completedFuture(acted.outcome())
              : onThread(on::downloadDescriptions).thenCompose(descriptions -> decideAll(descriptions, gate))
                  .thenCompose(decisions -> onThread(() -> on.settleDownloads(acted.outcome(), decisions))))));
    });
  }

  /** The first ask the gate refuses, asking one after the other; a gate that fails counts as a refusal. */
  private static CompletionStage<Optional<BrowserSession.Ask>> firstDenied(List<BrowserSession.Ask> asks,
      ActionGate gate) {
    CompletionStage<Optional<BrowserSession.Ask>> result = CompletableFuture.completedFuture(Optional.empty());
    for (BrowserSession.Ask ask : asks) {
      result = result.thenCompose(denied -> denied.isPresent()
          ? CompletableFuture.completedFuture(denied)
          : allowed(gate, ask.kind(), ask.description()).thenApply(yes -> yes ? denied : Optional.of(ask)));
    }
    return result;
  }

  private static CompletionStage<List<Boolean>> decideAll(List<String> descriptions, ActionGate gate) {
    CompletionStage<List<Boolean>> result = CompletableFuture.completedFuture(new ArrayList<>());
    for (String description : descriptions) {
      result = result.thenCompose(decided -> allowed(gate, "download", description).thenApply(yes -> {
        decided.add(yes);
        return decided;
      }));
    }
    return result;
  }

  private static CompletionStage<Boolean> allowed(ActionGate gate, String kind, String description) {
    CompletionStage<Boolean> answer;
    try {
      answer = gate.allow(kind, description);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(false);
    }
    return answer.handle((yes, failure) -> failure == null && Boolean.TRUE.equals(yes));
  }

  private static ActionOutcome denial(BrowserSession.Ask ask) {
    return ActionOutcome.failed("denied: " + ask.description() + " was not approved (ask-before " + ask.kind()
        + "); nothing was done");
  }

  private <T> CompletableFuture<T> onThread(Supplier<T> step) {
    return CompletableFuture.supplyAsync(step, thread).orTimeout(stepBound.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A new browser thread and session; the browser itself starts at the first action. */
  private void fresh() {
    // one action runs at a time, so the queue holds at most that step and the closing of an abandoned session
    thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(4), runnable -> {
      Thread t = new Thread(runnable, "i4j-browser-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    session = new BrowserSession(settings, workdir, display);
  }

  /**
   * The browser's thread is stuck in a call that does not return: interrupt it, close that session from a thread of
   * its own (it is used by nobody else any more) and start afresh.
   */
  private void abandon() {
    BrowserSession stuck = session;
    thread.shutdownNow();
    Thread closer = new Thread(stuck::close, "i4j-browser-abandoned");
    closer.setDaemon(true);
    closer.start();
    fresh();
  }
}
