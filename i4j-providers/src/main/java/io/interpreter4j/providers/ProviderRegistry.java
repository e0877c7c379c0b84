package io.interpreter4j.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.providers.anthropic.AnthropicProvider;
import io.interpreter4j.providers.http.Endpoint;
import io.interpreter4j.providers.ollama.OllamaProvider;
import io.interpreter4j.providers.openai.OpenAiCompatibleProvider;
import io.interpreter4j.providers.resilience.ResilientProvider;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.settings.ClientConnectionSettings;
import org.apache.pekko.http.javadsl.settings.ConnectionPoolSettings;

/**
 * Turns a model spec such as {@code openai/gpt-4o}, {@code anthropic/claude-sonnet-4-5} or {@code ollama/llama3.1}
 * into a provider: the preset gives the wire format, base URL and key variable; {@code --api-base} and
 * {@code --api-key} override them. Also picks a default model when none is given.
 */
public final class ProviderRegistry {

  /** Wire formats. {@code OLLAMA_CHAT} falls back to {@code OPENAI_CHAT} at {@code /v1} (see {@link #create}). */
  public enum Api { OPENAI_CHAT, ANTHROPIC_MESSAGES, OLLAMA_CHAT }

  /**
   * A known provider prefix. {@code keyVariable} is read from the environment ("" = none); the key is required
   * only when {@code keyRequired} and the base URL is the preset's own (a custom --api-base may not need one).
   */
  public record Preset(String prefix, Api api, String defaultBase, String keyVariable, boolean keyRequired,
                       String defaultModel) {}

  public static final List<Preset> PRESETS = List.of(
      new Preset("openai", Api.OPENAI_CHAT, OpenAiCompatibleProvider.DEFAULT_BASE, "OPENAI_API_KEY", true,
          "gpt-4o-mini"),
      new Preset("anthropic", Api.ANTHROPIC_MESSAGES, AnthropicProvider.DEFAULT_BASE, "ANTHROPIC_API_KEY", true,
          "claude-sonnet-4-5"),
      new Preset("ollama", Api.OLLAMA_CHAT, "http://localhost:11434", "", false, ""),
      new Preset("lmstudio", Api.OPENAI_CHAT, "http://localhost:1234/v1", "", false, ""),
      new Preset("vllm", Api.OPENAI_CHAT, "http://localhost:8000/v1", "VLLM_API_KEY", false, ""),
      new Preset("llamacpp", Api.OPENAI_CHAT, "http://localhost:8080/v1", "LLAMA_API_KEY", false, ""),
      new Preset("openrouter", Api.OPENAI_CHAT, "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", true,
          "openai/gpt-4o-mini"),
      new Preset("groq", Api.OPENAI_CHAT, "https://api.groq.com/openai/v1", "GROQ_API_KEY", true,
          "llama-3.3-70b-versatile"));

  /** Presets whose models call tools reliably: tool calling is on for them under AUTO. */
  public static final Set<String> TOOL_CALLING_PRESETS = Set.of("openai", "anthropic", "openrouter", "groq");

  private static final String OLLAMA_DEFAULT_ROOT = "http://localhost:11434";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ProviderRegistry() {}

  /**
   * The provider for {@code modelSpec} ({@code prefix/model}; a bare {@code claude-*}, {@code gpt-*} or
   * {@code o1..o9} name gets its vendor's prefix, and any bare name with {@code apiBase} is served OpenAI-style).
   *
   * <p>An {@code ollama/} model is spoken to natively at {@code OLLAMA_HOST}'s {@code /api/chat} (images travel in
   * its {@code images} field), except with tool calling on or with {@code apiBase}: then at the OpenAI-compatible
   * {@code /v1} (OLLAMA_HOST's, or {@code apiBase} itself, an OpenAI-compatible base URL as for every preset), whose
   * tool calls carry the ids the conversation's tool history is keyed by.
   *
   * @throws IllegalArgumentException for an unknown prefix (the message lists the known ones), a missing model
   *     name, or a missing API key (the message names the variable to export)
   */
  public static ResilientProvider create(String modelSpec, Optional<String> apiBase, Optional<String> apiKey,
                                         Map<String, String> env, ActorSystem<?> system, ProviderSettings settings) {
    Optional<String> base = apiBase.map(String::strip).filter(b -> !b.isEmpty());
    Target target = target(modelSpec, base);
    Preset preset = target.preset();
    String model = target.model();
    String presetBase = preset.api() == Api.OLLAMA_CHAT ? ollamaRoot(env) + "/v1" : preset.defaultBase();
    String baseUrl = base.orElse(presetBase);
    Optional<String> key = apiKey.map(String::strip).filter(k -> !k.isEmpty())
        .or(() -> preset.keyVariable().isEmpty()
            ? Optional.empty()
            : Optional.ofNullable(env.get(preset.keyVariable())).map(String::strip).filter(k -> !k.isEmpty()));
    if (key.isEmpty() && preset.keyRequired() && base.isEmpty()) {
      throw new IllegalArgumentException(preset.keyVariable() + " is not set: export it or pass --api-key");
    }
    Endpoint endpoint = new Endpoint(preset.prefix(), baseUrl, key, preset.keyVariable());
    boolean tools = toolCalling(settings.toolCalling(), preset, target.named() || vendorModel(model));
    ModelProvider inner = switch (preset.api()) {
      case ANTHROPIC_MESSAGES -> new AnthropicProvider(system, endpoint, model, settings, tools);
      case OLLAMA_CHAT -> base.isEmpty() && !tools
          ? new OllamaProvider(system, new Endpoint(preset.prefix(), ollamaRoot(env), key, ""), model, settings)
          : new OpenAiCompatibleProvider(system, endpoint, model, settings, tools);
      case OPENAI_CHAT -> new OpenAiCompatibleProvider(system, endpoint, model, settings, tools);
    };
    return new ResilientProvider(inner, settings);
  }

  /**
   * The {@link ModelProvider#name()} that {@link #create} gives the provider of {@code modelSpec}, known without
   * creating it (no actor system, no key needed): the preset's prefix, a slash and the model.
   *
   * @throws IllegalArgumentException for the specs {@code create} refuses for their name (unknown prefix, no model)
   */
  public static String name(String modelSpec, Optional<String> apiBase) {
    Target target = target(modelSpec, apiBase.map(String::strip).filter(b -> !b.isEmpty()));
    return target.preset().prefix() + "/" + target.model();
  }

  /** A spec taken apart: its preset, the model's own name, and whether the preset was named by a prefix. */
  private record Target(Preset preset, String model, boolean named) {}

  private static Target target(String modelSpec, Optional<String> base) {
    String spec = modelSpec == null ? "" : modelSpec.strip();
    if (spec.isEmpty()) {
      throw new IllegalArgumentException("no model given: pass -m/--model, e.g. -m openai/gpt-4o-mini (see docs/models.md)");
    }
    Preset preset;
    String model;
    int slash = spec.indexOf('/');
    Optional<Preset> byPrefix = slash > 0 ? preset(spec.substring(0, slash)) : Optional.empty();
    if (byPrefix.isPresent()) {
      preset = byPrefix.get();
      model = spec.substring(slash + 1).strip();
    } else {
      preset = inferPreset(spec, base).orElseThrow(() -> new IllegalArgumentException(slash > 0
          ? "unknown provider '" + spec.substring(0, slash) + "' in model '" + spec + "': known providers are "
              + knownPrefixes() + " (e.g. openrouter/" + spec + ")"
          : "model '" + spec + "' names no provider: write provider/model with one of " + knownPrefixes()
              + ", or pass --api-base for an OpenAI-compatible server"));
      model = spec;
    }
    if (model.isEmpty()) {
      throw new IllegalArgumentException("no model name after '" + preset.prefix() + "/' in '" + spec + "'"
          + (preset.defaultModel().isEmpty() ? "" : ", e.g. " + preset.prefix() + "/" + preset.defaultModel()));
    }
    return new Target(preset, model, byPrefix.isPresent());
  }

  /**
   * The model to use when none is given on the command line: {@code I4J_MODEL}; else the default model of the
   * first provider whose key is in the environment (OpenAI, Anthropic, OpenRouter, Groq); else the first model
   * of an Ollama answering at {@code OLLAMA_HOST} (default localhost:11434) within the probe timeout; else empty.
   * Blocks at most about {@code settings.ollamaProbeTimeout()}.
   */
  public static Optional<String> defaultModel(Map<String, String> env, ActorSystem<?> system,
                                              ProviderSettings settings) {
    return defaultModelFromEnvironment(env).or(() -> firstOllamaModel(ollamaRoot(env), system, settings.ollamaProbeTimeout()).map(m -> "ollama/" + m));
  }

  /**
   * The part of {@link #defaultModel} that asks no server: {@code I4J_MODEL}, else the default model of the first
   * provider whose key is in the environment; empty when only a local Ollama could name one.
   */
  public static Optional<String> defaultModelFromEnvironment(Map<String, String> env) {
    String configured = env.getOrDefault("I4J_MODEL", "").strip();
    if (!configured.isEmpty()) {
      return Optional.of(configured);
    }
    for (Preset p : PRESETS) {
      if (p.keyRequired() && !env.getOrDefault(p.keyVariable(), "").isBlank() && !p.defaultModel().isEmpty()) {
        return Optional.of(p.prefix() + "/" + p.defaultModel());
      }
    }
    return Optional.empty();
  }

  /**
   * Whether a provider offers the {@code execute} tool: as set, or for AUTO, when it is a hosted API whose models
   * call tools reliably. {@code named} says the preset was named (a prefix, or a vendor's model name) rather than
   * assumed for an unknown model behind {@code --api-base}, which is most likely a local server.
   */
  public static boolean toolCalling(ToolCalling setting, Preset preset, boolean named) {
    return switch (setting) {
      case ON -> true;
      case OFF -> false;
      case AUTO -> named && TOOL_CALLING_PRESETS.contains(preset.prefix());
    };
  }

  /** "openai/, anthropic/, ollama/, ..." */
  public static String knownPrefixes() {
    return PRESETS.stream().map(p -> p.prefix() + "/").collect(Collectors.joining(", "));
  }

  public static Optional<Preset> preset(String prefix) {
    String p = prefix.strip().toLowerCase(Locale.ROOT);
    return PRESETS.stream().filter(x -> x.prefix().equals(p)).findFirst();
  }

  /** Ollama's root URL from {@code OLLAMA_HOST} ({@code host}, {@code host:port} or a URL), as Ollama reads it. */
  public static String ollamaRoot(Map<String, String> env) {
    String v = env.getOrDefault("OLLAMA_HOST", "").strip();
    if (v.isEmpty()) {
      return OLLAMA_DEFAULT_ROOT;
    }
    String withScheme = v.contains("://") ? v : "http://" + v;
    try {
      URI uri = new URI(withScheme);
      String host = uri.getHost();
      if (host == null || host.isEmpty() || host.equals("0.0.0.0") || host.equals("[::]") || host.equals("::")) {
        host = "localhost";
      }
      int port = uri.getPort() > 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 11434;
      return uri.getScheme() + "://" + host + ":" + port;
    } catch (URISyntaxException e) {
      return OLLAMA_DEFAULT_ROOT;
    }
  }

  /** A model name that says whose it is: {@code claude-*}, {@code gpt-*}, {@code chatgpt-*}, {@code o1}..{@code o9}. */
  private static boolean vendorModel(String model) {
    String m = model.toLowerCase(Locale.ROOT);
    return m.startsWith("claude") || m.startsWith("gpt-") || m.startsWith("chatgpt") || m.matches("o[1-9]([-.].*)?");
  }

  private static Optional<Preset> inferPreset(String model, Optional<String> base) {
    String m = model.toLowerCase(Locale.ROOT);
    if (m.contains("/")) {
      return base.isPresent() ? preset("openai") : Optional.empty();
    }
    if (m.startsWith("claude")) {
      return preset("anthropic");
    }
    if (m.startsWith("gpt-") || m.startsWith("chatgpt") || m.matches("o[1-9]([-.].*)?") || base.isPresent()) {
      return preset("openai");
    }
    return Optional.empty();
  }

  /** {@code GET /api/tags}: the first model that isn't an embedding model, or empty if none answers in time. */
  static Optional<String> firstOllamaModel(String root, ActorSystem<?> system, Duration timeout) {
    Http http = Http.get(system);
    ConnectionPoolSettings pool = ConnectionPoolSettings.create(system.classicSystem())
        .withMaxRetries(0)
        .withConnectionSettings(ClientConnectionSettings.create(system.classicSystem()).withConnectingTimeout(timeout));
    try {
      String body = http.singleRequest(HttpRequest.GET(root + "/api/tags"), http.defaultClientHttpsContext(), pool,
              system.classicSystem().log())
          .thenCompose(r -> r.entity().toStrict(timeout.toMillis(), 1024 * 1024, system)
              .thenApply(strict -> r.status().isSuccess() ? strict.getData().decodeString(StandardCharsets.UTF_8) : ""))
          .toCompletableFuture()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      for (JsonNode m : JSON.readTree(body).path("models")) {
        String name = m.path("name").asText(m.path("model").asText(""));
        if (!name.isEmpty() && !name.toLowerCase(Locale.ROOT).contains("embed")) {
          return Optional.of(name);
        }
      }
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (Exception noOllama) {
      return Optional.empty();
    }
  }
}
