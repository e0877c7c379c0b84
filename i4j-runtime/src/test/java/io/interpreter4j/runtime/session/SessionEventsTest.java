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

  private SessionEvents started(String id) throws Exception {
    SessionEvents events = new SessionEvents(id, tmp.resolve("sessions/" + id + "/events.jsonl"), Clock.systemUTC(),
        SecretRedactor.fromEnvironment(java.util.Map.of()));
    events.publish(new EventPayload.SessionStarted("replay:x.json", "/w"));
    return events;
  }

  @Test
  void aSessionWhereNothingWasSaidLeavesNoJournalBehind() throws Exception {
    SessionEvents events = started("s1");
    Path journal = events.journalFile();
    events.publish(new EventPayload.Conversation("resume", "s0", List.of()));
    assertTrue(Files.exists(journal), "written as it goes");
    events.closeAndForgetIfSilent();
    assertFalse(Files.exists(journal.getParent()), "neither the journal nor its folder is left");
  }

  @Test
  void aSessionWhereSomethingWasSaidIsKept() throws Exception {
    SessionEvents events = started("s2");
    events.publish(new EventPayload.UserMessage("hello"));
    events.closeAndForgetIfSilent();
    assertEquals(2, Files.readAllLines(events.journalFile()).size());
  }

  @Test
  void aSessionWhereAClientRanCodeWithoutAMessageIsKept() throws Exception {
    SessionEvents events = started("s3");
    events.publish(new EventPayload.CodeBlockEvent(1, "python", "print(1)", false));
    events.closeAndForgetIfSilent();
    assertEquals(2, Files.readAllLines(events.journalFile()).size(), "i4j mcp's and the Java API's blocks stay");
  }

  @Test
  void aJournalThatIsContinuedNumbersOnFromItsLastWholeEvent() throws Exception {
    SessionEvents first = started("s4");
    first.publish(new EventPayload.UserMessage("hello"));
    first.publish(new EventPayload.AssistantDelta("not journaled"));
    first.close();
    Files.writeString(first.journalFile(), "{\"session\":\"s4\",\"seq\":9,\"ty", java.nio.file.StandardOpenOption.APPEND);
    SessionEvents again = new SessionEvents("s4", first.journalFile(), Clock.systemUTC(),
        SecretRedactor.fromEnvironment(java.util.Map.of()));
    assertEquals(2, again.lastSeq(), "the line cut short is not counted; the unjournaled delta (3) is not known");
    assertEquals(3, again.publish(new EventPayload.UserMessage("again")).seq());
    again.closeAndForgetIfSilent();
    assertTrue(Files.exists(again.journalFile()), "a continued journal is kept");
    List<String> lines = Files.readAllLines(again.journalFile());
    assertEquals(4, lines.size());
    assertTrue(lines.get(3).contains("\"again\""), "the new event on a line of its own: " + lines);
    assertEquals(0, new SessionEvents("s5", tmp.resolve("sessions/s5/events.jsonl"), Clock.systemUTC()).lastSeq());
  }
}
