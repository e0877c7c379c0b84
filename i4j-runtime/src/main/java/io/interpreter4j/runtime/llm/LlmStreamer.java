package io.interpreter4j.runtime.llm;

import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.runtime.intercept.BlockInterceptor;
import io.interpreter4j.runtime.supervision.Faults;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.UniqueKillSwitch;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.typed.javadsl.ActorSink;

/**
 * Runs one model call at a time as a stream: provider chunks -> block interceptor -> this actor, which hands
 * each segment to the session and waits for its ack (backpressure reaches the provider). Retryable failures
 * are retried with exponential backoff and jitter; {@link Cancel} cancels the stream and so the model call.
 */
public final class LlmStreamer extends AbstractBehavior<LlmStreamer.Command> {

  public interface Command {}

  /** Start a model call; callId tags every reply. In first-block mode the stream ends after the first block. */
  public record Call(int callId, ModelRequest request, int firstBlockIndex, boolean firstBlockOnly) implements Command {}

  /** The session has handled the last {@link Piece} of this call. */
  public record Ack(int callId) implements Command {}

  /** Cancel the running call; nothing more is sent for it. */
  public enum Cancel implements Command { INSTANCE }

  /** What the session hears about a call. */
  public interface Reply {
    int callId();
  }

  /** One segment of the answer; answer with {@link Ack}. */
  public record Piece(int callId, Segment segment) implements Reply {}

  public record Usage(int callId, long inputTokens, long outputTokens) implements Reply {}

  /** The call failed and is tried again after {@code delay}; partial output of this call must be discarded. */
  public record Retrying(int callId, int attempt, String reason, Duration delay) implements Reply {}

  public record Done(int callId) implements Reply {}

  /**
   * The call's last {@link Piece} (its first block closed, in first-block mode), its {@link Usage} (null when the
   * provider's report was told already) and its {@link Done}, in one message, so the session handles the three in one
   * go on the way to the approval gate. Not acked: nothing more comes for the call.
   */
  public record Final(int callId, Piece piece, Usage usage, Done done) implements Reply {

    /** The piece, the usage if any, and the end, in that order. */
    public List<Reply> parts() {
      return usage == null ? List.of(piece, done) : List.of(piece, usage, done);
    }
  }

  public record Failed(int callId, String message) implements Reply {}

  /** The streamer crashed during this call (it is restarted, its stream cancelled): nothing more comes for it. */
  public record Crashed(int callId, String message) implements Reply {}

  private interface StreamMessage extends Command {
    int run();
  }

  private record StreamInit(int run, ActorRef<Object> ackTo) implements StreamMessage {}

  private record StreamElement(int run, ActorRef<Object> ackTo, Segment segment) implements StreamMessage {}

  private record StreamCompleted(int run) implements StreamMessage {}

  private record StreamFailed(int run, Throwable cause) implements StreamMessage {}

  private record UsageSeen(int run, LlmChunk.Usage usage) implements StreamMessage {}

  private record StartAttempt(int run) implements Command {}

  private record ProviderRetry(int run, int attempt, String reason, Duration delay) implements StreamMessage {}

  private static final Object ACK = "ack";

  /**
   * Stream runs are numbered across every streamer in the JVM, so the messages of a stream orphaned by a crash can
   * never pass for those of a restarted streamer's call.
   */
  private static final AtomicInteger RUNS = new AtomicInteger();

  public static Behavior<Command> create(ModelProvider provider, String defaultLanguage, int maxAttempts,
                                         Backoff backoff, ActorRef<Reply> session) {
    return create(provider, defaultLanguage, maxAttempts, backoff, session, Faults.NONE);
  }

  /** {@code faults}: test-only crash points. */
  public static Behavior<Command> create(ModelProvider provider, String defaultLanguage, int maxAttempts,
                                         Backoff backoff, ActorRef<Reply> session, Faults faults) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new LlmStreamer(ctx, timers, provider, defaultLanguage, maxAttempts, backoff, session, faults)));
  }

  private final TimerScheduler<Command> timers;
  private final ModelProvider provider;
  private final String defaultLanguage;
  private final int maxAttempts;
  private final Backoff backoff;
  private final ActorRef<Reply> session;
  private final Faults faults;

  private Call current;
  private int run;
  private int attempt;
  private boolean sentPiece;
  private boolean usageSeen;
  private long outputChars;
  /** Characters of the current call's messages, for the usage estimate of a stream cut short. */
  private long callInputChars;
  private UniqueKillSwitch killSwitch;
  private ActorRef<Object> pendingAck;

  private LlmStreamer(ActorContext<Command> context, TimerScheduler<Command> timers, ModelProvider provider,
                      String defaultLanguage, int maxAttempts, Backoff backoff, ActorRef<Reply> session,
                      Faults faults) {
    super(context);
    this.faults = faults;
    this.run = RUNS.incrementAndGet();
    this.timers = timers;
    this.provider = provider;
    this.defaultLanguage = defaultLanguage;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.session = session;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Call.class, crashReported(this::onCall))
        .onMessage(StartAttempt.class, crashReported(this::onStartAttempt))
        .onMessage(Ack.class, crashReported(this::onAck))
        .onMessage(Cancel.class, this::onCancel)
        .onMessage(StreamInit.class, crashReported(this::onStreamInit))
        .onMessage(StreamElement.class, crashReported(this::onStreamElement))
        .onMessage(UsageSeen.class, crashReported(this::onUsageSeen))
        .onMessage(StreamCompleted.class, crashReported(this::onStreamCompleted))
        .onMessage(StreamFailed.class, crashReported(this::onStreamFailed))
        .onMessage(ProviderRetry.class, crashReported(this::onProviderRetry))
        .onSignal(PreRestart.class, signal -> onGone())
        .onSignal(PostStop.class, signal -> onGone())
        .build();
  }

  /**
   * A handler whose failure the session hears about: the running stream is cancelled (so the model call ends) and
   * the call answered with {@link Crashed}, then the exception goes on to the supervisor, which restarts us.
   */
  private <M> Function<M, Behavior<Command>> crashReported(Function<M, Behavior<Command>> handler) {
    return message -> {
      try {
        return handler.apply(message);
      } catch (RuntimeException e) {
        Call call = current;
        stopStream();
        current = null;
        if (call != null) {
          session.tell(new Crashed(call.callId(), String.valueOf(e.getMessage())));
        }
        throw e;
      }
    };
  }

  /** Restarted or stopped: the stream of this incarnation must not outlive it. */
  private Behavior<Command> onGone() {
    stopStream();
    current = null;
    return this;
  }

  private Behavior<Command> onCall(Call call) {
    stopStream();
    current = call;
    // counted now, while the model thinks: the call may end the moment its first block closes
    // (a plain loop: a long session's conversation has thousands of messages, counted at every call)
    long chars = 0;
    for (ChatMessage message : call.request().messages()) {
      chars += message.content().length();
    }
    callInputChars = chars;
    attempt = 1;
    startAttempt();
    return this;
  }

  private void startAttempt() {
    run = RUNS.incrementAndGet();
    sentPiece = false;
    usageSeen = false;
    outputChars = 0;
    pendingAck = null;
    final int thisRun = run;
    ActorRef<Command> self = getContext().getSelf();
    killSwitch = provider.stream(current.request(),
            (nextAttempt, reason, delay) -> self.tell(new ProviderRetry(thisRun, nextAttempt, reason, delay)))
        // the usage report is told on the way past (a tell never blocks); the scanner drops it
        .map(chunk -> {
          if (chunk instanceof LlmChunk.Usage u) {
            self.tell(new UsageSeen(thisRun, u));
          }
          return chunk;
        })
        .via(BlockInterceptor.codeBlocks(defaultLanguage, current.firstBlockIndex(), current.firstBlockOnly()))
        .viaMat(KillSwitches.single(), Keep.right())
        .toMat(ActorSink.<Segment, Command, Object>actorRefWithBackpressure(
            self,
            (ackTo, segment) -> new StreamElement(thisRun, ackTo, segment),
            ackTo -> new StreamInit(thisRun, ackTo),
            ACK,
            new StreamCompleted(thisRun),
            failure -> new StreamFailed(thisRun, failure)), Keep.left())
        .run(getContext().getSystem());
  }

  private Behavior<Command> onStartAttempt(StartAttempt m) {
    if (current != null && m.run() == run) {
      attempt++;
      startAttempt();
    }
    return this;
  }

  private boolean stale(StreamMessage m) {
    return current == null || m.run() != run;
  }

  private Behavior<Command> onStreamInit(StreamInit m) {
    if (!stale(m)) {
      m.ackTo().tell(ACK);
    }
    return this;
  }

  private Behavior<Command> onStreamElement(StreamElement m) {
    if (stale(m)) {
      m.ackTo().tell(ACK); // a cancelled or orphaned stream: let it drain and finish
      return this;
    }
    faults.hit(Faults.Point.STREAMER_STREAMING);
    sentPiece = true;
    outputChars += textLength(m.segment());
    Piece piece = new Piece(current.callId(), m.segment());
    if (current.firstBlockOnly() && BlockInterceptor.isRunnableBlockClosed(m.segment())) {
      // The answer ends here (the stream completes right after this block): the piece, the usage and the end go as
      // one message, so the block reaches the approval gate without waiting for an ack or the stream's completion.
      session.tell(new Final(current.callId(), piece, usageUnlessSeen(), new Done(current.callId())));
      m.ackTo().tell(ACK);
      current = null;
      killSwitch = null;
      return this;
    }
    session.tell(piece);
    pendingAck = m.ackTo();
    return this;
  }

  private Behavior<Command> onAck(Ack m) {
    if (current != null && m.callId() == current.callId() && pendingAck != null) {
      ActorRef<Object> ackTo = pendingAck;
      pendingAck = null;
      ackTo.tell(ACK);
    }
    return this;
  }

  private Behavior<Command> onUsageSeen(UsageSeen m) {
    if (!stale(m)) {
      usageSeen = true;
      session.tell(new Usage(current.callId(), m.usage().inputTokens(), m.usage().outputTokens()));
    }
    return this;
  }

  private Behavior<Command> onStreamCompleted(StreamCompleted m) {
    if (!stale(m)) {
      finishCall();
    }
    return this;
  }

  /** Usage (estimated when the provider sent none) and Done for the current call, which is over. */
  private void finishCall() {
    Usage usage = usageUnlessSeen();
    if (usage != null) {
      session.tell(usage);
    }
    session.tell(new Done(current.callId()));
    current = null;
    killSwitch = null;
  }

  /** The current call's usage, estimated, when the provider reported none: a stream cut short never gets it. */
  private Usage usageUnlessSeen() {
    return usageSeen ? null : new Usage(current.callId(), (callInputChars + 3) / 4, (outputChars + 3) / 4);
  }

  private Behavior<Command> onStreamFailed(StreamFailed m) {
    if (stale(m)) {
      return this;
    }
    Throwable cause = m.cause();
    boolean retryable = !(cause instanceof ModelException me) || me.retryable();
    String reason = describe(cause);
    if (retryable && attempt < maxAttempts) {
      Optional<Duration> hint = cause instanceof ModelException me ? me.retryAfter() : Optional.empty();
      Duration delay = backoff.delayAfter(attempt, hint);
      String why = sentPiece ? reason + " (after partial output, which is discarded)" : reason;
      session.tell(new Retrying(current.callId(), attempt + 1, why, delay));
      killSwitch = null;
      timers.startSingleTimer(new StartAttempt(run), delay);
    } else {
      String message = retryable ? reason + " (gave up after " + attempt + " attempts)" : reason;
      session.tell(new Failed(current.callId(), message));
      current = null;
      killSwitch = null;
    }
    return this;
  }

  private Behavior<Command> onProviderRetry(ProviderRetry m) {
    if (!stale(m)) {
      session.tell(new Retrying(current.callId(), m.attempt(), m.reason(), m.delay()));
    }
    return this;
  }

  private Behavior<Command> onCancel(Cancel m) {
    stopStream();
    current = null;
    return this;
  }

  private void stopStream() {
    run = RUNS.incrementAndGet();
    if (killSwitch != null) {
      killSwitch.shutdown();
      killSwitch = null;
    }
    if (pendingAck != null) {
      // release the sink so the cancelled stream can finish
      pendingAck.tell(ACK);
      pendingAck = null;
    }
  }

  private static long textLength(Segment segment) {
    if (segment instanceof Segment.Text t) {
      return t.text().length();
    } else if (segment instanceof Segment.Code c) {
      return c.text().length();
    }
    return 0;
  }

  private static String describe(Throwable cause) {
    String msg = cause.getMessage();
    if (cause instanceof ModelException) {
      return msg;
    }
    return cause.getClass().getSimpleName() + (msg == null ? "" : ": " + msg);
  }
}
