package io.interpreter4j.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.cli.BatchEnvironment;
import io.interpreter4j.batch.progress.Progress;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import io.interpreter4j.server.hub.BatchBoard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;

/** What {@code i4j batch} needs from the command line: actor system, models, host facts and the dashboard. */
final class CliBatchEnvironment implements BatchEnvironment {
  private final Map<String, String> env = System.getenv();

  @Override
  public ActorSystem<?> actorSystem(Config config) {
    try {
      SessionLauncher.applyProcessDefaults(config, Settings.from(config, env), env);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    return CliSession.startSystem(withoutEagerSerialization(config));
  }

  /** Pekko's serialization, which its reference.conf has every actor system load as it starts. */
  static final String SERIALIZATION_EXTENSION = "org.apache.pekko.serialization.SerializationExtension$";

  /**
   * {@code config} with Pekko's serialization loaded when first used instead of at start: a batch's actors are all
   * in this JVM and nothing of it is serialized, and building every serializer the jar configures (cluster,
   * sharding, remoting, Jackson with its modules) took 100-200 ms of the batch's start.
   */
  static Config withoutEagerSerialization(Config config) {
    Config full = config.withFallback(ConfigFactory.defaultReference());
    List<String> extensions = new ArrayList<>(full.getStringList("pekko.library-extensions"));
    if (!extensions.remove(SERIALIZATION_EXTENSION)) {
      return config;
    }
    return ConfigFactory.empty().withValue("pekko.library-extensions", ConfigValueFactory.fromIterable(extensions))
        .withFallback(config);
  }

  @Override
  public Optional<String> defaultModel(Settings settings, Config config, ActorSystem<?> system) {
    return settings.model().isBlank()
        ? Optional.of(ModelFactory.resolveModel(settings, config, env, system)) : Optional.empty();
  }

  @Override
  public Function<String, ModelProvider> models(Settings settings, Config config, ActorSystem<?> system) {
    return model -> {
      try {
        return ModelFactory.create(model, settings, config, null, null, env, system);
      } catch (ModelFactory.UsageException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    };
  }

  @Override
  public HostInfo host(Settings settings) {
    return CliSession.host(settings, env);
  }

  /** Serves the dashboard; every task's session shows up there live as it starts. */
  @Override
  @SuppressWarnings("unchecked")
  public Optional<BatchListener> dashboard(ActorSystem<?> system, Settings settings) {
    ServerHandle server = Server.start((ActorSystem<SessionManager.Command>) system,
        ServerConfig.defaults().withToken(ServerConfig.tokenFrom(env)), settings,
        models(settings, null, system), host(settings));
    System.err.println("i4j: dashboard at " + server.url());
    BatchBoard board = server.hub().batches();
    String batchId = SessionIds.next();
    String name = "batch " + batchId;
    return Optional.of(new BatchListener() {
      @Override
      public void onBatchStarted(Progress progress) {
        board.progress(batchId, name, progress.toJson());
      }

      @Override
      public List<Consumer<Event>> subscribersOf(BatchTask task, String sessionId) {
        // registered before the session exists: the dashboard gets its events from the first
        return List.of(server.register(sessionId, settings.dataDir()).subscriber());
      }

      @Override
      public void onTaskStarted(TaskStarted started, Progress progress) {
        server.attach(started.sessionId(), started.session());
        board.task(batchId, started.task().id(), "running", started.sessionId(), null);
        board.progress(batchId, name, progress.toJson());
      }

      @Override
      public void onTaskFinished(TaskResult result, Progress progress) {
        board.task(batchId, result.id(), result.status().wireName(), result.session(), result.error());
        board.progress(batchId, name, progress.toJson());
      }

      @Override
      public void onProgress(Progress progress) {
        board.progress(batchId, name, progress.toJson());
      }
    });
  }
}
