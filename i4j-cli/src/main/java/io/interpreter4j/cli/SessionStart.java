package io.interpreter4j.cli;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A chat's session starting on a thread of its own while the chat already shows its prompt: whatever needs the
 * session (a message, a {@code %} command) waits for it with {@link #await()}, and a start that failed is thrown
 * there as it would have been thrown before the prompt. {@code onFailure} runs on the starting thread when the start
 * fails, so that a chat waiting at its prompt can stop waiting and say why at once.
 */
final class SessionStart implements AutoCloseable {

  private final CompletableFuture<CliSession> session = new CompletableFuture<>();

  private SessionStart() {}

  /** Starts the session with {@code start} on a daemon thread. */
  static SessionStart begin(Supplier<CliSession> start, Runnable onFailure) {
    SessionStart s = new SessionStart();
    Thread starter = new Thread(() -> {
      try {
        s.session.complete(start.get());
      } catch (RuntimeException | Error e) {
        s.session.completeExceptionally(e);
        onFailure.run();
      }
    }, "i4j-session-start");
    starter.setDaemon(true);
    starter.start();
    return s;
  }

  /** The session, once started; the start's own exception if it failed. */
  CliSession await() {
    try {
      return session.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** The session if it has started, else null (still starting, or failed). */
  CliSession now() {
    return session.isDone() && !session.isCompletedExceptionally() ? session.join() : null;
  }

  /** Whether the start failed (then {@link #await()} throws why). */
  boolean failed() {
    return session.isCompletedExceptionally();
  }

  /** Waits for a start still under way and closes the session it started (its REPL processes and actor system). */
  @Override
  public void close() {
    try {
      session.join().close();
    } catch (CompletionException e) {
      // nothing started; the start cleaned up after itself
    }
  }
}
