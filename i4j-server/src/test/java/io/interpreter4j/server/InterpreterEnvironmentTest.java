package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code a session runs (real bash and python) does not inherit the server's token or the model providers' keys,
 * unless interpreter4j.execution.pass-env names them. Maven's surefire puts both into this JVM's environment.
 */
class InterpreterEnvironmentTest {
  /**
   * The names of interpreter4j's variables, the OpenAI key, HOME and PATH, as far as the code sees them; not the
   * sandbox's marker I4J_SHARED_PROCESS_GROUP, which the launch sets for the driver (a flag, no secret).
   */
  private static final String BASH_PROBE =
      "env | cut -d= -f1 | grep -E '^(I4J_.*|OPENAI_API_KEY|HOME|PATH)$' | grep -vx I4J_SHARED_PROCESS_GROUP | sort";
  private static final String PYTHON_PROBE = "import os\n"
      + "print('\\n'.join(sorted(k for k in os.environ if k != 'I4J_SHARED_PROCESS_GROUP' and (k.startswith('I4J_') "
      + "or k in ('OPENAI_API_KEY', 'HOME', 'PATH')))))";

  @BeforeAll
  static void theServerHasTheSecrets() {
    assumeTrue(System.getenv("I4J_TOKEN") != null && System.getenv("OPENAI_API_KEY") != null,
        "needs I4J_TOKEN and OPENAI_API_KEY in the environment (Maven's surefire sets both for i4j-server)");
  }

  /** What the session's blocks printed, in order. */
  private static String outputOf(TestServer server, String language, String code) throws Exception {
    String model = server.cassette(language + "-env", "```" + language + "\n" + code + "\n```\n", "Done.");
    String id = server.createSession(body("message", "show the environment", "model", model, "autoRun", true));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      List<SseClient.Frame> frames = events.until("turn_finished", WAIT);
      return frames.stream().filter(f -> f.type().equals("output")).map(f -> f.json().path("text").asText())
          .collect(Collectors.joining());
    }
  }

  @Test
  void interpretersGetNeitherTheServersTokenNorTheProviderKeys(@TempDir Path tmp) throws Exception {
    try (TestServer server = new TestServer(tmp)) {
      server.cassette("default", "Nothing to run.");
      String expected = "HOME\nPATH\n";
      assertEquals(expected, outputOf(server, "bash", BASH_PROBE), "bash");
      assertEquals(expected, outputOf(server, "python", PYTHON_PROBE), "python");
    }
  }

  @Test
  void passEnvHandsChosenVariablesOn(@TempDir Path tmp) throws Exception {
    try (TestServer server = new TestServer(tmp, c -> c,
        ConfigFactory.parseString("interpreter4j.execution.pass-env = [\"OPENAI_API_KEY\"]"))) {
      server.cassette("default", "Nothing to run.");
      assertEquals("HOME\nOPENAI_API_KEY\nPATH\n", outputOf(server, "bash", BASH_PROBE));
    }
  }

  @Test
  void autoRunCodeThatWouldCallTheServersApiIsRefused(@TempDir Path tmp) throws Exception {
    try (TestServer server = new TestServer(tmp)) {
      server.cassette("default", "Nothing to run.");
      String code = "curl -s -H \"Authorization: Bearer $I4J_TOKEN\" " + server.base() + "/api/summary";
      String model = server.cassette("approve-itself", "```bash\n" + code + "\n```\n", "Done.");
      String id = server.createSession(body("message", "check the server", "model", model, "autoRun", true));
      try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
        List<SseClient.Frame> frames = events.until("turn_finished", WAIT);
        SseClient.Frame decided = frames.stream().filter(f -> f.type().equals("approval")).findFirst().orElseThrow();
        assertEquals("denied", decided.json().path("decision").asText(), decided.data());
        assertEquals("policy", decided.json().path("by").asText(), decided.data());
        assertTrue(decided.json().path("reason").asText().contains("I4J_TOKEN"), decided.data());
        assertTrue(decided.data().contains("local-api-credentials"), decided.data());
        assertFalse(frames.stream().anyMatch(f -> f.type().equals("exec_started")), "nothing ran");
      }
    }
  }
}
