package io.interpreter4j.batch.cli;

import com.typesafe.config.Config;
import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.progress.Terminals;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * What {@link BatchCommand} needs from the program that hosts it: the main CLI supplies real providers,
 * {@link io.interpreter4j.batch.BatchMain} replay cassettes only, tests their own streams. The command calls
 * these once the configuration is loaded, in this order: {@link #actorSystem}, {@link #defaultModel} (only
 * when needed), {@link #models}, {@link #host}.
 */
public interface BatchEnvironment {

  /** A new actor system for this batch, configured from {@code config}; the command terminates it at the end. */
  ActorSystem<?> actorSystem(Config config);

  /**
   * Model spec ({@code replay:PATH}, {@code openai/NAME}, ...) -> a provider for one new session. Called once per
   * task; a spec it cannot serve throws {@link IllegalArgumentException} with a message for the user (that task
   * ends {@code error}).
   */
  Function<String, ModelProvider> models(Settings settings, Config config, ActorSystem<?> system);

  /**
   * The model to use when none is configured and some task names none (the CLI looks for API keys or a local
   * Ollama); empty to say that a model must be given.
   */
  default Optional<String> defaultModel(Settings settings, Config config, ActorSystem<?> system) {
    return Optional.empty();
  }

  /** Host facts for the system prompt (the working directory is replaced by each task's). */
  HostInfo host(Settings settings);

  default Map<String, String> env() {
    return System.getenv();
  }

  /** Where {@code --json} events (or, without it, the summary) go. */
  default PrintStream out() {
    return System.out;
  }

  /** Where progress, problems and (with {@code --json}) the summary go. */
  default PrintStream err() {
    return System.err;
  }

  /** Whether the command handles SIGINT and SIGTERM itself (the CLI: yes; tests in the build's JVM: no). */
  default boolean handleSignals() {
    return true;
  }

  default boolean stderrIsTerminal() {
    return Terminals.stderrIsTerminal(env());
  }

  /** The dashboard's listener for {@code --dashboard}; empty while the web server has no batch view. */
  default Optional<BatchListener> dashboard(ActorSystem<?> system, Settings settings) {
    return Optional.empty();
  }
}
