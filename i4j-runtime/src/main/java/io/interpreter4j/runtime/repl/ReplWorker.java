package io.interpreter4j.runtime.repl;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.runtime.repl.BlockEndings.Ending;
import io.interpreter4j.runtime.repl.BlockRun.Halt;
import io.interpreter4j.runtime.repl.ReplProcess.Stream;
import io.interpreter4j.runtime.supervision.Faults;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.StashBuffer;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One persistent interpreter process for one language of one session, in two phases: ready (no interpreter yet, or
 * one idle or running a block) and starting (an interpreter is being launched; what it reports before it is known
 * waits in a stash). However this actor ends, crashed and restarted ({@code PreRestart}) or stopped
 * ({@code PostStop}), it kills the interpreter's whole process tree and answers the running block's
 * {@link Finished}, so no process and no waiting session outlive it.
 */
public final class ReplWorker extends AbstractBehavior<ReplWorker.Command> {

  public interface Command {}

  /** Run code; replies Output* and Image* then exactly one Finished to replyTo, even if the worker crashes meanwhile. */
  public record Execute(int block, String code, Duration timeout, ActorRef<Reply> replyTo) implements Command {}

  /** User interrupt of the running block: SIGINT to its process group, then kill after grace -> exit 130, interrupted=true. No-op when idle. */
  public enum Interrupt implements Command { INSTANCE }

  /** Kill the whole process tree and stop the actor. */
  public enum Stop implements Command { INSTANCE }

  /**
   * Start the interpreter now, before any block, if none runs or is starting: the first block then finds it started
   * or under way. It idles (and its idle timeout stops it) until a block comes. A start that fails is logged; the
   * next block starts one again and reports what went wrong.
   */
  public enum StartEarly implements Command { INSTANCE }

  public interface Reply {}

  public record Output(int block, StreamName stream, String text) implements Reply {}

  /** An image the block showed, saved under the session's {@code outputs/}; comes before the block's Finished. */
  public record Image(int block, BlockImage image) implements Reply {}

  /** An HTML document the block showed, saved under the session's {@code outputs/}; comes before its Finished. */
  public record Html(int block, java.nio.file.Path path, long bytes) implements Reply {}

  public record Finished(int block, ExecResult result) implements Reply {}

  /** {@code attempt}: the launch this answers; one of an earlier incarnation is not this one's to take. */
  private record Started(CompletableFuture<ReplProcess> attempt, ReplProcess process, Throwable failure)
      implements Command {}

  private record StreamChunk(ReplProcess source, Stream stream, String text) implements Command {}

  private record StreamClosed(ReplProcess source, Stream stream) implements Command {}

  private record ProcessExited(ReplProcess source, int exitValue) implements Command {}

  private record BlockTimedOut(BlockRun run) implements Command {}

  private record GraceExpired(BlockRun run) implements Command {}

  private record DrainExpired(BlockRun run) implements Command {}

  private record IdleExpired(ReplProcess process) implements Command {}

  private enum TimerKey { BLOCK, GRACE, DRAIN, IDLE }

  /** How long a block waits at least for its interpreter's start before it ends as timed out ({@link #startWait}). */
  static final Duration START_WAIT = Duration.ofMinutes(10);

  /** After the interpreter is gone, how long to wait at least for the rest of its output before finishing anyway. */
  private static final Duration MIN_DRAIN = Duration.ofSeconds(1);

  /**
   * Reports held while an interpreter starts. Each reader thread waits for a permit before it reports a chunk
   * (ReplProcess: 4 per stream), so a starting process has at most 8 chunks, 2 closes and 1 exit out, plus the
   * few in flight from a process just closed; were the stash ever full, a report is dropped with a warning (a
   * chunk's permit given back) rather than a reader thread blocked.
   */
  static final int STASH_CAPACITY = 1024;

  /** Restarts allowed within {@link #RESTART_WINDOW} by {@link #supervised}; past them the worker stops. */
  public static final int MAX_RESTARTS = 3;
  public static final Duration RESTART_WINDOW = Duration.ofMinutes(1);

  /** A worker for a built-in language ({@link LanguageRegistry#worker} also knows the configured ones). */
  public static Behavior<Command> create(ReplConfig config) {
    return create(config, ReplDialect.of(config.language()));
  }

  static Behavior<Command> create(ReplConfig config, ReplDialect dialect) {
    return Behaviors.setup(ctx -> {
      CrashRecorder crashes = new CrashRecorder();
      return Behaviors.intercept(() -> crashes, Behaviors.withTimers(timers -> Behaviors.withStash(STASH_CAPACITY,
          stash -> new ReplWorker(ctx, timers, stash, crashes, config, dialect))));
    });
  }

  /**
   * {@code worker} as its parent should spawn it: restarted when it throws (its block answered, its interpreter
   * killed, the next block in a fresh one), at most {@link #MAX_RESTARTS} times a minute; past that it stops.
   */
  public static Behavior<Command> supervised(Behavior<Command> worker) {
    return Behaviors.supervise(worker).onFailure(SupervisorStrategy.restart().withLimit(MAX_RESTARTS, RESTART_WINDOW));
  }

  private final TimerScheduler<Command> timers;
  private final StashBuffer<Command> stash;
  private final CrashRecorder crashes;
  private final ReplConfig config;
  private final ReplDialect dialect;
  private final Executor blocking;
  private final ReplLauncher launcher;
  private final Behavior<Command> starting;
  private ReplProcess process;
  private CompletableFuture<ReplProcess> pendingStart;
  private BlockRun running;
  private String pendingNotice;
  /** Whether the current process has finished a block: if not, dying with 126/127 means it never started. */
  private boolean processServed;

  private ReplWorker(ActorContext<Command> context, TimerScheduler<Command> timers, StashBuffer<Command> stash,
      CrashRecorder crashes, ReplConfig config, ReplDialect dialect) {
    super(context);
    this.timers = timers;
    this.stash = stash;
    this.crashes = crashes;
    this.config = config;
    this.dialect = dialect;
    // starting an interpreter (and finding python behind a pyenv shim) blocks; keep it off the actor's thread
    this.blocking = context.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    this.launcher = new ReplLauncher(config, dialect);
    this.starting = starting();
  }

  /** Ready: no interpreter (the next block starts one), or one that is idle or running a block. */
  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Execute.class, this::onExecute)
        .onMessage(StartEarly.class, this::onStartEarly)
        .onMessage(Interrupt.class, i -> onHalt(running, Halt.INTERRUPT))
        .onMessage(BlockTimedOut.class, t -> onHalt(t.run(), Halt.TIMEOUT))
        .onMessage(Stop.class, s -> Behaviors.stopped())
        .onMessage(Started.class, this::onStarted)
        .onMessage(StreamChunk.class, this::onChunk)
        .onMessage(StreamClosed.class, this::onStreamClosed)
        .onMessage(ProcessExited.class, this::onExited)
        .onMessage(GraceExpired.class, this::onGraceExpired)
        .onMessage(DrainExpired.class, this::onDrainExpired)
        .onMessage(IdleExpired.class, this::onIdle)
        .onSignal(PreRestart.class, s -> onEnd(true))
        .onSignal(PostStop.class, s -> onEnd(false))
        .build();
  }

  /** Starting: the interpreter is being launched; the block waiting for it is dispatched when {@code Started} comes. */
  private Behavior<Command> starting() {
    return Behaviors.receive(Command.class)
        .onMessage(Started.class, this::onStarted)
        .onMessage(Execute.class, this::onExecute)
        .onMessage(StartEarly.class, m -> Behaviors.same()) // under way already
        .onMessage(Interrupt.class, i -> onHalt(running, Halt.INTERRUPT))
        .onMessage(BlockTimedOut.class, t -> onHalt(t.run(), Halt.TIMEOUT))
        .onMessage(Stop.class, s -> Behaviors.stopped())
        .onMessage(StreamChunk.class, this::hold)
        .onMessage(StreamClosed.class, this::hold)
        .onMessage(ProcessExited.class, this::hold)
        // grace, drain and idle timers concern an interpreter that is gone by now
        .onMessage(GraceExpired.class, m -> Behaviors.same())
        .onMessage(DrainExpired.class, m -> Behaviors.same())
        .onMessage(IdleExpired.class, m -> Behaviors.same())
        .onSignal(PreRestart.class, s -> onEnd(true))
        .onSignal(PostStop.class, s -> onEnd(false))
        .build();
  }

  private Behavior<Command> onExecute(Execute execute) {
    if (running != null) {
      refuse(execute, BlockEndings.busy(dialect));
      return Behaviors.same();
    }
    Execute prepared = launcher.prepare(execute); // python shell lines; isolated installs (ReplLauncher)
    BlockRun run;
    try {
      run = BlockRun.open(config, dialect, prepared, pendingNotice);
    } catch (IOException | RuntimeException e) {
      refuse(execute, BlockEndings.cannotPrepare(e));
      return Behaviors.same();
    }
    pendingNotice = null;
    running = run;
    Behavior<Command> next = Behaviors.same();
    if (pendingStart == null) {
      if (process != null && launcher.needsRestart()) {
        process.close(); // the first pip install: python moves into WORKDIR/.venv (ReplLauncher)
        process = null;
      }
      if (process != null) {
        dispatch(run);
      } else {
        startProcess();
        next = starting;
      }
    }
    if (process == null) {
      startBlockTimer(run, startWait(execute.timeout())); // dispatch starts its own time once the interpreter is up
    }
    config.faults().hit(Faults.Point.WORKER_EXECUTE);
    return next;
  }

  private Behavior<Command> onStartEarly(StartEarly m) {
    if (process != null || pendingStart != null || running != null) {
      return Behaviors.same();
    }
    startProcess();
    return starting;
  }

  private Behavior<Command> onStarted(Started started) {
    if (started.attempt() != pendingStart) {
      return Behaviors.same(); // launched by an earlier incarnation, which closes it once it is up
    }
    pendingStart = null;
    if (started.failure() != null) {
      Throwable cause = BlockEndings.causeOf(started.failure());
      getContext().getLog().warn("could not start the {}", dialect.processName(), cause);
      if (running != null) {
        end(running, BlockEndings.cannotStart(dialect, cause));
      }
    } else {
      process = started.process();
      processServed = false;
      getContext().getLog().debug("{} started, pid {}", dialect.processName(), process.pid());
      if (running != null) {
        dispatch(running);
      } else {
        startIdleTimer();
      }
    }
    return stash.unstashAll(this); // what the process reported before this, in order
  }

  /** A report that comes before {@code Started}: it may be from the process being started, known only then. */
  private Behavior<Command> hold(Command report) {
    if (!stash.isFull()) {
      stash.stash(report);
      return Behaviors.same();
    }
    getContext().getLog().warn("{} start: more than {} reports held, dropping {}", dialect.processName(),
        STASH_CAPACITY, report);
    if (report instanceof StreamChunk chunk) {
      chunk.source().release(chunk.stream());
    }
    return Behaviors.same();
  }

  private Behavior<Command> onChunk(StreamChunk chunk) {
    try {
      if (chunk.source() != process || running == null) {
        return Behaviors.same(); // output of background jobs between blocks belongs to no block
      }
      BlockRun run = running;
      run.accept(chunk.stream(), chunk.text()).forEach(run.request().replyTo()::tell);
      config.faults().hit(Faults.Point.WORKER_EXECUTING);
      if (run.markersSeen()) {
        if (run.killed()) {
          completeDead(run);
        } else {
          processServed = true;
          end(run, BlockEndings.survived(dialect, run.reportedStatus(), run.halt(), run.request().timeout(),
              run.readStdinAtEof()));
        }
      }
      return Behaviors.same();
    } finally {
      chunk.source().release(chunk.stream());
    }
  }

  private Behavior<Command> onStreamClosed(StreamClosed closed) {
    if (closed.source() != process || running == null) {
      return Behaviors.same();
    }
    BlockRun run = running;
    run.closed(closed.stream()).forEach(run.request().replyTo()::tell);
    if (run.exitValue() != null && run.streamsClosed()) {
      completeDead(run);
    }
    return Behaviors.same();
  }

  private Behavior<Command> onExited(ProcessExited exited) {
    if (exited.source() != process) {
      return Behaviors.same(); // a process this worker already let go of
    }
    timers.cancel(TimerKey.IDLE);
    if (running == null) {
      pendingNotice = Notices.join(pendingNotice, Notices.diedBetweenBlocks(dialect, exited.exitValue()));
      process = null;
      exited.source().close();
      return Behaviors.same();
    }
    timers.cancel(TimerKey.GRACE); // it is gone already; no kill to report
    // children left behind would hold the pipes open and keep the readers from end-of-file
    exited.source().destroyTree();
    running.exited(exited.exitValue());
    if (running.streamsClosed()) {
      completeDead(running);
    } else {
      timers.startSingleTimer(TimerKey.DRAIN, new DrainExpired(running), drainTime());
    }
    return Behaviors.same();
  }

  private Behavior<Command> onHalt(BlockRun run, Halt why) {
    if (run == null || run != running || run.halt() != Halt.NONE) {
      return Behaviors.same(); // idle, a stale timer, or already stopping
    }
    run.halt(why);
    if (process == null && run.exitValue() == null) {
      // the interpreter is still starting: nothing ran, and the process will wait idle for the next block
      end(run, BlockEndings.stoppedBeforeStart(dialect, why, startWait(run.request().timeout())));
      return Behaviors.same();
    }
    if (run.exitValue() == null) {
      process.interrupt();
      timers.startSingleTimer(TimerKey.GRACE, new GraceExpired(run), config.interruptGrace());
    }
    return Behaviors.same();
  }

  private Behavior<Command> onGraceExpired(GraceExpired expired) {
    if (expired.run() != running || process == null) {
      return Behaviors.same();
    }
    running.markKilled();
    process.destroyTree();
    timers.startSingleTimer(TimerKey.DRAIN, new DrainExpired(running), drainTime());
    return Behaviors.same();
  }

  private Behavior<Command> onDrainExpired(DrainExpired expired) {
    if (expired.run() == running) {
      completeDead(running); // output still held by an escaped process is in no block; finish with what came
    }
    return Behaviors.same();
  }

  private Behavior<Command> onIdle(IdleExpired idle) {
    if (idle.process() != process || running != null) {
      return Behaviors.same();
    }
    getContext().getLog().debug("{} idle for {}, stopping it", dialect.processName(), config.idleTimeout());
    if (processServed) { // one started early and never used had no state to lose
      pendingNotice = Notices.idleRestart(dialect, config.idleTimeout());
    }
    process = null;
    idle.process().close();
    return Behaviors.same();
  }

  /**
   * This incarnation ends: restarted after a crash ({@code PreRestart}), or stopped ({@code PostStop}: told to, its
   * system ending, or crashed past its restart limit). Nothing it started may outlive it: the interpreter's tree is
   * killed (also one still being launched, once it is up), the timers cancelled, the running block answered.
   */
  private Behavior<Command> onEnd(boolean restarting) {
    ReplProcess last = process;
    process = null;
    if (last != null) {
      last.close();
    }
    if (pendingStart != null) {
      pendingStart.thenAccept(ReplProcess::close);
      pendingStart = null;
    }
    stash.clear(); // reports of the processes just closed; closing gave their readers back every permit
    if (running != null) {
      Throwable crash = crashes.failure();
      if (crash == null && !restarting) {
        running.halt(Halt.INTERRUPT);
        end(running, BlockEndings.shutDown(dialect));
      } else {
        end(running, BlockEndings.crashed(dialect, crash, restarting));
      }
    }
    timers.cancelAll();
    return Behaviors.same();
  }

  private void startProcess() {
    CompletableFuture<ReplProcess> attempt = InterpreterLaunch.start(config, dialect, launcher,
        new SelfListener(getContext().getSelf()), blocking);
    pendingStart = attempt;
    getContext().pipeToSelf(attempt, (started, failure) -> new Started(attempt, started, failure));
  }

  private void dispatch(BlockRun run) {
    timers.cancel(TimerKey.IDLE);
    startBlockTimer(run, run.request().timeout());
    try {
      process.send(run.command());
    } catch (IOException e) {
      // the interpreter just went away; its exit notice will end this block
      getContext().getLog().debug("could not send block {} to the {}", run.request().block(), dialect.processName(), e);
    }
  }

  /** The interpreter is gone (exited, crashed or killed by us): report how, and start afresh next time. */
  private void completeDead(BlockRun run) {
    ReplProcess dead = process;
    process = null;
    if (dead != null) {
      dead.close();
    }
    end(run, BlockEndings.died(dialect, run.exitValue(), run.halt(), run.killed(), run.request().timeout(),
        config.interruptGrace(), processServed));
  }

  private void end(BlockRun run, Ending ending) {
    timers.cancel(TimerKey.BLOCK);
    timers.cancel(TimerKey.GRACE);
    timers.cancel(TimerKey.DRAIN);
    ExecResult result = run.result(ending.exitCode(),
        Notices.join(Notices.join(run.carriedNotice(), launcher.takeNotice()), ending.notice()));
    run.request().replyTo().tell(new Finished(run.request().block(), result));
    running = null;
    if (process != null) {
      startIdleTimer();
    }
  }

  /** Answers a block that never ran. */
  private static void refuse(Execute execute, Ending ending) {
    execute.replyTo().tell(new Finished(execute.block(),
        new ExecResult(ending.exitCode(), false, false, 0, false, null, "", ending.notice())));
  }

  /**
   * The block's timer: its timeout from when the interpreter has it. {@code null}: the block may run until
   * interrupted (the session always sets a timeout).
   */
  private void startBlockTimer(BlockRun run, Duration timeout) {
    if (timeout != null) {
      timers.startSingleTimer(TimerKey.BLOCK, new BlockTimedOut(run), timeout);
    }
  }

  /**
   * How long a block may wait for its interpreter to start: its timeout, and at least {@link #START_WAIT}. A start
   * is not the block's run: a thousand sessions starting at once on 2 cores queued their starts for minutes, and
   * 1 118 of their 4 000 blocks ended as timed out before anything ran.
   */
  static Duration startWait(Duration timeout) {
    return timeout == null ? null : timeout.compareTo(START_WAIT) > 0 ? timeout : START_WAIT;
  }

  private void startIdleTimer() {
    timers.startSingleTimer(TimerKey.IDLE, new IdleExpired(process), config.idleTimeout());
  }

  private Duration drainTime() {
    return config.interruptGrace().compareTo(MIN_DRAIN) > 0 ? config.interruptGrace() : MIN_DRAIN;
  }

  /** Turns reader-thread and reaper-thread callbacks into messages to this actor. */
  private record SelfListener(ActorRef<Command> self) implements ReplProcess.Listener {
    @Override
    public void output(ReplProcess source, Stream stream, String text) {
      self.tell(new StreamChunk(source, stream, text));
    }

    @Override
    public void closed(ReplProcess source, Stream stream) {
      self.tell(new StreamClosed(source, stream));
    }

    @Override
    public void exited(ReplProcess source, int exitValue) {
      self.tell(new ProcessExited(source, exitValue));
    }
  }
}
