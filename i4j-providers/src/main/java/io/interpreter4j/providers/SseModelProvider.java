package io.interpreter4j.providers;

import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.context.ContextWindow;
import io.interpreter4j.providers.context.ContextWindows;
import io.interpreter4j.providers.context.TokenCounter;
import io.interpreter4j.providers.http.Endpoint;
import io.interpreter4j.providers.http.SseModelClient;
import io.interpreter4j.providers.http.StreamFraming;
import io.interpreter4j.providers.http.WireDecoder;
import io.interpreter4j.providers.tools.ExecuteCall;
import io.interpreter4j.providers.tools.ExecuteTool;
import io.interpreter4j.providers.tools.ToolCallFences;
import io.interpreter4j.providers.tools.ToolCallLedger;
import io.interpreter4j.providers.tools.ToolHistory;
import io.interpreter4j.runtime.intercept.WeakModelRepairs;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.japi.pf.PFBuilder;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.stream.javadsl.Source;

/**
 * A model behind an HTTP API that streams its reply, as server-sent events or (Ollama) JSON lines. This class leaves
 * the conversation's images out for a model without vision, fits the conversation to the context window, offers the
 * {@code execute} tool when asked to, POSTs the request and repairs what weak models write; a subclass says only where
 * its API lives and how it is spoken. One attempt per stream; a stream that stops before the reply's natural end
 * fails (retryably), and the tool calls it made are taken back.
 */
public abstract class SseModelProvider implements ModelProvider {

  private final ActorSystem<?> system;
  private final Endpoint endpoint;
  private final String model;
  private final ProviderSettings settings;
  private final SseModelClient client;
  private final boolean toolCalling;
  private final boolean vision;
  private final StreamFraming framing;
  private final ToolCallLedger ledger = new ToolCallLedger();

  /**
   * @param toolCalling offer the {@code execute} tool and turn its calls into code blocks; else code comes as
   *     markdown fences only
   */
  protected SseModelProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings,
                             boolean toolCalling) {
    this(system, endpoint, model, settings, toolCalling, StreamFraming.SSE);
  }

  /** As above, for an API whose reply is cut into payloads by {@code framing}. */
  protected SseModelProvider(ActorSystem<?> system, Endpoint endpoint, String model, ProviderSettings settings,
                             boolean toolCalling, StreamFraming framing) {
    this.system = system;
    this.endpoint = endpoint;
    this.model = model;
    this.settings = settings;
    this.framing = framing;
    this.client = new SseModelClient(system, endpoint, settings, framing);
    this.toolCalling = toolCalling;
    this.vision = settings.vision().enabledFor(model);
  }

  /** Whether this provider sends the conversation's images ({@code --vision}, the model's name). */
  public boolean vision() {
    return vision;
  }

  /** The settings this provider was made with. */
  protected ProviderSettings settings() {
    return settings;
  }

  /** Whether this provider offers the {@code execute} tool. */
  public boolean toolCalling() {
    return toolCalling;
  }

  @Override
  public String name() {
    return endpoint.provider() + "/" + model;
  }

  /**
   * The model of the request when it names one, else the one this provider was made for. A conversation with images
   * to send has its body built on the blocking dispatcher (each image is read, maybe scaled, and encoded), not on the
   * caller's thread.
   */
  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    String target = request.model() == null || request.model().isBlank() ? model : request.model();
    List<ToolHistory.Turn> turns;
    boolean withImages;
    try {
      boolean images = target.equals(model) ? vision : settings.vision().enabledFor(target);
      List<ChatMessage> messages = ContextWindow.fit(
          images ? request.messages() : ChatMessage.withoutImages(request.messages()),
          ContextWindows.inputBudget(target, settings.contextWindow(), outputReserve()),
          TokenCounter.forModel(target));
      withImages = messages.stream().anyMatch(m -> !m.images().isEmpty());
      turns = toolCalling
          ? ToolHistory.map(ExecuteTool.withSystemNote(messages), ledger.calls())
          : ToolHistory.plain(messages);
    } catch (ModelException unsendable) {
      return Source.failed(unsendable);
    }
    if (!withImages) {
      try {
        return send(target, requestBody(target, turns, toolCalling));
      } catch (ModelException unsendable) {
        return Source.failed(unsendable);
      }
    }
    return Source.completionStage(CompletableFuture.supplyAsync(() -> requestBody(target, turns, toolCalling),
            system.dispatchers().lookup(DispatcherSelector.blocking())))
        .mapError(new PFBuilder<Throwable, Throwable>()
            .match(CompletionException.class, e -> e.getCause() == null ? e : e.getCause()).build())
        .flatMapConcat(body -> send(target, body))
        .mapMaterializedValue(m -> NotUsed.notUsed());
  }

  /** POSTs {@code body} and streams the reply. */
  private Source<LlmChunk, NotUsed> send(String target, String body) {
    HttpRequest http = withHeaders(HttpRequest.POST(endpoint.baseUrl() + path())
        .withEntity(ContentTypes.APPLICATION_JSON, body.getBytes(StandardCharsets.UTF_8))
        .addHeader(framing.accept()), endpoint.apiKey());
    return Source.fromMaterializer((mat, attributes) -> {
      List<ExecuteCall> made = new CopyOnWriteArrayList<>();
      return client.stream(http, target, () -> decoder(endpoint.baseUrl(), toolCalling ? new ToolCallFences(call -> {
            made.add(call);
            ledger.record(call);
          }, toolCallIdPrefix(), nativeComputerTool()) : null))
          .watchTermination((notUsed, done) -> {
            done.whenComplete((d, failure) -> {
              if (failure != null) {
                ledger.forget(made);
              }
            });
            return notUsed;
          });
    }).mapMaterializedValue(m -> NotUsed.notUsed()).via(WeakModelRepairs.wrappedCode());
  }

  /** The tokens of the window kept free for the reply. */
  protected abstract int outputReserve();

  /** The request body for {@code model}; with {@code tools}, the {@code execute} tool offered. */
  protected abstract String requestBody(String model, List<ToolHistory.Turn> conversation, boolean tools);

  /** Where the request goes, after the base URL: {@code /messages}. */
  protected abstract String path();

  /** The request with the API's own headers (its version, the key) added. */
  protected abstract HttpRequest withHeaders(HttpRequest request, Optional<String> apiKey);

  /** How the API's tool call ids begin. */
  protected abstract String toolCallIdPrefix();

  /** Whether the API offers its own computer tool (Anthropic's), whose model needs no grid on screenshots. */
  protected boolean nativeComputerTool() {
    return false;
  }

  /** A decoder of one response; {@code fences} is null in markdown mode. */
  protected abstract WireDecoder decoder(String source, ToolCallFences fences);
}
