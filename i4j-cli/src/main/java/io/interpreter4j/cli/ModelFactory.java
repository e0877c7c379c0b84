package io.interpreter4j.cli;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import java.nio.file.Files;
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
        -m ollama/llama3.1                   a local Ollama server
        I4J_MODEL=...                        the same, from the environment
        interpreter4j.model = "..."          in $XDG_CONFIG_HOME/interpreter4j/config.conf or --config FILE
      See docs/models.md.""";

  private ModelFactory() {}

  static ModelProvider create(Settings settings, String apiKey, Map<String, String> env, ActorSystem<?> system) {
    String model = settings.model();
    if (model == null || model.isBlank()) {
      throw new UsageException(HOW_TO_CONFIGURE);
    }
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
    throw new UsageException("unknown model '" + model + "'.\n" + HOW_TO_CONFIGURE);
  }

  /** A problem with what the user asked for: printed without a stack trace, exit code 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
