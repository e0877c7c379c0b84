package io.interpreter4j.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.providers.testing.FakeModelServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ProviderRegistryTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults();

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  private static IllegalArgumentException rejected(String spec, Map<String, String> env) {
    return assertThrows(IllegalArgumentException.class,
        () -> ProviderRegistry.create(spec, Optional.empty(), Optional.empty(), env, SYSTEM, SETTINGS));
  }

  @Test
  void unknownPrefixListsTheKnownOnes() {
    String message = rejected("foo/bar", Map.of()).getMessage();
    assertTrue(message.startsWith("unknown provider 'foo' in model 'foo/bar': known providers are openai/, "
        + "anthropic/, ollama/, lmstudio/, vllm/, llamacpp/, openrouter/, groq/"), message);
    assertTrue(rejected("mymodel", Map.of()).getMessage().contains("names no provider"));
    assertTrue(rejected("openai/", Map.of("OPENAI_API_KEY", "k")).getMessage().contains("no model name after 'openai/'"));
  }

  @Test
  void missingKeyNamesTheVariable() {
    assertEquals("OPENAI_API_KEY is not set: export it or pass --api-key",
        rejected("openai/gpt-4o", Map.of()).getMessage());
    assertEquals("ANTHROPIC_API_KEY is not set: export it or pass --api-key",
        rejected("anthropic/claude-sonnet-4-5", Map.of("OPENAI_API_KEY", "k")).getMessage());
    assertEquals("GROQ_API_KEY is not set: export it or pass --api-key", rejected("groq/x", Map.of()).getMessage());
    assertEquals("OPENROUTER_API_KEY is not set: export it or pass --api-key",
        rejected("openrouter/meta-llama/llama-3.1-8b-instruct", Map.of()).getMessage());
  }

  @Test
  void createsProvidersFromSpecsFlagsAndEnvironment() {
    assertEquals("openai/gpt-4o", ProviderRegistry.create("openai/gpt-4o", Optional.empty(), Optional.of("sk"),
        Map.of(), SYSTEM, SETTINGS).name());
    assertEquals("anthropic/claude-3-5-haiku-latest", ProviderRegistry.create("claude-3-5-haiku-latest",
        Optional.empty(), Optional.empty(), Map.of("ANTHROPIC_API_KEY", "k"), SYSTEM, SETTINGS).name());
    assertEquals("openrouter/meta-llama/llama-3.1-8b-instruct", ProviderRegistry.create(
        "openrouter/meta-llama/llama-3.1-8b-instruct", Optional.empty(), Optional.empty(),
        Map.of("OPENROUTER_API_KEY", "k"), SYSTEM, SETTINGS).name());
    assertEquals("ollama/qwen2.5-coder:7b", ProviderRegistry.create("ollama/qwen2.5-coder:7b", Optional.empty(),
        Optional.empty(), Map.of(), SYSTEM, SETTINGS).name());
    // A custom base needs no key, and a bare name with slashes is then the server's own model name.
    assertEquals("openai/Qwen/Qwen2.5-7B-Instruct", ProviderRegistry.create("Qwen/Qwen2.5-7B-Instruct",
        Optional.of("http://127.0.0.1:8000/v1"), Optional.empty(), Map.of(), SYSTEM, SETTINGS).name());
  }

  @Test
  void nameIsTheNameOfTheProviderCreateMakes() {
    Map<String, String> keys = Map.of("OPENAI_API_KEY", "k", "ANTHROPIC_API_KEY", "k", "OPENROUTER_API_KEY", "k");
    for (String spec : List.of("openai/gpt-4o", " OpenAI/gpt-4o ", "claude-3-5-haiku-latest", "ollama/qwen2.5-coder:7b",
        "openrouter/meta-llama/llama-3.1-8b-instruct")) {
      assertEquals(ProviderRegistry.create(spec, Optional.empty(), Optional.empty(), keys, SYSTEM, SETTINGS).name(),
          ProviderRegistry.name(spec, Optional.empty()), spec);
    }
    Optional<String> base = Optional.of("http://127.0.0.1:8000/v1");
    assertEquals(ProviderRegistry.create("Qwen/Qwen2.5-7B-Instruct", base, Optional.empty(), Map.of(), SYSTEM,
        SETTINGS).name(), ProviderRegistry.name("Qwen/Qwen2.5-7B-Instruct", base));
    // refused for the same reason as create refuses it, though no key is needed for the name alone
    assertEquals(rejected("acme/model", Map.of()).getMessage(), assertThrows(IllegalArgumentException.class,
        () -> ProviderRegistry.name("acme/model", Optional.empty())).getMessage());
  }

  @Test
  void defaultModelFromEnvironmentAsksNoServer() {
    assertEquals(Optional.of("openai/gpt-4o-mini"),
        ProviderRegistry.defaultModelFromEnvironment(Map.of("OPENAI_API_KEY", "k")));
    assertEquals(Optional.of("ollama/x"),
        ProviderRegistry.defaultModelFromEnvironment(Map.of("I4J_MODEL", "ollama/x", "OPENAI_API_KEY", "k")));
    assertEquals(Optional.empty(), ProviderRegistry.defaultModelFromEnvironment(Map.of()));
  }

  @Test
  void presetsKnowTheirEndpoints() {
    Map<String, String> bases = Map.of("openai", "https://api.openai.com/v1", "anthropic", "https://api.anthropic.com/v1",
        "ollama", "http://localhost:11434", "lmstudio", "http://localhost:1234/v1", "vllm", "http://localhost:8000/v1",
        "llamacpp", "http://localhost:8080/v1", "openrouter", "https://openrouter.ai/api/v1",
        "groq", "https://api.groq.com/openai/v1");
    bases.forEach((prefix, base) -> assertEquals(base, ProviderRegistry.preset(prefix).orElseThrow().defaultBase()));
    assertEquals("http://localhost:11434", ProviderRegistry.ollamaRoot(Map.of()));
    assertEquals("http://localhost:9999", ProviderRegistry.ollamaRoot(Map.of("OLLAMA_HOST", "0.0.0.0:9999")));
    assertEquals("http://127.0.0.1:11434", ProviderRegistry.ollamaRoot(Map.of("OLLAMA_HOST", "127.0.0.1")));
    assertEquals("https://gpu.lan:443", ProviderRegistry.ollamaRoot(Map.of("OLLAMA_HOST", "https://gpu.lan")));
  }

  @Test
  void defaultModelPrefersConfigurationThenKeysThenOllama() throws IOException {
    Map<String, String> noOllama = Map.of("OLLAMA_HOST", "127.0.0.1:" + closedPort());
    assertEquals(Optional.of("groq/llama-3.3-70b-versatile"), ProviderRegistry.defaultModel(
        Map.of("I4J_MODEL", "groq/llama-3.3-70b-versatile", "OPENAI_API_KEY", "k"), SYSTEM, SETTINGS));
    assertEquals(Optional.of("openai/gpt-4o-mini"), ProviderRegistry.defaultModel(
        Map.of("OPENAI_API_KEY", "k", "ANTHROPIC_API_KEY", "k"), SYSTEM, SETTINGS));
    assertEquals(Optional.of("anthropic/claude-sonnet-4-5"), ProviderRegistry.defaultModel(
        Map.of("ANTHROPIC_API_KEY", "k", "OLLAMA_HOST", noOllama.get("OLLAMA_HOST")), SYSTEM, SETTINGS));
    assertEquals(Optional.empty(), ProviderRegistry.defaultModel(noOllama, SYSTEM, SETTINGS));
  }

  @Test
  void defaultModelAsksALocalOllamaForItsFirstChatModel() throws IOException {
    String tags = "{\"models\":[{\"name\":\"nomic-embed-text:latest\",\"model\":\"nomic-embed-text:latest\"},"
        + "{\"name\":\"llama3.2:latest\",\"model\":\"llama3.2:latest\",\"size\":2019393189}]}";
    try (FakeModelServer ollama = FakeModelServer.start(ex -> ex.respond(200, "application/json", tags, Map.of()))) {
      Optional<String> model = ProviderRegistry.defaultModel(Map.of("OLLAMA_HOST", "127.0.0.1:" + ollama.port()),
          SYSTEM, SETTINGS.withOllamaProbeTimeout(Duration.ofSeconds(10)));

      assertEquals(Optional.of("ollama/llama3.2:latest"), model);
      assertEquals("/api/tags", ollama.requests().get(0).path());
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
