package io.interpreter4j.providers.resilience;

import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.http.CircuitOpenException;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.pekko.NotUsed;
import org.apache.pekko.japi.pf.PFBuilder;
import org.apache.pekko.stream.Graph;
import org.apache.pekko.stream.SourceShape;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Retries an inner provider's retryable failures (429, 5xx, resets, stalls, cut streams) with exponential backoff
 * and jitter, honouring Retry-After, as long as no chunk has gone downstream. After the first chunk the text can't
 * be taken back, so a retryable failure ends the stream with a retryable "stream interrupted after partial output"
 * ModelException for the caller to restart the reply. When the attempts run out, the last failure is passed on
 * as not retryable (its message says how many attempts were made), so callers don't stack retry loops.
 */
public final class ResilientProvider implements RetryAwareProvider {

  /** Start of the message of a retryable failure after partial output. */
  public static final String INTERRUPTED = "stream interrupted after partial output: ";

  private final ModelProvider inner;
  private final ProviderSettings settings;
  private final Backoff backoff;

  public ResilientProvider(ModelProvider inner, ProviderSettings settings) {
    this.inner = inner;
    this.settings = settings;
    this.backoff = settings.backoff(() -> ThreadLocalRandom.current().nextDouble());
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    return streamWithRetries(request, info -> { });
  }

  @Override
  public Source<LlmChunk, NotUsed> streamWithRetries(ModelRequest request, Consumer<RetryInfo> onRetry) {
    return attempt(request, 1, onRetry);
  }

  private Source<LlmChunk, NotUsed> attempt(ModelRequest request, int attempt, Consumer<RetryInfo> onRetry) {
    return Source.fromMaterializer((mat, attributes) -> {
      AtomicBoolean emitted = new AtomicBoolean();
      return inner.stream(request)
          .map(chunk -> {
            emitted.set(true);
            return chunk;
          })
          .recoverWithRetries(1, new PFBuilder<Throwable, Graph<SourceShape<LlmChunk>, NotUsed>>()
              .match(Throwable.class, error -> afterFailure(request, attempt, onRetry, emitted.get(), error))
              .build());
    }).mapMaterializedValue(m -> NotUsed.notUsed());
  }

  private Source<LlmChunk, NotUsed> afterFailure(ModelRequest request, int attempt, Consumer<RetryInfo> onRetry,
                                                 boolean emitted, Throwable error) {
    ModelException failure = error instanceof ModelException me
        ? me
        : new ModelException(inner.name() + " failed: " + error, false);
    if (emitted) {
      return Source.failed(failure.retryable()
          ? new ModelException(INTERRUPTED + failure.getMessage(), true, failure.retryAfter().orElse(null))
          : failure);
    }
    if (!failure.retryable() || failure instanceof CircuitOpenException) {
      return Source.failed(failure);
    }
    if (attempt >= settings.maxAttempts()) {
      return Source.failed(givenUp(failure, attempt, ""));
    }
    Optional<Duration> delay = backoff.delayAtLeast(attempt, failure.retryAfter());
    if (delay.isEmpty()) {
      return Source.failed(givenUp(failure, attempt, "the server asks to wait "
          + failure.retryAfter().map(Duration::toSeconds).orElse(0L) + "s, longer than the "
          + settings.maxBackoff().toSeconds() + "s limit; "));
    }
    onRetry.accept(new RetryInfo(attempt + 1, settings.maxAttempts(), failure.getMessage(), delay.get()));
    return Source.single(NotUsed.notUsed())
        .initialDelay(delay.get())
        .flatMapConcat(n -> attempt(request, attempt + 1, onRetry));
  }

  private static ModelException givenUp(ModelException last, int attempts, String why) {
    return new ModelException(last.getMessage() + " (" + why + "gave up after " + attempts
        + (attempts == 1 ? " attempt)" : " attempts)"), false, last.retryAfter().orElse(null));
  }
}
