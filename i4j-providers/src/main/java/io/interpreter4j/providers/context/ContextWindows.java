package io.interpreter4j.providers.context;

import java.util.List;
import java.util.Locale;

/**
 * The context windows (in tokens) of common models, known from their names, and the part of it a request
 * may spend on input. Unknown models get {@link #UNKNOWN}, small on purpose: a budget too small only drops old
 * turns, one too large makes the server reject (or, for Ollama, silently cut) the conversation.
 */
public final class ContextWindows {

  /** Window assumed for a model whose name this table doesn't know. */
  public static final int UNKNOWN = 8_192;

  private record Rule(String prefix, int tokens) {}

  // First match wins: more specific prefixes come before the ones they extend.
  private static final List<Rule> RULES = List.of(
      new Rule("gpt-4.1", 1_047_576),
      new Rule("gpt-4o", 128_000),
      new Rule("chatgpt-4o", 128_000),
      new Rule("gpt-4.5", 128_000),
      new Rule("gpt-4-turbo", 128_000),
      new Rule("gpt-4-1106", 128_000),
      new Rule("gpt-4-0125", 128_000),
      new Rule("gpt-4-32k", 32_768),
      new Rule("gpt-4", 8_192),
      new Rule("gpt-3.5-turbo", 16_385),
      new Rule("gpt-5", 400_000),
      new Rule("gpt-oss", 131_072),
      new Rule("o1-mini", 128_000),
      new Rule("o1-preview", 128_000),
      new Rule("o1", 200_000),
      new Rule("o3", 200_000),
      new Rule("o4", 200_000),
      new Rule("claude", 200_000),
      new Rule("llama-4", 128_000),
      new Rule("llama4", 128_000),
      new Rule("llama-3.1", 128_000),
      new Rule("llama3.1", 128_000),
      new Rule("llama-3.2", 128_000),
      new Rule("llama3.2", 128_000),
      new Rule("llama-3.3", 128_000),
      new Rule("llama3.3", 128_000),
      new Rule("llama-3", 8_192),
      new Rule("llama3", 8_192),
      new Rule("meta-llama-3.1", 128_000),
      new Rule("meta-llama-3", 8_192),
      new Rule("llama2", 4_096),
      new Rule("llama-2", 4_096),
      new Rule("codellama", 16_384),
      new Rule("qwen", 32_768),
      new Rule("qwq", 32_768),
      new Rule("mistral-nemo", 128_000),
      new Rule("mistral-large", 128_000),
      new Rule("mistral", 32_768),
      new Rule("mixtral", 32_768),
      new Rule("codestral", 32_768),
      new Rule("ministral", 128_000),
      new Rule("gemma-3", 128_000),
      new Rule("gemma3", 128_000),
      new Rule("gemma", 8_192),
      new Rule("phi-4", 16_384),
      new Rule("phi4", 16_384),
      new Rule("phi3", 4_096),
      new Rule("phi-3", 4_096),
      new Rule("deepseek-chat", 64_000),
      new Rule("deepseek-reasoner", 64_000),
      new Rule("deepseek", 128_000),
      new Rule("command-r", 128_000),
      new Rule("granite", 8_192));

  private ContextWindows() {}

  /** The context window of a model (name after the provider prefix; OpenRouter's vendor/ and Ollama's :tag are ignored). */
  public static int forModel(String model) {
    String m = normalise(model);
    for (Rule r : RULES) {
      if (m.startsWith(r.prefix())) {
        return r.tokens();
      }
    }
    return UNKNOWN;
  }

  /**
   * Tokens the conversation may take: the window ({@code override} when positive, else known from the name) less
   * the reply's reserve, which is at most a quarter of the window so that small models keep room for input.
   */
  public static int inputBudget(String model, int override, int outputReserve) {
    int window = override > 0 ? override : forModel(model);
    return window - Math.min(outputReserve, window / 4);
  }

  /** Lower case, without a vendor path ({@code meta-llama/}) or an Ollama tag ({@code :8b}). */
  static String normalise(String model) {
    String m = model.toLowerCase(Locale.ROOT).strip();
    int slash = m.lastIndexOf('/');
    if (slash >= 0) {
      m = m.substring(slash + 1);
    }
    int colon = m.indexOf(':');
    if (colon >= 0) {
      m = m.substring(0, colon);
    }
    return m;
  }
}
