package io.interpreter4j.runtime.computer;

import io.interpreter4j.core.computer.ModelSpace;
import io.interpreter4j.core.safety.SecretRedactor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.StashBuffer;
import org.slf4j.event.Level;

/**
 * The session's screen, mouse and keyboard: answers {@link Perform} for the targets {@code display}, {@code mouse}
 * and {@code keyboard}, one action at a time (the others wait, at most {@value #STASH_CAPACITY}).
 *
 * <p>The screen is {@code $DISPLAY} when one was given ({@link Screen#host}), else a private {@link XServer} this
 * actor owns. Supervision: when the Xvfb dies the actor throws; its supervisor restarts it with a backoff, and the
 * new incarnation starts an Xvfb on the same display number (so programs keep their {@code DISPLAY}); actions sent
 * meanwhile wait, and the first outcome after a restart tells the model the screen was reset. An Xvfb that cannot be
 * started fails the actions with the reason; past {@value #MAX_RESTARTS} restarts in {@link #RESTART_WINDOW} the
 * actor stops and the router answers for it. The Xvfb is killed when the actor stops (with the session) and when
 * the JVM exits.
 */
public final class DisplayActor extends AbstractBehavior<ComputerCommand> {

  /**
   * The screen to use.
   *
   * @param host    the {@code $DISPLAY} given to i4j, or null for a private Xvfb
   * @param number  the private Xvfb's display number (chosen when the session starts; kept across restarts)
   * @param width   the private screen's size
   * @param height  its size
   * @param grid    screenshots carry the grid unless an action says otherwise
   * @param scratch a folder for screenshot files
   */
  public record Screen(String host, AtomicInteger number, int width, int height, boolean grid, Path scratch) {
    public static Screen host(String display, boolean grid, Path scratch) {
      return new Screen(display, new AtomicInteger(-1), 0, 0, grid, scratch);
    }

    public static Screen privateXvfb(int number, int width, int height, boolean grid, Path scratch) {
      return new Screen(null, new AtomicInteger(number), width, height, grid, scratch);
    }

    /** The value of {@code DISPLAY} for the session's programs. */
    public String display() {
      return host != null ? host : ":" + number.get();
    }
  }

  static final int STASH_CAPACITY = 64;
  static final int MAX_RESTARTS = 5;
  static final Duration RESTART_WINDOW = Duration.ofMinutes(1);

  static final String RESET = "The screen was reset: its X server had stopped and was started again, so the "
      + "windows that were open are gone. ";

  private record Started(XServer server, Throwable failure) implements ComputerCommand {}

  private record Exited(long pid) implements ComputerCommand {}

  private record Done(ActionOutcome outcome, Throwable failure, Perform perform, int incarnation)
      implements ComputerCommand {}

  /** The display actor as the router spawns it: restarted with a backoff when its Xvfb dies. */
  public static Behavior<ComputerCommand> create(Screen screen, SecretRedactor secrets) {
    if (screen.host() == null && !XServer.available()) {
      return unavailable(XServer.MISSING);
    }
    AtomicInteger incarnations = new AtomicInteger();
    return Behaviors.supervise(Behaviors.<ComputerCommand>setup(ctx -> Behaviors.withStash(STASH_CAPACITY,
            stash -> new DisplayActor(ctx, stash, screen, secrets, incarnations.incrementAndGet()))))
        .onFailure(ScreenLost.class, SupervisorStrategy.restartWithBackoff(Duration.ofMillis(100),
            Duration.ofSeconds(5), 0.2).withMaxRestarts(MAX_RESTARTS).withResetBackoffAfter(RESTART_WINDOW)
            .withLogLevel(Level.WARN)); // an expected event, said in one line by the exception's message
  }

  /** Answers every action with {@code reason}: no screen can be had here. */
  static Behavior<ComputerCommand> unavailable(String reason) {
    return Behaviors.receive(ComputerCommand.class)
        .onMessage(Perform.class, p -> {
          p.replyTo().tell(ActionOutcome.failed(reason));
          return Behaviors.same();
        })
        .build();
  }

  /** The Xvfb died or could not be started: the supervisor starts a new incarnation. */
  static final class ScreenLost extends RuntimeException {
    ScreenLost(String message) {
      super(message);
    }
  }

  private final StashBuffer<ComputerCommand> stash;
  private final Screen screen;
  private final SecretRedactor secrets;
  private final Executor blocking;
  private final int incarnation;
  private XServer server;
  /** The action running now, or null. */
  private Perform inFlight;
  private volatile DesktopActions actions;
  private boolean ready;
  private boolean busy;
  /** The next outcome starts by saying the screen was reset. */
  private boolean resetUntold;

  private DisplayActor(ActorContext<ComputerCommand> context, StashBuffer<ComputerCommand> stash, Screen screen,
                       SecretRedactor secrets, int incarnation) {
    super(context);
    this.stash = stash;
    this.screen = screen;
    this.secrets = secrets;
    this.blocking = context.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    this.incarnation = incarnation;
    this.resetUntold = incarnation > 1 && screen.host() == null;
    if (screen.host() != null) {
      ready = true;
    } else {
      context.pipeToSelf(CompletableFuture.supplyAsync(this::startServer, blocking), Started::new);
    }
  }

  /** Starts the Xvfb; when another server took the number meanwhile, the next free one. */
  private XServer startServer() {
    int number = screen.number().get();
    try {
      return XServer.start(number, screen.width(), screen.height());
    } catch (IllegalStateException inUse) {
      int next = XServer.freeNumber();
      if (next == number) {
        throw inUse;
      }
      screen.number().set(next);
      return XServer.start(next, screen.width(), screen.height());
    }
  }

  @Override
  public Receive<ComputerCommand> createReceive() {
    return newReceiveBuilder()
        .onMessage(Perform.class, this::onPerform)
        .onMessage(Started.class, this::onStarted)
        .onMessage(Exited.class, this::onExited)
        .onMessage(Done.class, this::onDone)
        .onSignal(PreRestart.class, this::onStopping)
        .onSignal(PostStop.class, this::onStopping)
        .build();
  }

  private Behavior<ComputerCommand> onPerform(Perform p) {
    if (!ready || busy) {
      if (stash.isFull()) {
        p.replyTo().tell(ActionOutcome.failed("too many actions are waiting for the screen (" + STASH_CAPACITY
            + "); wait for the ones sent to finish"));
      } else {
        stash.stash(p);
      }
      return this;
    }
    busy = true;
    inFlight = p;
    getContext().pipeToSelf(CompletableFuture.supplyAsync(() -> actions().perform(p.action(), p.gate()), blocking),
        (outcome, failure) -> new Done(outcome, failure, p, incarnation));
    return this;
  }

  /** The actions on this screen; the first call reads the size of a screen given by $DISPLAY (blocking). */
  private DesktopActions actions() {
    DesktopActions known = actions;
    if (known == null) {
      Desktop desktop = new Desktop(screen.display(), screen.scratch());
      int[] size = screen.host() != null ? desktop.geometry() : new int[] {screen.width(), screen.height()};
      known = new DesktopActions(desktop, new ModelSpace(size[0], size[1]), screen.grid(), secrets);
      actions = known;
    }
    return known;
  }

  private Behavior<ComputerCommand> onStarted(Started m) {
    if (m.failure() != null) {
      Throwable cause = m.failure() instanceof java.util.concurrent.CompletionException c && c.getCause() != null
          ? c.getCause() : m.failure();
      throw new ScreenLost("the screen could not be started: " + cause.getMessage());
    }
    server = m.server();
    getContext().getLog().debug("Xvfb {} ready (pid {})", server.display(), server.pid());
    long pid = server.pid();
    getContext().pipeToSelf(server.exited(), (process, failure) -> new Exited(pid));
    ready = true;
    return stash.unstashAll(this);
  }

  private Behavior<ComputerCommand> onExited(Exited m) {
    if (server != null && server.pid() == m.pid()) {
      String code = server.exitCode().map(c -> " (exit code " + c + ")").orElse("");
      server = null;
      if (inFlight != null && !stash.isFull()) {
        stash.stash(inFlight); // it runs again on the new screen; its late Done is ignored there
      }
      inFlight = null;
      throw new ScreenLost("the X server of display " + screen.display() + " stopped" + code);
    }
    return this;
  }

  private Behavior<ComputerCommand> onDone(Done m) {
    if (m.incarnation() != incarnation) {
      return this; // an action of a screen that died: it was queued again when it died
    }
    busy = false;
    inFlight = null;
    if (m.failure() != null && server != null && server.exitCode().isPresent()) {
      // the screen died under the action: it runs again on the restarted screen rather than failing
      stash.stash(m.perform());
      String code = " (exit code " + server.exitCode().get() + ")";
      server = null;
      throw new ScreenLost("the X server of display " + screen.display() + " stopped during an action" + code);
    }
    ActionOutcome outcome = m.failure() != null
        ? ActionOutcome.failed(message(m.failure()))
        : m.outcome();
    if (resetUntold) {
      resetUntold = false;
      outcome = new ActionOutcome(outcome.ok(), RESET + outcome.text(), outcome.screenshotPng(), outcome.url());
    }
    m.perform().replyTo().tell(outcome);
    return stash.isEmpty() ? this : stash.unstash(this, 1, x -> x);
  }

  private static String message(Throwable failure) {
    Throwable cause = failure instanceof java.util.concurrent.CompletionException c && c.getCause() != null
        ? c.getCause() : failure;
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }

  private Behavior<ComputerCommand> onStopping(Signal signal) {
    if (signal instanceof PreRestart) {
      stash.forEach(m -> getContext().getSelf().tell(m)); // the next incarnation answers them
    } else {
      stash.forEach(m -> {
        if (m instanceof Perform p) {
          p.replyTo().tell(ActionOutcome.failed("the screen stopped before this action could run"));
        }
      });
    }
    if (server != null) {
      server.close();
      server = null;
    }
    return this;
  }
}
