package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.repl.BlockRun.Halt;
import io.interpreter4j.runtime.repl.ReplProcess.Stream;
import io.interpreter4j.runtime.sandbox.LaunchSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/** One persistent interpreter process for one language of one session. */
public final class ReplWorker extends AbstractBehavior<ReplWorker.Command> {

  public interface Command {}

  /** Run code; replies Output* then exactly one Finished to replyTo. */
  public record Execute(int block, String code, Duration timeout, ActorRef<Reply> replyTo) implements Command {}

  /** User interrupt of the running block: SIGINT to its process group, then kill after grace -> exit 130, interrupted=true. No-op when idle. */
  public enum Interrupt implements Command { INSTANCE }

  /** Kill the whole process tree and stop the actor. */
  public enum Stop implements Command { INSTANCE }

  public interface Reply {}

  /** stream is "stdout" or "stderr". */
  public record Output(int block, String stream, String text) implements Reply {}

  public record Finished(int block, ExecResult result) implements Reply {}

  private record Started(ReplProcess process, Throwable failure) implements Command {}

  private record StreamChunk(ReplProcess source, Stream stream, String text) implements Command {}

  private record StreamClosed(ReplProcess source, Stream stream) implements Command {}

  private record ProcessExited(ReplProcess source, int exitValue) implements Command {}

  private record BlockTimedOut(BlockRun run) implements Command {}

  private record GraceExpired(BlockRun run) implements Command {}

  private record DrainExpired(BlockRun run) implements Command {}

  private record IdleExpired(ReplProcess process) implements Command {}

  private enum TimerKey { BLOCK, GRACE, DRAIN, IDLE }

  /** After the interpreter is gone, how long to wait at least for the rest of its output before finishing anyway. */
  private static final Duration MIN_DRAIN = Duration.ofSeconds(1);

  /** A worker for a built-in language ({@link LanguageRegistry#worker} also knows the configured ones). */
  public static Behavior<Command> create(ReplConfig config) {
    return create(config, ReplDialect.of(config.language()));
  }

  static Behavior<Command> create(ReplConfig config, ReplDialect dialect) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new ReplWorker(ctx, timers, config, dialect)));
  }

  private final TimerScheduler<Command> timers;
  private final ReplConfig config;
  private final ReplDialect dialect;
  private final Executor blocking;
  private final ReplLauncher launcher;
  private ReplProcess process;
  private CompletableFuture<ReplProcess> pendingStart;
  private BlockRun running;
  private String pendingNotice;
  /** Reports of the process still starting: it can write, or even die, before {@code Started} arrives. */
  private final List<Command> early = new ArrayList<>();
  /** Whether the current process has finished a block: if not, dying with 126/127 means it never started. */
  private boolean processServed;

  private ReplWorker(ActorContext<Command> context, TimerScheduler<Command> timers, ReplConfig config,
      ReplDialect dialect) {
    super(context);
    this.timers = timers;
    this.config = config;
    this.dialect = dialect;
    // starting an interpreter (and finding python behind a pyenv shim) blocks; keep it off the actor's thread
    this.blocking = context.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    this.launcher = new ReplLauncher(config, dialect);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Execute.class, this::onExecute)
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
        .onSignal(PostStop.class, s -> onPostStop())
        .build();
  }

  private Behavior<Command> onExecute(Execute execute) {
    if (running != null) {
      execute.replyTo().tell(new Finished(execute.block(),
          new ExecResult(1, false, false, 0, false, null, "", Notices.busy(dialect))));
      return this;
    }
    Execute prepared = launcher.prepare(execute); // python shell lines; isolated installs (ReplLauncher)
    BlockRun run;
    try {
      run = BlockRun.open(config, dialect, prepared, pendingNotice, blocking);
    } catch (IOException | RuntimeException e) {
      execute.replyTo().tell(new Finished(execute.block(),
          new ExecResult(1, false, false, 0, false, null, "", Notices.cannotPrepare(e))));
      return this;
    }
    pendingNotice = null;
    running = run;
    if (execute.timeout() != null) { // the session always sets one; null means the block may run until interrupted
      timers.startSingleTimer(TimerKey.BLOCK, new BlockTimedOut(run), execute.timeout());
    }
    if (process != null && launcher.needsRestart()) {
      process.close(); // the first pip install: python moves into WORKDIR/.venv (ReplLauncher)
      process = null;
    }
    if (process != null) {
      dispatch(run);
    } else if (pendingStart == null) {
      startProcess();
    }
    return this;
  }

  private Behavior<Command> onStarted(Started started) {
    pendingStart = null;
    List<Command> held = List.copyOf(early);
    early.clear();
    if (started.failure() != null) {
      Throwable cause = started.failure();
      while ((cause instanceof CompletionException || cause instanceof UncheckedIOException)
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      getContext().getLog().warn("could not start the {}", dialect.processName(), cause);
      if (running != null) {
        finish(running, 127, Notices.cannotStart(dialect, cause));
      }
      return this;
    }
    process = started.process();
    processServed = false;
    getContext().getLog().debug("{} started, pid {}", dialect.processName(), process.pid());
    if (running != null) {
      dispatch(running);
    } else {
      startIdleTimer();
    }
    for (Command report : held) {
      if (report instanceof StreamChunk chunk) {
        onChunk(chunk);
      } else if (report instanceof StreamClosed closed) {
        onStreamClosed(closed);
      } else if (report instanceof ProcessExited exited) {
        onExited(exited);
      }
    }
    return this;
  }

  /** Holds a report that comes before {@code Started} for the process being started, to handle it after. */
  private boolean heldUntilStarted(Command report) {
    if (process == null && pendingStart != null) {
      early.add(report);
      return true;
    }
    return false;
  }

  private Behavior<Command> onChunk(StreamChunk chunk) {
    if (heldUntilStarted(chunk)) {
      return this; // its permit is released when it is handled
    }
    try {
      if (chunk.source() != process || running == null) {
        return this; // output of background jobs between blocks belongs to no block
      }
      BlockRun run = running;
      run.accept(chunk.stream(), chunk.text()).forEach(run.request().replyTo()::tell);
      if (run.markersSeen()) {
        if (run.killed()) {
          completeDead(run);
        } else {
          completeNormally(run);
        }
      }
      return this;
    } finally {
      chunk.source().release(chunk.stream());
    }
  }

  private Behavior<Command> onStreamClosed(StreamClosed closed) {
    if (heldUntilStarted(closed)) {
      return this;
    }
    if (closed.source() != process || running == null) {
      return this;
    }
    BlockRun run = running;
    run.closed(closed.stream()).forEach(run.request().replyTo()::tell);
    if (run.exitValue() != null && run.streamsClosed()) {
      completeDead(run);
    }
    return this;
  }

  private Behavior<Command> onExited(ProcessExited exited) {
    if (heldUntilStarted(exited)) {
      return this;
    }
    if (exited.source() != process) {
      return this; // a process this worker already let go of
    }
    timers.cancel(TimerKey.IDLE);
    if (running == null) {
      pendingNotice = Notices.join(pendingNotice, Notices.diedBetweenBlocks(dialect, exited.exitValue()));
      process = null;
      exited.source().close();
      return this;
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
    return this;
  }

  private Behavior<Command> onHalt(BlockRun run, Halt why) {
    if (run == null || run != running || run.halt() != Halt.NONE) {
      return this; // idle, a stale timer, or already stopping
    }
    run.halt(why);
    if (process == null && run.exitValue() == null) {
      // the interpreter is still starting: nothing ran, and the process will wait idle for the next block
      finish(run, exitCodeFor(why), Notices.stoppedBeforeStart(dialect, why == Halt.TIMEOUT, run.request().timeout()));
      return this;
    }
    if (run.exitValue() == null) {
      process.interrupt();
      timers.startSingleTimer(TimerKey.GRACE, new GraceExpired(run), config.interruptGrace());
    }
    return this;
  }

  private Behavior<Command> onGraceExpired(GraceExpired expired) {
    if (expired.run() != running || process == null) {
      return this;
    }
    running.markKilled();
    process.destroyTree();
    timers.startSingleTimer(TimerKey.DRAIN, new DrainExpired(running), drainTime());
    return this;
  }

  private Behavior<Command> onDrainExpired(DrainExpired expired) {
    if (expired.run() == running) {
      completeDead(running); // output still held by an escaped process is in no block; finish with what came
    }
    return this;
  }

  private Behavior<Command> onIdle(IdleExpired idle) {
    if (idle.process() != process || running != null) {
      return this;
    }
    getContext().getLog().debug("{} idle for {}, stopping it", dialect.processName(), config.idleTimeout());
    pendingNotice = Notices.idleRestart(dialect, config.idleTimeout());
    process = null;
    idle.process().close();
    return this;
  }

  private Behavior<Command> onPostStop() {
    ReplProcess last = process;
    process = null;
    if (running != null) {
      running.halt(Halt.INTERRUPT);
      finish(running, 130, Notices.workerStopped(dialect));
    }
    if (last != null) {
      last.close();
    }
    if (pendingStart != null) {
      pendingStart.thenAccept(ReplProcess::close);
    }
    return this;
  }

  private void startProcess() {
    ReplProcess.Listener listener = new SelfListener(getContext().getSelf());
    Map<String, String> env = environment(config);
    env.putAll(dialect.environment());
    String threadName = "i4j-repl-" + dialect.name().toLowerCase(java.util.Locale.ROOT);
    java.util.function.Supplier<LaunchSpec> launch = launcher.launch(env); // sandbox, python (ReplLauncher)
    pendingStart = CompletableFuture.supplyAsync(() -> {
      try {
        LaunchSpec spec = launch.get();
        return ReplProcess.start(spec.command(ReplProcess.SETSID), spec.workdir(), spec.env(), dialect.prelude(),
            dialect.ownsProcessGroup(), threadName, listener);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, blocking);
    getContext().pipeToSelf(pendingStart, Started::new);
  }

  private void dispatch(BlockRun run) {
    timers.cancel(TimerKey.IDLE);
    try {
      process.send(run.command());
    } catch (IOException e) {
      // the interpreter just went away; its exit notice will end this block
      getContext().getLog().debug("could not send block {} to the {}", run.request().block(), dialect.processName(), e);
    }
  }

  /** Both end markers arrived: the interpreter survived the block. */
  private void completeNormally(BlockRun run) {
    int exitCode = run.reportedStatus();
    String notice = null;
    if (run.halt() != Halt.NONE) {
      exitCode = exitCodeFor(run.halt());
      notice = Notices.stoppedAndKept(dialect, run.halt() == Halt.TIMEOUT, run.request().timeout());
    }
    if (run.readStdinAtEof()) {
      notice = Notices.join(notice, Notices.STDIN_CLOSED);
    }
    processServed = true;
    finish(run, exitCode, notice);
  }

  /** The interpreter is gone (exited, crashed or killed by us): report how, and start afresh next time. */
  private void completeDead(BlockRun run) {
    ReplProcess dead = process;
    process = null;
    if (dead != null) {
      dead.close();
    }
    int exitValue = run.exitValue() != null ? run.exitValue() : 128 + 9;
    String notice;
    int exitCode;
    if (run.halt() != Halt.NONE) {
      exitCode = exitCodeFor(run.halt());
      notice = run.killed()
          ? Notices.stoppedAndKilled(dialect, run.halt() == Halt.TIMEOUT, run.request().timeout(),
              config.interruptGrace())
          : Notices.died(dialect, exitValue);
    } else {
      exitCode = exitValue;
      // setsid/env report a missing or unusable interpreter as 127/126 once the JDK has already started them
      boolean neverStarted = !processServed && (exitValue == 126 || exitValue == 127);
      notice = neverStarted ? Notices.neverStarted(dialect, exitValue) : Notices.died(dialect, exitValue);
    }
    finish(run, exitCode, notice);
  }

  private void finish(BlockRun run, int exitCode, String notice) {
    timers.cancel(TimerKey.BLOCK);
    timers.cancel(TimerKey.GRACE);
    timers.cancel(TimerKey.DRAIN);
    ExecResult result = run.result(exitCode,
        Notices.join(Notices.join(run.carriedNotice(), launcher.takeNotice()), notice));
    run.request().replyTo().tell(new Finished(run.request().block(), result));
    running = null;
    if (process != null) {
      startIdleTimer();
    }
  }

  private void startIdleTimer() {
    timers.startSingleTimer(TimerKey.IDLE, new IdleExpired(process), config.idleTimeout());
  }

  private Duration drainTime() {
    return config.interruptGrace().compareTo(MIN_DRAIN) > 0 ? config.interruptGrace() : MIN_DRAIN;
  }

  private static int exitCodeFor(Halt halt) {
    return halt == Halt.TIMEOUT ? 124 : 130;
  }

  private static Map<String, String> environment(ReplConfig config) {
    Map<String, String> env = new HashMap<>();
    // live output from the code's own python children too, and no pager waiting for a key nobody will press
    env.put("PYTHONUNBUFFERED", "1");
    env.put("PYTHONIOENCODING", "utf-8");
    env.put("PAGER", "cat");
    env.put("GIT_PAGER", "cat");
    env.putAll(config.extraEnv());
    return env;
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
