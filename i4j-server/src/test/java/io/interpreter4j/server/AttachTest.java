package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.runtime.session.SessionSpec;
import io.interpreter4j.server.approval.FirstAnswerApprover;
import io.interpreter4j.server.hub.SessionHub;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code i4j --dashboard}: a session created outside the server is shown, followed and approved in the browser. */
class AttachTest {

  @Test
  void aTerminalSessionIsShownAndApprovedFromTheBrowser(@TempDir Path tmp) throws Exception {
    try (TestServer server = new TestServer(tmp)) {
      String model = server.cassette("terminal", "Let me compute.\n\n```python\nprint(6 * 7)\n```\n", "It is 42.");
      Settings settings = Settings.from(ConfigLoader.load(null, Map.of(
          "interpreter4j.data-dir", server.dataDir.toString(),
          "interpreter4j.workdir", server.workdir.toString()), Map.of("XDG_CONFIG_HOME", tmp.toString())), Map.of());
      String id = SessionIds.next();
      LinkedBlockingQueue<Event> terminal = new LinkedBlockingQueue<>();
      CompletableFuture<Approver.Answer> neverAnswered = new CompletableFuture<>();
      Approver console = new Approver() {
        @Override
        public CompletionStage<Approver.Answer> ask(String session, CodeBlock block) {
          return neverAnswered;
        }

        @Override
        public void cancel(String session, int block) {
          neverAnswered.complete(Approver.Answer.no("answered in the browser"));
        }
      };

      SessionHub.Registration reg = server.handle.register(id, settings.dataDir());
      SessionSpec spec = new SessionSpec(id, settings, server.model(model),
          FirstAnswerApprover.of(console, reg.approver()), TestServer.HOST, List.of(terminal::add, reg.subscriber()));
      SessionManager.Created created = AskPattern.<SessionManager.Command, SessionManager.Created>ask(server.system,
          replyTo -> new SessionManager.Create(spec, replyTo), WAIT, server.system.scheduler())
          .toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertNull(created.error());
      server.handle.attach(id, created.session());

      try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
        created.session().tell(new Session.UserMessage("what is 6*7?"));
        events.until("approval_requested", WAIT);
        JsonNode listed = json(server.get("/api/sessions/" + id)).path("session");
        assertEquals("awaiting_approval", listed.path("status").asText());
        assertEquals("python", listed.path("pendingApproval").path("language").asText());
        assertEquals(200, server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "approve"))
            .statusCode());
        List<SseClient.Frame> rest = events.until("turn_finished", WAIT);
        assertEquals("done", rest.get(rest.size() - 1).json().path("status").asText());
        assertTrue(rest.stream().anyMatch(f -> f.type().equals("output")
            && f.json().path("text").asText().contains("42")));
      }
      assertTrue(neverAnswered.isDone(), "the terminal's question was withdrawn once the browser answered");

      Event last = null;
      for (Event e; (e = terminal.poll()) != null; ) {
        last = e;
      }
      assertTrue(last != null && last.payload() instanceof EventPayload.TurnFinished,
          "the terminal saw the same events");
      assertEquals(202, server.post("/api/sessions/" + id + "/messages", body("text", "again")).statusCode(),
          "the browser can talk to it too");
    }
  }
}
