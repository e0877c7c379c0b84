package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildEnvironmentTest {

  @Test
  void interpreter4jsOwnVariablesAndTheProviderKeysAreWithheld() {
    for (String name : List.of("I4J_TOKEN", "I4J_MODEL", "i4j_token", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
        "OPENROUTER_API_KEY", "GROQ_API_KEY", "GEMINI_API_KEY")) {
      assertTrue(ChildEnvironment.isWithheld(name), name);
    }
    for (String name : List.of("HOME", "PATH", "LANG", "VIRTUAL_ENV", "GITHUB_TOKEN", "AWS_PROFILE", "HF_TOKEN")) {
      assertFalse(ChildEnvironment.isWithheld(name), name + " is the user's, for the user's code");
    }
  }

  @Test
  void withholdRemovesInPlaceAndPassedHandsChosenOnesBack() {
    Map<String, String> env = new HashMap<>(Map.of("HOME", "/home/ada", "I4J_TOKEN", "t0ken-value",
        "OPENAI_API_KEY", "sk-value", "ANTHROPIC_API_KEY", "sk-ant-value"));
    Map<String, String> original = Map.copyOf(env);
    ChildEnvironment.withhold(env);
    assertEquals(Map.of("HOME", "/home/ada"), env);
    assertEquals(Map.of("OPENAI_API_KEY", "sk-value"),
        ChildEnvironment.passed(original, List.of("OPENAI_API_KEY", "MISSING_ONE")));
  }
}
