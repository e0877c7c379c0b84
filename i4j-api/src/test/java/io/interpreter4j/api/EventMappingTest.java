package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link EventMapping}: the JSON of docs/events.md to the API's records; unknown types kept, not refused. */
class EventMappingTest {

  private static final Instant TS = Instant.parse("2026-12-02T13:15:00.431Z");

  @Test
  void aJournalLineOfAKnownTypeBecomesItsRecord() {
    Event e = EventMapping.fromLine("{\"session\":\"s1\",\"seq\":9,\"ts\":\"2026-12-02T13:15:00.431Z\","
        + "\"type\":\"exec_finished\",\"block\":1,\"exit_code\":0,\"timed_out\":false,\"interrupted\":false,"
        + "\"duration_ms\":18,\"truncated\":false,\"output_file\":\"/tmp/block-1.txt\",\"added_later\":1}");
    assertEquals(new Event.ExecFinished("s1", 9, TS, 1, 0, false, false, 18, false, "/tmp/block-1.txt"), e);
  }

  @Test
  void anApprovalsEnumsAreMapped() {
    Event e = EventMapping.fromLine("{\"session\":\"s1\",\"seq\":6,\"ts\":\"2026-12-02T13:15:00.431Z\","
        + "\"type\":\"approval\",\"block\":1,\"decision\":\"denied\",\"by\":\"policy\",\"reason\":\"deny rule\","
        + "\"risk\":\"high\",\"flags\":[{\"level\":\"high\",\"rule\":\"rm-root\",\"reason\":\"deletes /\"}],"
        + "\"code\":null}");
    assertEquals(new Event.Approval("s1", 6, TS, 1, Decision.Kind.DENIED, Decision.DecidedBy.POLICY, "deny rule",
        "high", List.of(new Event.RiskFlag("high", "rm-root", "deletes /")), null), e);
  }

  @Test
  void anUnknownTypeBecomesOtherWithItsFields() {
    Event e = EventMapping.fromLine("{\"session\":\"s1\",\"seq\":3,\"ts\":\"2026-12-02T13:15:00.431Z\","
        + "\"type\":\"tool_progress\",\"percent\":40,\"note\":\"half\",\"parts\":[1,2]}");
    assertEquals(new Event.Other("s1", 3, TS, "tool_progress", Map.of("percent", 40, "note", "half",
        "parts", List.of(1, 2))), e);
  }

  @Test
  void aLiveEventMapsAsItsJournalLineDoes() {
    var live = new io.interpreter4j.core.event.Event("s1", 4, TS,
        new io.interpreter4j.core.event.EventPayload.TurnFinished(io.interpreter4j.core.event.TurnStatus.GAVE_UP, 3,
            "max iterations"));
    assertEquals(new Event.TurnFinished("s1", 4, TS, TurnStatus.GAVE_UP, 3, "max iterations"), EventMapping.of(live));
    assertEquals(EventMapping.of(live),
        EventMapping.fromLine(io.interpreter4j.core.event.EventCodec.toJson(live)));
  }
}
