package io.interpreter4j.cli.chat;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * List prices of common hosted models in US dollars per million tokens, for the estimate {@code %tokens} shows.
 * Prices change; these are the providers' published list prices as of 2025 and ignore caching and batch
 * discounts. Local models (Ollama, llama.cpp) cost nothing here.
 */
public final class ModelPrices {

  /** Dollars per million input and output tokens. */
  public record Price(String model, double inputPerMillion, double outputPerMillion) {
    public double cost(long inputTokens, long outputTokens) {
      return inputTokens * inputPerMillion / 1e6 + outputTokens * outputPerMillion / 1e6;
    }
  }

  // First match wins: more specific prefixes first.
  private static final List<Price> PRICES = List.of(
      new Price("gpt-4o-mini", 0.15, 0.60),
      new Price("gpt-4o", 2.50, 10.00),
      new Price("gpt-4.1-nano", 0.10, 0.40),
      new Price("gpt-4.1-mini", 0.40, 1.60),
      new Price("gpt-4.1", 2.00, 8.00),
      new Price("gpt-5-nano", 0.05, 0.40),
      new Price("gpt-5-mini", 0.25, 2.00),
      new Price("gpt-5", 1.25, 10.00),
      new Price("o4-mini", 1.10, 4.40),
      new Price("o3-mini", 1.10, 4.40),
      new Price("o3", 2.00, 8.00),
      new Price("o1-mini", 1.10, 4.40),
      new Price("o1", 15.00, 60.00),
      new Price("gpt-4-turbo", 10.00, 30.00),
      new Price("gpt-3.5-turbo", 0.50, 1.50),
      new Price("claude-opus-4", 15.00, 75.00),
      new Price("claude-sonnet-4", 3.00, 15.00),
      new Price("claude-3-7-sonnet", 3.00, 15.00),
      new Price("claude-3-5-sonnet", 3.00, 15.00),
      new Price("claude-haiku-4", 1.00, 5.00),
      new Price("claude-3-5-haiku", 0.80, 4.00),
      new Price("claude-3-haiku", 0.25, 1.25),
      new Price("deepseek-chat", 0.27, 1.10),
      new Price("deepseek-reasoner", 0.55, 2.19),
      new Price("mistral-large", 2.00, 6.00),
      new Price("mistral-small", 0.20, 0.60),
      new Price("codestral", 0.30, 0.90));

  private ModelPrices() {}

  /** The price of a model by its name (a provider prefix such as {@code openai/} is ignored). */
  public static Optional<Price> of(String model) {
    String m = model.toLowerCase(Locale.ROOT);
    if (m.startsWith("ollama/") || m.startsWith("llamacpp/") || m.startsWith("lmstudio/") || m.startsWith("vllm/")
        || m.startsWith("replay:")) {
      return Optional.of(new Price(model, 0, 0));
    }
    int slash = m.lastIndexOf('/');
    String name = slash >= 0 ? m.substring(slash + 1) : m;
    for (Price p : PRICES) {
      if (name.startsWith(p.model())) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
