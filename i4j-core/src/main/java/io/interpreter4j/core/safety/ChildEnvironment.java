package io.interpreter4j.core.safety;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What of interpreter4j's own environment the code it runs may see. Interpreters inherit this process's
 * environment without interpreter4j's secrets: its {@code I4J_*} variables ({@code I4J_TOKEN} would let code act on
 * the server's API as the user: approve its own blocks, start auto-run sessions) and the model providers' API keys
 * ({@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY}, ...). Variables named in
 * {@code interpreter4j.execution.pass-env} are passed all the same, as explicit entries of the launch.
 */
public final class ChildEnvironment {

  /** The API keys of the model providers: those interpreter4j reads, and those of other well-known vendors. */
  public static final Set<String> PROVIDER_KEYS = Set.of(
      "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY", "VLLM_API_KEY", "LLAMA_API_KEY",
      "AZURE_OPENAI_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY",
      "TOGETHER_API_KEY", "FIREWORKS_API_KEY", "COHERE_API_KEY", "PERPLEXITY_API_KEY");

  private static final String OWN_PREFIX = "I4J_";

  private ChildEnvironment() {}

  /** Whether interpreters do not inherit the variable (unless it is passed on purpose). */
  public static boolean isWithheld(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    return upper.startsWith(OWN_PREFIX) || PROVIDER_KEYS.contains(upper);
  }

  /** Removes the withheld variables from an environment about to be given to a process (in place). */
  public static void withhold(Map<String, String> environment) {
    environment.keySet().removeIf(ChildEnvironment::isWithheld);
  }

  /** The variables of {@code source} named in {@code names} that are set there (what pass-env hands on). */
  public static Map<String, String> passed(Map<String, String> source, Collection<String> names) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String name : names) {
      String value = source.get(name);
      if (value != null) {
        out.put(name, value);
      }
    }
    return out;
  }
}
