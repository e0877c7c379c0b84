package io.interpreter4j.cli;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.record.RecordingProvider;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorSystem;

/** Turns a model name into a provider; a name it cannot serve is a usage error that says what to do. */
final class ModelFactory {

  static final String HOW_TO_CONFIGURE = """
      no model configured. Choose one of:
        -m replay:examples/hello.json        offline demo with a recorded cassette (no key needed)
        -m openai/gpt-4o-mini                with OPENAI_API_KEY set (or --api-key)
        -m anthropic/claude-sonnet-4-5       with ANTHROPIC_API_KEY set (or --api-key)
        -m ollama/llama3.1                   a local Ollama server (found automatically when running)
        I4J_MODEL=...                        the same, from the environment
        interpreter4j.model = "..."          in $XDG_CONFIG_HOME/interpreter4j/config.conf or --config FILE
      See docs/models.md.""";

  private ModelFactory() {}

  /** The model name to use: the configured one, else one picked from API keys or a local Ollama. */
  static String resolveModel(Settings settings, Config config, Map<String, String> env, ActorSystem<?> system) {
    if (!settings.model().isBlank()) {
      return settings.model();
    }
    return ProviderRegistry.defaultModel(env, system, providerSettings(settings, config))
        .orElseThrow(() -> new UsageException(HOW_TO_CONFIGURE));
  }

  /** A provider for one session; {@code record} wraps it so its replies are written to a cassette. */
  static ModelProvider create(String model, Settings settings, Config config, String apiKey, Path record,
                              Map<String, String> env, ActorSystem<?> system) {
    ModelProvider provider = createPlain(model, settings, config, apiKey, env, system);
    return record == null ? provider : new RecordingProvider(provider, record);
  }

  private static ModelProvider createPlain(String model, Settings settings, Config config, String apiKey,
                                           Map<String, String> env, ActorSystem<?> system) {
    if (model.startsWith("replay:")) {
      Path file = Path.of(model.substring("replay:".length()));
      if (!Files.isRegularFile(file)) {
        throw new UsageException("cassette not found: " + file + " (give -m replay:PATH to an existing JSON file)");
      }
      try {
        return ReplayModelProvider.load(file);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    try {
      return ProviderRegistry.create(model,
          settings.apiBase().isBlank() ? Optional.empty() : Optional.of(settings.apiBase()),
          Optional.ofNullable(apiKey), env, system, providerSettings(settings, config));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static ProviderSettings providerSettings(Settings settings, Config config) {
    return ProviderSettings.fromConfig(config)
        .withRetry(settings.modelAttempts(), settings.minBackoff(), settings.maxBackoff());
  }

  /** A problem with what the user asked for: printed without a stack trace, exit code 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
