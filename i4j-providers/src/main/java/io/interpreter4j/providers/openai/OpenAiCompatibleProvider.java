package io.interpreter4j.providers.openai;

import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.SseModelProvider;
import io.interpreter4j.providers.http.Endpoint;
import io.interpreter4j.providers.http.WireDecoder;
import io.interpreter4j.providers.tools.ToolCallFences;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.providers.tools.ToolHistory;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Authorization;

/**
 * A model behind a Chat Completions API ({@code POST {base}/chat/completions} with {@code stream: true}):
 * OpenAI itself, or any server that speaks its dialect. One attempt per stream; wrap it in a
 * {@link io.interpreter4j.providers.resilience.ResilientProvider} for retries ({@code ProviderRegistry} does).
 */
public final class OpenAiCompatibleProvider extends SseModelProvider {

  public static final String DEFAULT_BASE = "https://api.openai.com/v1";

  /** Tool calling as {@code settings} say, where AUTO means off (the registry decides AUTO by provider). */
  public OpenAiCompatibleProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings) {
    this(system, endpoint, model, settings, settings.toolCalling() == ToolCalling.ON);
  }

  /**
   * @param toolCalling offer the {@code execute} tool and turn its calls into code blocks; else code comes as
   *     markdown fences only
   */
  public OpenAiCompatibleProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings,
                                  boolean toolCalling) {
    super(system, endpoint, model, settings, toolCalling);
  }

  @Override
  protected int outputReserve() {
    return settings().outputReserve();
  }

  @Override
  protected String requestBody(String model, List<ToolHistory.Turn> conversation, boolean tools) {
    return OpenAiWire.requestBody(model, conversation, tools);
  }

  @Override
  protected String path() {
    return "/chat/completions";
  }

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
    return new OpenAiWire.Decoder(source, fences);
  }
}
