package io.interpreter4j.providers;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.image.VisionSettings;
import io.interpreter4j.providers.tools.ToolCalling;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Typed view of {@code interpreter4j.providers { }} and {@code interpreter4j.vision { }} (see reference.conf for each
 * default), read once.
 * The {@code with*} copies let flags and tests override single values.
 */
public record ProviderSettings(
    int maxAttempts,
    Duration baseBackoff,
    double backoffFactor,
    Duration maxBackoff,
    double jitter,
    Duration stallTimeout,
    Duration connectTimeout,
    int maxConcurrentRequests,
    int maxQueuedRequests,
    int breakerMaxFailures,
    Duration breakerResetTimeout,
    int maxTokens,
    int contextWindow,
    int outputReserve,
    int maxEventSize,
    Duration ollamaProbeTimeout,
    ToolCalling toolCalling,
    VisionSettings vision) {

  public ProviderSettings {
    require(maxAttempts >= 1, "retry.attempts must be at least 1");
    require(!baseBackoff.isNegative(), "retry.base-backoff must not be negative");
    require(backoffFactor >= 1.0, "retry.backoff-factor must be at least 1");
    require(!maxBackoff.isNegative(), "retry.max-backoff must not be negative");
    require(jitter >= 0.0 && jitter <= 1.0, "retry.jitter must be between 0 and 1");
    require(stallTimeout.toMillis() > 0, "stall-timeout must be positive");
    require(connectTimeout.toMillis() > 0, "connect-timeout must be positive");
    require(maxConcurrentRequests >= 1, "endpoint.max-concurrent-requests must be at least 1");
    require(maxQueuedRequests >= 0, "endpoint.max-queued-requests must not be negative");
    require(breakerMaxFailures >= 1, "endpoint.breaker-max-failures must be at least 1");
    require(breakerResetTimeout.toMillis() > 0, "endpoint.breaker-reset-timeout must be positive");
    require(maxTokens >= 1, "max-tokens must be at least 1");
    require(contextWindow >= 0, "context-window must not be negative");
    require(outputReserve >= 0, "output-reserve must not be negative");
    require(maxEventSize >= 1024, "max-event-size must be at least 1024");
    require(ollamaProbeTimeout.toMillis() > 0, "ollama-probe-timeout must be positive");
    require(toolCalling != null, "tool-calling must be on, off or auto");
    if (vision == null) {
      throw new IllegalArgumentException("interpreter4j.vision must be set");
    }
  }

  /** The defaults of this module's reference.conf. */
  public static ProviderSettings defaults() {
    return fromConfig(ConfigFactory.defaultReference());
  }

  /** Reads a config whose {@code interpreter4j.providers} section is complete (reference.conf provides it). */
  public static ProviderSettings fromConfig(Config root) {
    Config c = root.getConfig("interpreter4j.providers");
    return new ProviderSettings(
        c.getInt("retry.attempts"),
        c.getDuration("retry.base-backoff"),
        c.getDouble("retry.backoff-factor"),
        c.getDuration("retry.max-backoff"),
        c.getDouble("retry.jitter"),
        c.getDuration("stall-timeout"),
        c.getDuration("connect-timeout"),
        c.getInt("endpoint.max-concurrent-requests"),
        c.getInt("endpoint.max-queued-requests"),
        c.getInt("endpoint.breaker-max-failures"),
        c.getDuration("endpoint.breaker-reset-timeout"),
        c.getInt("max-tokens"),
        c.getInt("context-window"),
        c.getInt("output-reserve"),
        c.getInt("max-event-size"),
        c.getDuration("ollama-probe-timeout"),
        ToolCalling.parse(c.getString("tool-calling")),
        VisionSettings.fromConfig(root));
  }

  /**
   * The delays between attempts: {@code base-backoff * backoff-factor^(retry-1)}, capped at {@code max-backoff},
   * with {@code jitter} of each drawn by {@code random} (in [0, 1)); see {@link Backoff#delayAtLeast}.
   */
  public Backoff backoff(DoubleSupplier random) {
    return new Backoff(baseBackoff, maxBackoff, backoffFactor, jitter, random);
  }

  /** A copy with other retry bounds (e.g. core's {@code interpreter4j.model-retry}). */
  public ProviderSettings withRetry(int attempts, Duration base, Duration cap) {
    return new ProviderSettings(attempts, base, backoffFactor, cap, jitter, stallTimeout, connectTimeout,
        maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens, contextWindow,
        outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  public ProviderSettings withJitter(double value) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, value, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens,
        contextWindow, outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  public ProviderSettings withStallTimeout(Duration value) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, value, connectTimeout,
        maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens, contextWindow,
        outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  public ProviderSettings withEndpointLimits(int maxConcurrent, int maxQueued) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrent, maxQueued, breakerMaxFailures, breakerResetTimeout, maxTokens, contextWindow,
        outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  public ProviderSettings withBreaker(int maxFailures, Duration resetTimeout) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, maxFailures, resetTimeout, maxTokens, contextWindow,
        outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  /** A copy with a fixed context window in tokens (0 = known from the model's name). */
  public ProviderSettings withContextWindow(int tokens, int reserve) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens,
        tokens, reserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  public ProviderSettings withMaxTokens(int value) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, value,
        contextWindow, outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, vision);
  }

  public ProviderSettings withOllamaProbeTimeout(Duration value) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens,
        contextWindow, outputReserve, maxEventSize, value, toolCalling, vision);
  }

  /** A copy with another tool-calling mode ({@code --tool-calling}). */
  public ProviderSettings withToolCalling(ToolCalling value) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens,
        contextWindow, outputReserve, maxEventSize, ollamaProbeTimeout, value, vision);
  }

  /** A copy with other vision settings ({@code --vision}, {@code interpreter4j.vision}). */
  public ProviderSettings withVision(VisionSettings value) {
    return new ProviderSettings(maxAttempts, baseBackoff, backoffFactor, maxBackoff, jitter, stallTimeout,
        connectTimeout, maxConcurrentRequests, maxQueuedRequests, breakerMaxFailures, breakerResetTimeout, maxTokens,
        contextWindow, outputReserve, maxEventSize, ollamaProbeTimeout, toolCalling, value);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("interpreter4j.providers." + message);
    }
  }
}
