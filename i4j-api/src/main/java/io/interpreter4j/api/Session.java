package io.interpreter4j.api;

import io.interpreter4j.runtime.session.Session.RunCode;
import io.interpreter4j.runtime.session.Session.Executed;
import io.interpreter4j.runtime.session.Session.TurnStart;
import io.interpreter4j.runtime.session.Session.UserMessage;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.JavaFlowSupport;
import org.apache.pekko.stream.javadsl.Source;

/**
 * One conversation with the model and its own REPL processes (one per language, started on first use). One turn or
 * execution runs at a time: a {@link #chat(String)} or {@link #execute(String, String)} while another runs is
 * refused. Safe to use from any thread. {@link #close()} stops its processes; its journal stays on disk.
 */
public final class Session implements AutoCloseable {

  private static final long STOP_WAIT_SECONDS = 30;

  private final String id;
  private final ActorSystem<?> system;
  private final ActorRef<io.interpreter4j.runtime.session.Session.Command> session;
  private final EventFeed feed;
  private final TurnCollector turns;
  private final CompletableFuture<Void> ended;
  private final Runnable onClosed;
  private final AtomicBoolean closing = new AtomicBoolean();

  Session(String id, ActorSystem<?> system, ActorRef<io.interpreter4j.runtime.session.Session.Command> session,
          EventFeed feed, TurnCollector turns, Runnable onClosed) {
    this.id = id;
    this.system = system;
    this.session = session;
    this.feed = feed;
    this.turns = turns;
    this.onClosed = onClosed;
    this.ended = Replies.terminated(system, session).whenComplete((done, failure) -> {
      feed.close();
      turns.sessionEnded();
    });
  }

  /**
   * The session's id, also the name of its folder under the data directory ({@code sessions/ID}).
   *
   * @return e.g. {@code 20261202-131500-4f9a2c}
   */
  public String id() {
    return id;
  }

  /**
   * Sends a message to the model and runs the turn it starts: the model's answer, its code blocks through the
   * approval gate and the REPLs, their results back to the model, until it answers without a block or a bound stops
   * it.
   *
   * @param message what the user says
   * @return completes with the turn's result when it ends; fails with {@link IllegalStateException} if the session
   *     did not start the turn (another turn or an execution is running, the message is empty, the session ended)
   */
  public CompletionStage<TurnResult> chat(String message) {
    CompletableFuture<TurnResult> turn = new CompletableFuture<>();
    if (!turns.expect(turn)) {
      turn.completeExceptionally(new IllegalStateException(
          "a turn is still running in session " + id + "; wait for its result or interrupt it first"));
      return turn;
    }
    CompletableFuture<TurnStart> start = new CompletableFuture<>();
    session.tell(new UserMessage(message, Replies.once(system, session, start)));
    start.whenComplete((answer, failure) -> {
      if (failure != null) {
        turns.refused(turn, failure.getMessage());
      } else if (!answer.started()) {
        turns.refused(turn, answer.reason());
      }
    });
    return turn;
  }

  /**
   * Runs code without the model, as the session's next block: it goes through the approval gate as a model's block
   * does (danger analysis, approval rules, auto-run or the {@link Approver}) and runs in the session's REPL of its
   * language, so variables persist between executions and are shared with the model's blocks. The conversation is
   * not changed. Waits for the block to end (at most the block timeout, plus an approver's time).
   *
   * @param language the language, e.g. {@code python}, {@code bash}
   * @param code     the code
   * @return how it ended; {@link ExecResult#ran()} is false when it was refused or denied, and
   *     {@link ExecResult#reason()} says why
   */
  public ExecResult execute(String language, String code) {
    try {
      return executeAsync(language, code).toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      interrupt();
      throw new CancellationException("interrupted while waiting for the block");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new CompletionException(e.getCause());
    }
  }

  /**
   * As {@link #execute(String, String)}, without waiting.
   *
   * @param language the language, e.g. {@code python}
   * @param code     the code
   * @return completes with how the block ended
   */
  public CompletionStage<ExecResult> executeAsync(String language, String code) {
    CompletableFuture<Executed> answer = new CompletableFuture<>();
    session.tell(new RunCode(language, code, null, Replies.once(system, session, answer)));
    return answer.thenApply(Session::result);
  }

  private static ExecResult result(Executed e) {
    Decision decision = e.decision() == null ? null : new Decision(
        Decision.Kind.valueOf(e.decision().decision().name()),
        Decision.DecidedBy.valueOf(e.decision().by().name()),
        e.decision().decision() == io.interpreter4j.core.event.ApprovalDecision.EDITED ? e.decision().code() : null,
        e.decision().reason());
    var r = e.result();
    if (r == null) {
      return new ExecResult(e.block(), false, decision, -1, "", false, false, false, 0, null, e.reason());
    }
    return new ExecResult(e.block(), true, decision, r.exitCode(), r.modelOutput(), r.timedOut(), r.interrupted(),
        r.truncated(), r.durationMs(), r.outputFile(), r.notice());
  }

  /**
   * The session's events, from its first ({@code session_started}) on, to each subscriber at the pace it requests
   * them. A slow subscriber holds up neither the session nor other subscribers and misses nothing: in memory there
   * is a ring of the last events (the builder's {@link Interpreter.Builder#eventBuffer(int)}), and a subscriber
   * further behind reads on from the session's journal on disk. The stream completes after the session's last event
   * once the session is closed; a subscriber may read to the end after the session and the interpreter were closed.
   * Delivery runs on daemon threads of the API, one event at a time per subscriber, so {@code onNext} may block.
   *
   * @return a publisher; each subscription starts at the session's first event
   */
  public Flow.Publisher<Event> events() {
    return feed.publisher();
  }

  /**
   * {@link #events()} as a Pekko Streams source, backpressured the same way.
   *
   * @return a source of the session's events from its first on
   */
  public Source<Event, NotUsed> eventSource() {
    return JavaFlowSupport.Source.fromPublisher(events());
  }

  /** Interrupts the running turn or execution: the model call, the approval question or the running block. */
  public void interrupt() {
    session.tell(io.interpreter4j.runtime.session.Session.Interrupt.INSTANCE);
  }

  /** How many events the session's ring holds now (for tests of the memory bound). */
  int bufferedEvents() {
    return feed.buffered();
  }

  /**
   * Stops the session: a running turn ends {@link TurnStatus#INTERRUPTED}, and its REPL processes (their whole
   * process trees) are killed before this returns. The journal stays on disk. Closing again does nothing.
   */
  @Override
  public void close() {
    if (closing.compareAndSet(false, true)) {
      session.tell(io.interpreter4j.runtime.session.Session.Stop.INSTANCE);
    }
    try {
      ended.get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("session " + id + " did not stop within " + STOP_WAIT_SECONDS + " s", e);
    } finally {
      onClosed.run();
    }
  }
}
