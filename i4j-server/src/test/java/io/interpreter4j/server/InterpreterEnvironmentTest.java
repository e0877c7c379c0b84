package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
  private static final String BASH_PROBE = "for v in I4J_TOKEN OPENAI_API_KEY HOME PATH; do "
      + "if [ -n \"${!v+x}\" ]; then echo \"$v=set\"; else echo \"$v=unset\"; fi; done";
  private static final String PYTHON_PROBE = "import os\n"
      + "for v in ('I4J_TOKEN', 'OPENAI_API_KEY', 'HOME', 'PATH'):\n"
      + "    print(v + ('=set' if v in os.environ else '=unset'))";

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
      String expected = "I4J_TOKEN=unset\nOPENAI_API_KEY=unset\nHOME=set\nPATH=set\n";
      assertEquals(expected, outputOf(server, "bash", BASH_PROBE), "bash");
      assertEquals(expected, outputOf(server, "python", PYTHON_PROBE), "python");
    }
  }

  @Test
  void passEnvHandsChosenVariablesOn(@TempDir Path tmp) throws Exception {
    try (TestServer server = new TestServer(tmp, c -> c,
        ConfigFactory.parseString("interpreter4j.execution.pass-env = [\"OPENAI_API_KEY\"]"))) {
      server.cassette("default", "Nothing to run.");
      assertEquals("I4J_TOKEN=unset\nOPENAI_API_KEY=set\nHOME=set\nPATH=set\n", outputOf(server, "bash", BASH_PROBE));
    }
  }
}
