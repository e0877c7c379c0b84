package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.testing.OutsideTmp;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.session.ProcessDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions the API starts with {@code "autoRun": true} run their code in the default containment's sandbox; sessions
 * whose blocks a client approves do not. Real bwrap, real HTTP; the folders lie outside /tmp, where the sandbox sees
 * them read-only.
 */
class AutoRunContainmentTest {

  @TempDir(factory = OutsideTmp.class) Path tmp;
  private TestServer server;
  private Path outside;

  @BeforeEach
  void start() throws Exception {
    RequiredTool.assume(ProcessDefaults.containment().forAutoRun().name().equals("bwrap"),
        "a bwrap that can create a sandbox", ProcessDefaults.containment().autoRunNotice().orElse(""));
    server = new TestServer(tmp);
    outside = Files.createDirectories(tmp.resolve("outside"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String block(String name) {
    return "```bash\necho escaped > " + outside.resolve(name) + " && echo outside-written\n"
        + "echo kept > " + name + ".txt && echo inside-written\ntrue\n```\n";
  }

  private String output(List<SseClient.Frame> frames) {
    return frames.stream().filter(f -> f.type().equals("output")).map(f -> f.json().path("text").asText())
        .collect(Collectors.joining());
  }

  @Test
  void autoRunSessionsWriteOnlyInTheirWorkdir() throws Exception {
    String model = server.cassette("auto", block("auto"), "Done.");
    String id = server.createSession(body("message", "probe", "model", model, "autoRun", true,
        "workdir", server.workdir.toString()));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      String out = output(events.until("turn_finished", WAIT));
      assertFalse(out.contains("outside-written"), out);
      assertTrue(out.contains("Read-only file system"), out);
      assertTrue(out.contains("inside-written"), out);
    }
    assertFalse(Files.exists(outside.resolve("auto")));
    assertEquals("kept\n", Files.readString(server.workdir.resolve("auto.txt")));
  }

  @Test
  void sessionsWhoseBlocksAClientApprovesRunUnconfined() throws Exception {
    String model = server.cassette("ask", block("ask"), "Done.");
    String id = server.createSession(body("message", "probe", "model", model));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      events.until("approval_requested", WAIT);
      assertEquals(200, server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "approve"))
          .statusCode());
      String out = output(events.until("turn_finished", WAIT));
      assertTrue(out.contains("outside-written"), out);
    }
    assertEquals("escaped\n", Files.readString(outside.resolve("ask")));
  }
}
