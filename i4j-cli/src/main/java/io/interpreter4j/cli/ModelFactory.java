package io.interpreter4j.cli;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.providers.Models;
import io.interpreter4j.providers.record.RecordingProvider;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.nio.file.Path;
import java.util.Map;
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
    return Models.resolve(settings, config, env, system).orElseThrow(() -> new UsageException(HOW_TO_CONFIGURE));
  }

  /** A provider for one session; {@code record} wraps it so its replies are written to a cassette. */
  static ModelProvider create(String model, Settings settings, Config config, String apiKey, Path record,
                              Map<String, String> env, ActorSystem<?> system) {
    ModelProvider provider;
    try {
      provider = Models.create(model, settings, config, apiKey, env, system);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return record == null ? provider : new RecordingProvider(provider, record);
  }

  /** A problem with what the user asked for: printed without a stack trace, exit code 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
