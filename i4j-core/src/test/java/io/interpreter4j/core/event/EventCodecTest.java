package io.interpreter4j.core.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventCodecTest {

  @Test
  void writesFlatObjectsWithTheDocumentedFields() throws Exception {
    Event e = new Event("s1", 7, Instant.parse("2026-12-02T10:00:00Z"),
        new EventPayload.ExecFinished(2, 124, true, false, 1500, true, "/tmp/x/block-2.txt"));
    JsonNode node = EventCodec.mapper().readTree(EventCodec.toJson(e));
    assertEquals("s1", node.get("session").asText());
    assertEquals(7, node.get("seq").asLong());
    assertEquals("2026-12-02T10:00:00Z", node.get("ts").asText());
    assertEquals("exec_finished", node.get("type").asText());
    assertEquals(124, node.get("exit_code").asInt());
    assertEquals(true, node.get("timed_out").asBoolean());
    assertEquals("/tmp/x/block-2.txt", node.get("output_file").asText());
  }

  @Test
  void everyEventTypeRoundTrips() {
    List<EventPayload> payloads = List.of(
        new EventPayload.SessionStarted("replay:x.json", "/w"),
        new EventPayload.UserMessage("hi"),
        new EventPayload.AssistantDelta("h"),
        new EventPayload.AssistantMessage("hello"),
        new EventPayload.CodeBlockEvent(1, "python", "print(1)", false),
        new EventPayload.ApprovalRequested(1, "bash", "sudo ls", "high",
            List.of(new EventPayload.RiskFlag("high", "sudo", "runs as root with sudo"))),
        new EventPayload.Approval(1, ApprovalDecision.EDITED, DecidedBy.USER, null, "low", List.of(), "ls"),
        new EventPayload.Approval(1, ApprovalDecision.APPROVED, DecidedBy.AUTO, null),
        new EventPayload.ExecStarted(1, "python"),
        new EventPayload.Output(1, StreamName.STDOUT, "1\n"),
        new EventPayload.ExecFinished(1, 0, false, false, 3, false, "/o"),
        new EventPayload.Image(1, "image/png", "/s/outputs/block-1-1.png", 640, 480,
            io.interpreter4j.core.image.ImageSource.MATPLOTLIB),
        new EventPayload.Retry(2, "HTTP 429"),
        new EventPayload.Usage(1200, 85),
        new EventPayload.TurnFinished(TurnStatus.DONE, 2, null),
        new EventPayload.Error("boom"),
        new EventPayload.Conversation("undo", null, List.of(new EventPayload.Message("user", "hi"))));
    long seq = 1;
    for (EventPayload p : payloads) {
      Event e = new Event("s", seq++, Instant.now(), p);
      assertEquals(e, EventCodec.fromJson(EventCodec.toJson(e)));
    }
  }

  @Test
  void anImageEventHasTheDocumentedFields() throws Exception {
    Event e = new Event("s1", 9, Instant.parse("2026-12-02T10:00:00Z"), new EventPayload.Image(3, "image/png",
        "/s/outputs/block-3-1.png", 640, 480, io.interpreter4j.core.image.ImageSource.DISPLAY));
    assertEquals("{\"session\":\"s1\",\"seq\":9,\"ts\":\"2026-12-02T10:00:00Z\",\"type\":\"image\",\"block\":3,"
        + "\"mime\":\"image/png\",\"path\":\"/s/outputs/block-3-1.png\",\"width\":640,\"height\":480,"
        + "\"source\":\"display\"}", EventCodec.toJson(e));
  }

  @Test
  void rejectsUnknownTypesClearly() {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
        () -> EventCodec.fromJson("{\"session\":\"s\",\"seq\":1,\"ts\":\"2026-12-02T10:00:00Z\",\"type\":\"nope\"}"));
    assertEquals("unknown event type 'nope'", ex.getMessage());
  }
}
