package io.interpreter4j.providers;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.image.Vision;
import io.interpreter4j.core.image.VisionSettings;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Turns a model name into a provider for one session: {@code replay:PATH} replays a cassette, any other name goes to
 * {@link ProviderRegistry}. The front doors (the {@code i4j} command, the Java API) share it; a name it cannot serve
 * is an {@link IllegalArgumentException} saying what to give instead.
 */
public final class Models {

  private Models() {}

  /** The configured model, else one picked from API keys or a local Ollama; empty when there is none. */
  public static Optional<String> resolve(Settings settings, Config config, Map<String, String> env,
                                         ActorSystem<?> system) {
    if (!settings.model().isBlank()) {
      return Optional.of(settings.model());
    }
    return ProviderRegistry.defaultModel(env, system, providerSettings(settings, config));
  }

  /** A fresh provider of {@code model} (a replay starts at the cassette's first reply); {@code apiKey} may be null. */
  public static ModelProvider create(String model, Settings settings, Config config, String apiKey,
                                     Map<String, String> env, ActorSystem<?> system) {
    if (model.startsWith("replay:")) {
      Path file = Path.of(model.substring("replay:".length()));
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("cassette not found: " + file
            + " (give -m replay:PATH to an existing JSON file)");
      }
      // The replay model counts as one with vision unless --vision off: expect_images then sees no image.
      return ReplayModelProvider.load(file, replayVision(config));
    }
    return ProviderRegistry.create(model,
        settings.apiBase().isBlank() ? Optional.empty() : Optional.of(settings.apiBase()),
        Optional.ofNullable(apiKey), env, system, providerSettings(settings, config));
  }

  /**
   * The model named by the configuration or the environment alone, without asking a local Ollama (which needs an
   * actor system); empty when only such a probe could name one.
   */
  public static Optional<String> resolveOffline(Settings settings, Map<String, String> env) {
    if (!settings.model().isBlank()) {
      return Optional.of(settings.model());
    }
    return ProviderRegistry.defaultModelFromEnvironment(env);
  }

  /**
   * The {@link ModelProvider#name()} of the provider {@link #create} makes for {@code model}, known before it is made
   * (a chat shows it while its session starts).
   *
   * @throws IllegalArgumentException for a name that {@code create} refuses for the name itself
   */
  public static String name(String model, Settings settings) {
    if (model.startsWith("replay:")) {
      return "replay:" + Path.of(model.substring("replay:".length()));
    }
    return ProviderRegistry.name(model, settings.apiBase().isBlank() ? Optional.empty()
        : Optional.of(settings.apiBase()));
  }

  /** Whether a replay model gets the conversation's images: yes, unless {@code interpreter4j.vision.mode} is off. */
  public static boolean replayVision(Config config) {
    VisionSettings vision = config == null || !config.hasPath("interpreter4j.vision")
        ? VisionSettings.defaults() : VisionSettings.fromConfig(config);
    return vision.mode() != Vision.OFF;
  }

  private static ProviderSettings providerSettings(Settings settings, Config config) {
    return ProviderSettings.fromConfig(config)
        .withRetry(settings.modelAttempts(), settings.minBackoff(), settings.maxBackoff());
  }
}
