package io.interpreter4j.cluster.serve;

import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.hub.SessionEntry;
import io.interpreter4j.server.hub.SessionHub;
import io.interpreter4j.server.hub.SessionView;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node leaving the cluster on SIGTERM: the turns running on it are given {@code interpreter4j.cluster.leave-grace}
 * to end, those still running then are interrupted (their {@code turn_finished} says {@code interrupted}), and the
 * mirror is given a moment to write the last events to PostgreSQL; then each session is handed to another node,
 * which starts it from the journal at once ({@link SessionHandOver}); then the caller stops the server and the actor
 * system, whose coordinated shutdown leaves the cluster.
 */
public final class GracefulLeave {
  /** How long the last events may take to reach PostgreSQL after the turns ended. */
  static final Duration DRAIN = Duration.ofSeconds(5);

  private GracefulLeave() {}

  /**
   * Waits for the running turns (at most {@code grace}), interrupts the rest, waits for their ends and the journal,
   * then hands the sessions over.
   *
   * @param said where to say what happens (stderr)
   */
  public static void run(SessionHub hub, JournalMirror mirror, SessionHandOver handOver, Duration grace,
                         java.io.PrintStream said) throws InterruptedException {
    List<SessionEntry> running = running(hub);
    if (!running.isEmpty()) {
      said.println("i4j: leaving the cluster: " + running.size() + " turn" + (running.size() == 1 ? "" : "s")
          + " running, waiting up to " + grace.toSeconds() + " s");
      awaitIdle(hub, grace);
      List<SessionEntry> still = running(hub);
      if (!still.isEmpty()) {
        said.println("i4j: interrupting " + still.size() + " turn" + (still.size() == 1 ? "" : "s")
            + " still running");
        still.forEach(e -> e.session().tell(Session.Interrupt.INSTANCE));
        awaitIdle(hub, DRAIN);
      }
    }
    mirror.awaitWritten(DRAIN);
    handOver.handOverAll(hub, said);
    mirror.stop(); // the server's feeds end next: that is no reason to follow again
  }

  private static List<SessionEntry> running(SessionHub hub) {
    return hub.all().stream().filter(e -> !e.ended() && e.session() != null
        && SessionView.RUNNING.contains(e.view().status())).toList();
  }

  /** Watches the hub until no turn runs or {@code within} passes (the state lives in views, not in a signal). */
  private static void awaitIdle(SessionHub hub, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!running(hub).isEmpty() && System.nanoTime() < deadline) {
      CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS)).join();
    }
  }
}
