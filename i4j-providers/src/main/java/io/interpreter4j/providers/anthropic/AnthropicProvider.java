package io.interpreter4j.providers.anthropic;

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
import io.interpreter4j.providers.tools.ComputerTool;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * A Claude model behind Anthropic's Messages API ({@code POST {base}/messages} with {@code stream: true}).
 * One attempt per stream; wrap it in a {@link io.interpreter4j.providers.resilience.ResilientProvider} for retries.
 */
public final class AnthropicProvider extends SseModelProvider {

  public static final String DEFAULT_BASE = "https://api.anthropic.com/v1";
  public static final String API_VERSION = "2023-06-01";

  /** Tool calling as {@code settings} say, where AUTO means off (the registry decides AUTO by provider). */
  public AnthropicProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings) {
    this(system, endpoint, model, settings, settings.toolCalling() == ToolCalling.ON);
  }

  /**
   * @param toolCalling offer the {@code execute} tool and turn its calls into code blocks; else code comes as
   *     markdown fences only
   */
  public AnthropicProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings,
                           boolean toolCalling) {
    super(system, endpoint, model, settings, toolCalling);
  }

  /** The reply's max_tokens is reserved in full: Anthropic counts it against the window. */
  @Override
  protected int outputReserve() {
    return settings().maxTokens();
  }

  @Override
  protected String requestBody(String model, List<ToolHistory.Turn> conversation, boolean tools) {
    return AnthropicWire.requestBody(model, settings().maxTokens(), conversation, tools);
  }

  @Override
  protected String path() {
    return "/messages";
  }

  @Override
  protected HttpRequest withHeaders(HttpRequest request, Optional<String> apiKey) {
    HttpRequest http = request.addHeader(RawHeader.create("anthropic-version", API_VERSION));
    if (toolCalling() && ComputerTool.active()) {
      http = http.addHeader(RawHeader.create("anthropic-beta", ComputerTool.ANTHROPIC_BETA));
    }
    if (apiKey.isPresent()) {
      http = http.addHeader(RawHeader.create("x-api-key", apiKey.get()));
    }
    return http;
  }

  @Override
  protected boolean nativeComputerTool() {
    return true;
  }

  @Override
  protected String toolCallIdPrefix() {
    return "toolu_";
  }

  @Override
  protected WireDecoder decoder(String source, ToolCallFences fences) {
    return new AnthropicWire.Decoder(source, fences);
  }
}
