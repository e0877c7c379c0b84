package io.interpreter4j.providers.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.ndjson.NdjsonParser;
import io.interpreter4j.providers.sse.SseParser;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Turns what went wrong in a call (an HTTP status with its body, or a transport failure) into a
 * {@link ModelException} whose message names the fix and whose {@code retryable} flag says whether trying
 * again can help: 408, 429 (but not an exhausted quota), 5xx, resets and stalls can; 400, 401, 403, 404 can't.
 */
public final class HttpFailures {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_MESSAGE = 500;

  private HttpFailures() {}

  /** The failure of a response with a non-2xx status. */
  public static ModelException fromStatus(Endpoint endpoint, String model, int status, String body,
                                          Optional<Duration> retryAfter) {
    String detail = providerMessage(body);
    String suffix = detail.isEmpty() ? "" : ": " + detail;
    String base = endpoint.baseUrl();
    return switch (status) {
      case 400 -> new ModelException(endpoint.provider() + " rejected the request (400)" + suffix, false);
      case 401 -> new ModelException("the API key was rejected (401): " + endpoint.keyHint(), false);
      case 403 -> new ModelException("access denied (403)" + suffix + "; check that your key may use model '"
          + model + "'", false);
      case 404 -> new ModelException("model '" + model + "' not found at " + base + " (404): check the model name"
          + (endpoint.provider().equals("ollama") ? " (ollama pull " + model + ") and OLLAMA_HOST or" : " and")
          + " --api-base"
          + (detail.isEmpty() ? "" : " (" + detail + ")"), false);
      case 408 -> new ModelException(base + " timed out the request (408)" + suffix, true, retryAfter.orElse(null));
      case 413 -> new ModelException("the request is too large for " + base + " (413)" + suffix, false);
      case 429 -> quotaExhausted(body)
          ? new ModelException("the account's quota is exhausted (429)" + suffix + "; check your plan and billing",
              false)
          : new ModelException("rate limited by " + base + " (429)" + suffix, true, retryAfter.orElse(null));
      default -> status >= 500
          ? new ModelException(base + " answered " + status + suffix, true, retryAfter.orElse(null))
          : new ModelException(base + " answered " + status + suffix, false);
    };
  }

  /** Whether a status should count against the endpoint's circuit breaker (the server, not the request, is at fault). */
  public static boolean isServerFault(int status) {
    return status >= 500;
  }

  /** A transport failure (connect, reset, stall, broken stream) or anything else thrown while calling. */
  public static ModelException fromThrowable(Endpoint endpoint, Throwable error, Duration stallTimeout) {
    Throwable t = unwrap(error);
    String base = endpoint.baseUrl();
    if (t instanceof ModelException me) {
      return me;
    }
    if (t instanceof TimeoutException) {
      return new ModelException(base + " sent nothing for " + seconds(stallTimeout)
          + "; the stalled call was aborted", true);
    }
    if (hasCause(t, ConnectException.class) || t.getMessage() != null && t.getMessage().contains("Connection refused")) {
      return new ModelException("could not connect to " + base + ": is the server running? (" + t.getMessage() + ")",
          true);
    }
    if (t instanceof SseParser.SseException) {
      return new ModelException("malformed event stream from " + base + ": " + t.getMessage(), false);
    }
    if (t instanceof NdjsonParser.NdjsonException) {
      return new ModelException("malformed JSON lines from " + base + ": " + t.getMessage(), false);
    }
    if (t instanceof IOException || t.getClass().getName().startsWith("org.apache.pekko.")) {
      return new ModelException("the connection to " + base + " failed: " + t.getMessage(), true);
    }
    return new ModelException("calling " + base + " failed: " + t, false);
  }

  /** Whether a failure is the transport's (counts against the circuit breaker). */
  public static boolean isTransportFault(Throwable error) {
    Throwable t = unwrap(error);
    return !(t instanceof ModelException) && !(t instanceof SseParser.SseException)
        && !(t instanceof NdjsonParser.NdjsonException);
  }

  /** The provider's own explanation in an error body ({@code error.message}, as OpenAI and Anthropic send it). */
  public static String providerMessage(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    try {
      JsonNode root = JSON.readTree(body);
      JsonNode error = root.path("error");
      String message = error.isTextual() ? error.asText() : error.path("message").asText("");
      if (message.isEmpty()) {
        message = root.path("message").asText("");
      }
      if (!message.isEmpty()) {
        return clip(message);
      }
    } catch (IOException notJson) {
      // fall through: show the raw text
    }
    return clip(body.strip());
  }

  private static boolean quotaExhausted(String body) {
    String b = body == null ? "" : body.toLowerCase(Locale.ROOT);
    return b.contains("insufficient_quota");
  }

  private static String clip(String s) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() <= MAX_MESSAGE ? one : one.substring(0, MAX_MESSAGE) + "...";
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  private static Throwable unwrap(Throwable t) {
    Throwable cur = t;
    while ((cur instanceof java.util.concurrent.CompletionException
        || cur instanceof java.util.concurrent.ExecutionException) && cur.getCause() != null) {
      cur = cur.getCause();
    }
    return cur;
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }
}
