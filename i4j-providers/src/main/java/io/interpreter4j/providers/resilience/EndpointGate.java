package io.interpreter4j.providers.resilience;

import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.http.CircuitOpenException;
import io.interpreter4j.providers.http.Endpoint;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;
import org.apache.pekko.pattern.CircuitBreaker;
import org.apache.pekko.pattern.CircuitBreakerOpenException;
import org.apache.pekko.stream.javadsl.Source;

/**
 * What all sessions share about one endpoint (base URL): a limit on calls in flight, whose excess waits its turn,
 * and a circuit breaker that fails calls fast after repeated server or transport failures. One gate per base URL
 * and actor system, kept by the {@link Gates} extension; the settings of the first provider for a URL win.
 */
public final class EndpointGate {

  private final String baseUrl;
  private final int maxFailures;
  private final PermitPool permits;
  private final CircuitBreaker breaker;

  /** The gate of an endpoint, created on first use. */
  public static EndpointGate forEndpoint(ActorSystem<?> system, String baseUrl, ProviderSettings settings) {
    return Gates.ID.apply(system).gateFor(Endpoint.trimSlash(baseUrl), settings);
  }

  private EndpointGate(ActorSystem<?> system, String baseUrl, ProviderSettings settings) {
    this.baseUrl = baseUrl;
    this.maxFailures = settings.breakerMaxFailures();
    this.permits = new PermitPool(baseUrl, settings.maxConcurrentRequests(), settings.maxQueuedRequests());
    // callTimeout = stall timeout: a server that sends no response headers for that long has stalled.
    this.breaker = CircuitBreaker.create(system.classicSystem().scheduler(), settings.breakerMaxFailures(),
        settings.stallTimeout(), settings.breakerResetTimeout());
  }

  public String baseUrl() {
    return baseUrl;
  }

  /**
   * Runs {@code body} (materialised afresh each time) once a permit is free; the permit returns to the pool when
   * the stream completes, fails or is cancelled, including while it still waits for its turn.
   */
  public <T> Source<T, NotUsed> withPermit(Supplier<Source<T, NotUsed>> body) {
    return Source.fromMaterializer((mat, attributes) -> {
      CompletableFuture<PermitPool.Permit> turn = permits.acquire();
      return Source.completionStage(turn)
          .flatMapConcat(permit -> body.get())
          .watchTermination((notUsed, done) -> {
            done.whenComplete((d, e) -> permits.giveUp(turn));
            return NotUsed.notUsed();
          });
    }).mapMaterializedValue(m -> NotUsed.notUsed());
  }

  /**
   * Calls through the circuit breaker. {@code isFailure} decides whether a completed call counts as a failure;
   * a call slower than the stall timeout counts and fails with a {@code TimeoutException}; an open breaker fails
   * at once with {@link CircuitOpenException} without calling {@code body}.
   */
  public <T> CompletionStage<T> call(Callable<CompletionStage<T>> body,
                                     BiFunction<Optional<T>, Optional<Throwable>, Boolean> isFailure) {
    return breaker.callWithCircuitBreakerCS(body, isFailure).handle((value, error) -> {
      if (error == null) {
        return value;
      }
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      if (cause instanceof CircuitBreakerOpenException open) {
        throw new CompletionException(
            new CircuitOpenException(baseUrl, maxFailures, Duration.ofNanos(open.remainingDuration().toNanos())));
      }
      throw cause instanceof CompletionException ce ? ce : new CompletionException(cause);
    });
  }

  /** Counts a failure seen after the call's headers arrived (a reset or stall mid-stream). */
  public void recordFailure() {
    breaker.fail();
  }

  public boolean isOpen() {
    return breaker.isOpen();
  }

  public int inFlight() {
    return permits.inUse();
  }

  public int waiting() {
    return permits.waiting();
  }

  /** The actor system's registry of gates, keyed by base URL. */
  public static final class Gates implements Extension {
    static final ExtensionId<Gates> ID = new ExtensionId<>() {
      @Override
      public Gates createExtension(ActorSystem<?> system) {
        return new Gates(system);
      }
    };

    private final ActorSystem<?> system;
    private final ConcurrentMap<String, EndpointGate> gates = new ConcurrentHashMap<>();

    private Gates(ActorSystem<?> system) {
      this.system = system;
    }

    EndpointGate gateFor(String baseUrl, ProviderSettings settings) {
      return gates.computeIfAbsent(baseUrl, url -> new EndpointGate(system, url, settings));
    }
  }
}
