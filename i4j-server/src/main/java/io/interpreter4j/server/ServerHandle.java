package io.interpreter4j.server;

import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.hub.SessionHub;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.http.javadsl.ServerBinding;

/**
 * A running server: its URLs, its token, its session hub, and {@link #stop()}.
 *
 * <p>To show a session created elsewhere (the terminal session of {@code i4j --dashboard}) and let the browser
 * approve its blocks:
 * <pre>{@code
 * SessionHub.Registration reg = handle.register(id, settings.dataDir());
 * Approver approver = FirstAnswerApprover.of(consoleApprover, reg.approver());
 * SessionSpec spec = new SessionSpec(id, settings, provider, approver, host,
 *     List.of(renderer, reg.subscriber()));
 * // ... SessionManager.Create(spec) -> Created(id, ref, null)
 * handle.attach(id, ref);
 * }</pre>
 */
public final class ServerHandle {
  private static final Duration STOP_DEADLINE = Duration.ofSeconds(3);

  private final ServerBinding binding;
  private final SessionHub hub;
  private final String baseUrl;
  private final String token;
  private final AtomicBoolean stopped = new AtomicBoolean();

  ServerHandle(ServerBinding binding, SessionHub hub, String baseUrl, String token) {
    this.binding = binding;
    this.hub = hub;
    this.baseUrl = baseUrl;
    this.token = token;
  }

  /** The dashboard URL with the token, to print: {@code http://127.0.0.1:8717/?token=...}. */
  public String url() {
    return baseUrl + "/?token=" + token;
  }

  /** {@code http://127.0.0.1:8717}, without a slash or the token. */
  public String baseUrl() {
    return baseUrl;
  }

  public int port() {
    return binding.localAddress().getPort();
  }

  /** The API token (for {@code Authorization: Bearer}); never log it. */
  public String token() {
    return token;
  }

  public SessionHub hub() {
    return hub;
  }

  /**
   * Registers a session about to be created outside the server; put the registration's subscriber (and, to let the
   * browser approve, its approver) into the session's spec before creating it.
   */
  public SessionHub.Registration register(String id, Path dataDir) {
    return hub.register(id, dataDir, true);
  }

  /** Gives the server the actor of a registered session, so the API can message, interrupt and stop it. */
  public void attach(String id, ActorRef<Session.Command> session) {
    hub.attach(id, session);
  }

  /**
   * Stops serving: event streams end, the port is released, open requests get up to 3 s. Sessions are left
   * running (they belong to the actor system). Also done by the actor system's coordinated shutdown.
   */
  public void stop() {
    if (!stopped.compareAndSet(false, true)) {
      return;
    }
    hub.shutdown();
    try {
      binding.terminate(STOP_DEADLINE).toCompletableFuture().get(STOP_DEADLINE.toSeconds() + 2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // the system is going down anyway; the port is released with it
    }
  }
}
