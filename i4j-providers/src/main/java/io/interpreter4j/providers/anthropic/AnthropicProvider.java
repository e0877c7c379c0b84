package io.interpreter4j.providers.anthropic;

import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.context.ContextWindow;
import io.interpreter4j.providers.context.ContextWindows;
import io.interpreter4j.providers.context.TokenCounter;
import io.interpreter4j.providers.http.Endpoint;
import io.interpreter4j.providers.http.SseModelClient;
import io.interpreter4j.providers.tools.ExecuteTool;
import io.interpreter4j.providers.tools.ToolCallFences;
import io.interpreter4j.providers.tools.ToolCallLedger;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.providers.tools.ToolHistory;
import io.interpreter4j.runtime.intercept.WeakModelRepairs;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.MediaRanges;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.Accept;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.stream.javadsl.Source;

/**
 * A Claude model behind Anthropic's Messages API ({@code POST {base}/messages} with {@code stream: true}).
 * One attempt per stream; wrap it in a {@link io.interpreter4j.providers.resilience.ResilientProvider} for retries.
 */
public final class AnthropicProvider implements ModelProvider {

  public static final String DEFAULT_BASE = "https://api.anthropic.com/v1";
  public static final String API_VERSION = "2023-06-01";

  private final Endpoint endpoint;
  private final String model;
  private final ProviderSettings settings;
  private final SseModelClient client;
  private final boolean toolCalling;
  private final ToolCallLedger ledger = new ToolCallLedger();

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
    this.endpoint = endpoint;
    this.model = model;
    this.settings = settings;
    this.client = new SseModelClient(system, endpoint, settings);
    this.toolCalling = toolCalling;
  }

  /** Whether this provider offers the {@code execute} tool. */
  public boolean toolCalling() {
    return toolCalling;
  }

  @Override
  public String name() {
    return endpoint.provider() + "/" + model;
  }

  /** The model of the request when it names one, else the one this provider was made for. */
  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    String target = request.model() == null || request.model().isBlank() ? model : request.model();
    String body;
    try {
      // The reply's max_tokens is reserved in full: Anthropic counts it against the window.
      List<ChatMessage> messages = ContextWindow.fit(request.messages(),
          ContextWindows.inputBudget(target, settings.contextWindow(), settings.maxTokens()),
          TokenCounter.forModel(target));
      body = toolCalling
          ? AnthropicWire.requestBody(target, settings.maxTokens(),
              ToolHistory.map(ExecuteTool.withSystemNote(messages), ledger.calls()), true)
          : AnthropicWire.requestBody(target, settings.maxTokens(), messages);
    } catch (ModelException unsendable) {
      return Source.failed(unsendable);
    }
    HttpRequest http = HttpRequest.POST(endpoint.baseUrl() + "/messages")
        .withEntity(ContentTypes.APPLICATION_JSON, body.getBytes(StandardCharsets.UTF_8))
        .addHeader(Accept.create(MediaRanges.create(MediaTypes.TEXT_EVENT_STREAM)))
        .addHeader(RawHeader.create("anthropic-version", API_VERSION));
    if (endpoint.apiKey().isPresent()) {
      http = http.addHeader(RawHeader.create("x-api-key", endpoint.apiKey().get()));
    }
    return client.stream(http, target, () -> new AnthropicWire.Decoder(endpoint.baseUrl(),
            toolCalling ? new ToolCallFences(ledger::record, "toolu_") : null))
        .via(WeakModelRepairs.wrappedCode());
  }
}
