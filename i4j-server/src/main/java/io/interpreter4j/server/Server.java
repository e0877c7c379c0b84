package io.interpreter4j.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.http.ApiErrors;
import io.interpreter4j.server.http.ApiPaths;
import io.interpreter4j.server.http.ConnectionWatch;
import io.interpreter4j.server.batch.BatchService;
import io.interpreter4j.server.http.BatchRoutes;
import io.interpreter4j.server.http.DashboardRoutes;
import io.interpreter4j.server.http.EventRoutes;
import io.interpreter4j.server.http.JsonParsingErrorHandler;
import io.interpreter4j.server.http.OpenAiRoutes;
import io.interpreter4j.server.http.OpsRoutes;
import io.interpreter4j.server.http.Security;
import io.interpreter4j.server.http.SessionRoutes;
import io.interpreter4j.server.hub.SessionFactory;
import io.interpreter4j.server.hub.SessionHub;
import io.interpreter4j.server.openai.ServedModels;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code i4j serve}: the HTTP API, the event streams and the dashboard, on Pekko HTTP. Loopback only unless told
 * otherwise; every endpoint but {@code /healthz} needs the token (or the dashboard cookie it buys).
 */
public final class Server extends AllDirectives {
  private static final Logger LOG = LoggerFactory.getLogger(Server.class);
  private static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
  /** The models {@code /v1} serves besides the server's own. */
  static final String SERVED_MODELS = "interpreter4j.server.models";

  private Server() {}

  /**
   * Binds the server and returns once it listens.
   *
   * @param system       the actor system whose guardian is the session manager (sessions are created there)
   * @param config       where to listen and how to guard
   * @param baseSettings the settings each API session starts from (model, workdir, limits, data dir)
   * @param models       a fresh model provider per session, from a model spec ({@code replay:PATH}, ...); throws
   *                     IllegalArgumentException with a helpful message for one it cannot serve
   * @param host         facts about this machine for the system prompt
   * @throws IllegalArgumentException when binding a non-loopback address without {@code allowRemote}, or when
   *                                  {@code interpreter4j.server} holds an empty path
   * @throws IllegalStateException    when the address cannot be bound (port in use, ...)
   */
  public static ServerHandle start(ActorSystem<SessionManager.Command> system, ServerConfig config,
                                   Settings baseSettings, Function<String, ModelProvider> models, HostInfo host) {
    return start(system, config, baseSettings, models, host, (hub, usual) -> usual);
  }

  /**
   * As {@link #start(ActorSystem, ServerConfig, Settings, Function, HostInfo)}, with the routes behind authentication
   * given to {@code around}, which returns those to serve instead (cluster mode puts its own in front: answers for
   * the sessions of other nodes, the whole cluster's list). It is given {@code /api}'s routes and, apart, those of
   * {@code /v1} (behind their own authentication and OpenAI-style errors): it must leave other paths alone.
   */
  public static ServerHandle start(ActorSystem<SessionManager.Command> system, ServerConfig config,
                                   Settings baseSettings, Function<String, ModelProvider> models, HostInfo host,
                                   BiFunction<SessionHub, Route, Route> around) {
    return start(system, config, baseSettings, models, host, around, null);
  }

  /**
   * As above, serving batches ({@code POST /api/batches}, {@code GET /api/batches/{id}}, {@code .../results}) with
   * the service {@code batches} makes from the hub, once; null: this server runs no batches (those requests get 404).
   */
  public static ServerHandle start(ActorSystem<SessionManager.Command> system, ServerConfig config,
                                   Settings baseSettings, Function<String, ModelProvider> models, HostInfo host,
                                   BiFunction<SessionHub, Route, Route> around,
                                   Function<SessionHub, BatchService> batches) {
    if (!Security.isLoopback(config.host())) {
      if (!config.allowRemote()) {
        throw new IllegalArgumentException("binding to " + config.host() + " needs --allow-remote");
      }
      LOG.warn("i4j serve listens on {}: anyone who can reach this address and has the token can run code on "
          + "this machine as {}", config.host(), System.getProperty("user.name"));
    }
    String token = config.token() == null || config.token().isBlank() ? ServerConfig.generateToken() : config.token();
    if (token.length() < 16) {
      LOG.warn("the I4J_TOKEN is short ({} characters); a guessable token lets others run code here",
          token.length());
    }
    ApiPaths paths = ApiPaths.from(system.settings().config(), baseSettings);
    SessionHub hub = new SessionHub(system, config.ringSize(), config.ringBytes(), config.sseFlushInterval());
    Security security = new Security(token, config.host(), config.allowRemote(), config.allowedOrigins(),
        config.maxAuthFailures(), hub.metrics(), Clock.systemUTC());
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    SessionFactory factory = new SessionFactory(system, baseSettings, models, host, hub);
    ServedModels served = new ServedModels(baseSettings.model(),
        system.settings().config().getStringList(SERVED_MODELS));
    BatchService batchService = batches == null ? null : batches.apply(hub);
    Route route = new Server().route(security,
        new OpenAiRoutes(hub, factory, security, served, config.sseBufferSize(), config.keepAlive()),
        new DashboardRoutes(security),
        new SessionRoutes(hub, factory, paths, blocking),
        new EventRoutes(hub, config.sseBufferSize(), config.keepAlive()),
        new OpsRoutes(hub, batchService), batchService == null ? null : new BatchRoutes(batchService),
        usual -> around.apply(hub, usual));

    ServerBinding binding;
    try {
      binding = bind(system, config, route);
    } catch (RuntimeException e) {
      hub.shutdown();
      throw e;
    }
    security.bound(binding.localAddress().getPort());
    String baseUrl = "http://" + Security.hostForUrl(config.host()) + ":" + binding.localAddress().getPort();
    ServerHandle handle = new ServerHandle(binding, hub, baseUrl, token);
    CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseServiceUnbind(), "i4j-server-stop",
        () -> CompletableFuture.supplyAsync(() -> {
          handle.stop();
          return Done.getInstance();
        }, blocking));
    return handle;
  }

  private Route route(Security security, OpenAiRoutes openAi, DashboardRoutes dashboard, SessionRoutes sessions, EventRoutes events,
                      OpsRoutes ops, BatchRoutes batchRoutes, UnaryOperator<Route> around) {
    // made once, here: the directives below may call their inner supplier per request
    Route own = batchRoutes == null ? concat(sessions.routes(), events.routes(), ops.routes())
        : concat(sessions.routes(), events.routes(), batchRoutes.routes(), ops.routes());
    Route behindAuthentication = around.apply(own);
    Route openAiRoutes = openAi.routes(around);
    return security.secureHeaders(() ->
        handleExceptions(ApiErrors.exceptionHandler(LOG), () ->
            handleRejections(ApiErrors.rejectionHandler(), () ->
                security.checkHost(() -> concat(
                    ops.health(),
                    openAiRoutes,
                    dashboard.routes(),
                    security.checkOrigin(() -> security.authenticated(() -> behindAuthentication)))))));
  }

  private static ServerBinding bind(ActorSystem<?> system, ServerConfig config, Route route) {
    // (ServerSettings.withParsingErrorHandler drops its argument in Pekko HTTP 1.3: set it in the config instead)
    Config withHandler = ConfigFactory.parseMap(Map.of(JsonParsingErrorHandler.SETTING,
        JsonParsingErrorHandler.class.getName())).withFallback(system.settings().config());
    ServerSettings settings = ServerSettings.create(withHandler).withRemoteAddressAttribute(true);
    try {
      return Http.get(system).newServerAt(config.host(), config.port()).withSettings(settings)
          .bindFlow(ConnectionWatch.around(route.flow(system)))
          .toCompletableFuture().get(BIND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port() + ": "
          + cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot listen on " + config.host() + ":" + config.port()
          + ": no answer within " + BIND_TIMEOUT.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding " + config.host() + ":" + config.port(), e);
    }
  }
}
