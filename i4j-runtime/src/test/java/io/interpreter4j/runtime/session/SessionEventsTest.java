package io.interpreter4j.runtime.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.safety.SecretRedactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionEventsTest {
  @TempDir Path tmp;

  @Test
  void aSessionWhereNothingWasSaidLeavesNoJournalBehind() throws Exception {
    Path journal = tmp.resolve("sessions/s1/events.jsonl");
    SessionEvents events = new SessionEvents("s1", journal, Clock.systemUTC(), SecretRedactor.fromEnvironment(
        java.util.Map.of()));
    events.publish(new EventPayload.SessionStarted("replay:x.json", "/w"));
    events.publish(new EventPayload.Conversation("resume", "s0", List.of()));
    assertTrue(Files.exists(journal), "written as it goes");
    events.closeAndForgetIfSilent();
    assertFalse(Files.exists(journal.getParent()), "neither the journal nor its folder is left");
  }

  @Test
  void aSessionWhereSomethingWasSaidIsKept() throws Exception {
    Path journal = tmp.resolve("sessions/s2/events.jsonl");
    SessionEvents events = new SessionEvents("s2", journal, Clock.systemUTC(), SecretRedactor.fromEnvironment(
        java.util.Map.of()));
    events.publish(new EventPayload.SessionStarted("replay:x.json", "/w"));
    events.publish(new EventPayload.UserMessage("hello"));
    events.closeAndForgetIfSilent();
    assertEquals(2, Files.readAllLines(journal).size());
  }
}
