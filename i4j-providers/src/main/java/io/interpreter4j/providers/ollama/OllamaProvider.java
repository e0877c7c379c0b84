package io.interpreter4j.providers.ollama;

import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.SseModelProvider;
import io.interpreter4j.providers.http.Endpoint;
import io.interpreter4j.providers.http.StreamFraming;
import io.interpreter4j.providers.http.WireDecoder;
import io.interpreter4j.providers.tools.ToolCallFences;
import io.interpreter4j.providers.tools.ToolHistory;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Authorization;

/**
 * A model on Ollama spoken to natively ({@code POST {root}/api/chat}, the reply streamed as JSON lines), so that a
 * block's images travel in Ollama's own {@code images} field. Markdown mode only: with tool calling on, the registry
 * speaks to Ollama's OpenAI-compatible {@code /v1} instead. One attempt per stream; the registry wraps it in a
 * {@link io.interpreter4j.providers.resilience.ResilientProvider} for retries.
 */
public final class OllamaProvider extends SseModelProvider {

  /** {@code endpoint}'s base URL is Ollama's root ({@code http://localhost:11434}), without {@code /v1}. */
  public OllamaProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings) {
    super(system, endpoint, model, settings, false, StreamFraming.NDJSON);
  }

  @Override
  protected int outputReserve() {
    return settings().outputReserve();
  }

  @Override
  protected String requestBody(String model, List<ToolHistory.Turn> conversation, boolean tools) {
    return OllamaWire.requestBody(model, conversation, settings().contextWindow());
  }

  @Override
  protected String path() {
    return "/api/chat";
  }

  /** Ollama asks for no key; one given with {@code --api-key} is sent as a bearer token (for a proxy in front). */
  @Override
  protected HttpRequest withHeaders(HttpRequest request, Optional<String> apiKey) {
    return apiKey.isPresent() ? request.addHeader(Authorization.oauth2(apiKey.get())) : request;
  }

  @Override
  protected String toolCallIdPrefix() {
    return "call_";
  }

  @Override
  protected WireDecoder decoder(String source, ToolCallFences fences) {
    return new OllamaWire.Decoder(source);
  }
}
