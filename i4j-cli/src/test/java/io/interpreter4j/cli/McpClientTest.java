package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.NodeScript;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code i4j mcp} driven by real MCP clients over stdio, spawning it as a child JVM (as CliProcess runs {@code i4j}):
 * the official TypeScript SDK's client (src/test/node/mcp-client.mjs, pinned by its package-lock.json) and the
 * official Java SDK's client. The code runs unconfined in a folder of the test, with HOME pointing into it.
 */
class McpClientTest {
  private static final Duration NODE_WAIT = Duration.ofSeconds(150);

  @TempDir Path tmp;
  private Path work;
  private Path home;
  private Path data;

  @BeforeEach
  void folders() throws Exception {
    work = Files.createDirectories(tmp.resolve("work"));
    home = Files.createDirectories(tmp.resolve("home"));
    data = Files.createDirectories(tmp.resolve("data"));
    Files.writeString(home.resolve("keep-me.txt"), "a file rm -rf ~ would delete\n");
  }

  /** {@code java -cp ... Main mcp ARGS}, the command a client spawns. */
  private List<String> command(String... args) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "--sandbox=none",
        "--workdir", work.toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  private Map<String, String> childEnv() {
    return Map.of("I4J_HOME", data.toString(), "XDG_CONFIG_HOME", tmp.resolve("config").toString(),
        "HOME", home.toString());
  }

  private JsonNode node(String scenario, List<String> command) throws Exception {
    NodeScript node = NodeScript.need(Path.of("src", "test", "node"), "@modelcontextprotocol/sdk");
    ObjectMapper json = EventCodec.mapper();
    NodeScript.Result r = node.run("mcp-client.mjs", Map.of(
        "I4J_MCP_COMMAND", command.get(0),
        "I4J_MCP_ARGS", json.writeValueAsString(command.subList(1, command.size())),
        "I4J_MCP_ENV", json.writeValueAsString(childEnv())), NODE_WAIT, scenario);
    assertEquals(0, r.exit(), scenario + ": " + r.stderr() + r.stdout());
    return json.readTree(r.lastLine());
  }

  private String journals() throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.walk(data.resolve("sessions"))) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("events.jsonl")).toList()) {
        all.append(Files.readString(f));
      }
    }
    return all.toString();
  }

  @Test
  void theTypeScriptClientListsToolsRunsBlocksWithStateAndIsRefusedRmRfHome() throws Exception {
    JsonNode seen = node("tools", command("-y"));
    assertEquals("[\"execute\",\"list_languages\",\"run_task\"]", seen.path("tools").toString());

    assertEquals("set\nexit code: 0", seen.path("first").path("text").asText());
    assertFalse(seen.path("first").path("isError").asBoolean());
    assertEquals("42\nexit code: 0", seen.path("second").path("text").asText(), "x survived between the calls");
    assertEquals("about to fail\nexit code: 3", seen.path("failing").path("text").asText());
    assertTrue(seen.path("failing").path("isError").asBoolean(), "a non-zero exit is an error");

    String refused = seen.path("dangerous").path("text").asText();
    assertTrue(seen.path("dangerous").path("isError").asBoolean(), refused);
    assertTrue(refused.startsWith("refused, not run: ") && refused.contains("home"), refused);
    assertTrue(Files.exists(home.resolve("keep-me.txt")), "rm -rf ~ did not run");
    assertEquals(3, journals().split("\"type\":\"exec_started\"", -1).length - 1, "three blocks ran, not the fourth");

    assertTrue(seen.path("languages").asText().contains("python"), seen.path("languages").asText());
    assertTrue(seen.path("progress").toString().contains("running block 1 (python)"), seen.toString());
    StringBuilder logged = new StringBuilder();
    seen.path("logged").forEach(piece -> logged.append(piece.asText()));
    assertEquals("set\n42\nabout to fail\n", logged.toString(), "live output as logging notifications");
  }

  @Test
  void aCancelledCallInterruptsItsBlock() throws Exception {
    JsonNode seen = node("cancel", command("-y"));
    assertFalse(seen.path("cancelled").isNull(), seen.toString());
    assertEquals("next\nexit code: 0", seen.path("next").asText(), "the session was free again: " + seen);
    String journal = journals();
    assertTrue(journal.contains("\"interrupted\":true"), journal);
    assertFalse(journal.contains("\"stream\":\"stdout\",\"text\":\"never"), journal);
  }

  @Test
  void runTaskRunsAWholeTurnWithTheConfiguredModelAndTheTranscriptIsAResource() throws Exception {
    Path cassette = tmp.resolve("task.json");
    Files.writeString(cassette, """
        {"turns": [
          {"reply": "Computing.\\n\\n```python\\nprint(6 * 7)\\n```\\n"},
          {"expect": "exit code 0", "reply": "The answer is 42."}]}
        """);
    JsonNode seen = node("task", command("-y", "--model", "replay:" + cassette));
    assertFalse(seen.path("isError").asBoolean(), seen.toString());
    assertEquals("The answer is 42.\n\nBlocks run:\n- block 1 (python): exit code 0", seen.path("text").asText());
    assertEquals("[\"i4j://sessions/{id}/transcript\"]", seen.path("templates").toString());
    String uri = seen.path("resources").get(0).asText();
    assertTrue(uri.matches("i4j://sessions/[0-9a-f-]+/transcript"), uri);
    assertEquals("text/markdown", seen.path("transcript").path("mimeType").asText());
    String transcript = seen.path("transcript").path("text").asText();
    assertTrue(transcript.contains("## User\n\nWhat is 6 times 7?"), transcript);
    assertTrue(transcript.contains("```output\n42\n[exit 0]\n```"), transcript);
    assertTrue(transcript.contains("The answer is 42."), transcript);
  }

  @Test
  void theJavaClientApprovesAndDeclinesBlocksThroughElicitation() throws Exception {
    List<String> cmd = command(); // ask mode: every block is a question for the client
    List<String> asked = new CopyOnWriteArrayList<>();
    ServerParameters params = ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size()))
        .env(childEnv()).build();
    StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
    // a child JVM on a busy machine may take longer than the SDK's 20 s to start answering
    try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
        .initializationTimeout(Duration.ofSeconds(120))
        .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
        .elicitation(request -> {
          asked.add(request.message());
          boolean approve = !request.message().contains("declined");
          return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("approve", approve));
        })
        .build()) {
      client.initialize();
      assertEquals(3, client.listTools().tools().size());
      McpSchema.CallToolResult approved = client.callTool(new McpSchema.CallToolRequest("execute",
          Map.of("language", "bash", "code", "echo approved > approved.txt && cat approved.txt")));
      assertEquals("approved\nexit code: 0", ((McpSchema.TextContent) approved.content().get(0)).text());
      assertFalse(approved.isError());
      McpSchema.CallToolResult declined = client.callTool(new McpSchema.CallToolRequest("execute",
          Map.of("language", "bash", "code", "echo declined > declined.txt")));
      assertTrue(declined.isError());
      assertTrue(((McpSchema.TextContent) declined.content().get(0)).text().contains("declined in the MCP client"),
          declined.toString());
    }
    assertEquals(2, asked.size(), asked.toString());
    assertTrue(asked.get(0).contains("echo approved"), asked.get(0));
    assertTrue(Files.exists(work.resolve("approved.txt")));
    assertFalse(Files.exists(work.resolve("declined.txt")), "a declined block does not run");
  }
}
