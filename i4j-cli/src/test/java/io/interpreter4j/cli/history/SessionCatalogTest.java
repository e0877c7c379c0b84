package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.TurnStatus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionCatalogTest {
  @TempDir Path data;

  @Test
  void listsSessionsNewestFirstWithTitleStatusAndTurns() throws Exception {
    new Journals("20260101-100000-aaaaaa", Instant.parse("2026-01-01T10:00:00Z"))
        .add(new EventPayload.SessionStarted("replay:x.json", "/w"))
        .turn("list the files\nplease", 1, "ls", "a\n", 0, "Two files.")
        .add(new EventPayload.UserMessage("and delete them"),
            new EventPayload.TurnFinished(TurnStatus.INTERRUPTED, 1, "interrupted by the user"))
        .write(data);
    new Journals("20260102-100000-bbbbbb", Instant.parse("2026-01-02T10:00:00Z"))
        .add(new EventPayload.SessionStarted("openai/gpt-4o", "/w"),
            new EventPayload.Conversation("resume", "20260101-100000-aaaaaa",
                List.of(new EventPayload.Message("user", "list the files"))),
            new EventPayload.UserMessage("and now the folders"))
        .write(data);
    Files.createDirectories(data.resolve("sessions/empty-session"));
    List<SessionCatalog.Entry> all = SessionCatalog.list(data);
    assertEquals(2, all.size());
    SessionCatalog.Entry newest = all.get(0);
    assertEquals("20260102-100000-bbbbbb", newest.id());
    assertEquals("list the files", newest.title(), "a resumed session is titled by its first restored message");
    assertEquals("20260101-100000-aaaaaa", newest.resumedFrom());
    assertEquals("", newest.status());
    SessionCatalog.Entry old = all.get(1);
    assertEquals("list the files", old.title());
    assertEquals("interrupted", old.status());
    assertEquals(2, old.turns());
    assertEquals("replay:x.json", old.model());
    assertNull(old.resumedFrom());
  }

  @Test
  void findsByIdPartOrTakesTheLatest() throws Exception {
    for (String id : List.of("20260101-100000-aaaaaa", "20260101-110000-abbbbb", "20260103-100000-cccccc")) {
      new Journals(id, Instant.parse(id.substring(0, 4) + "-" + id.substring(4, 6) + "-" + id.substring(6, 8)
          + "T" + id.substring(9, 11) + ":00:00Z")).add(new EventPayload.SessionStarted("m", "/w"),
          new EventPayload.UserMessage("hi")).write(data);
    }
    assertEquals("20260103-100000-cccccc", SessionCatalog.find(data, null).id());
    assertEquals("20260103-100000-cccccc", SessionCatalog.find(data, "last").id());
    assertEquals("20260101-110000-abbbbb", SessionCatalog.find(data, "bbbbb").id());
    assertEquals("20260101-100000-aaaaaa", SessionCatalog.find(data, "20260101-100000-aaaaaa").id());
    IllegalArgumentException several = assertThrows(IllegalArgumentException.class,
        () -> SessionCatalog.find(data, "20260101"));
    assertTrue(several.getMessage().contains("matches 2 sessions"), several.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SessionCatalog.find(data, "zzz"));
  }

  @Test
  void aSessionWhereNothingWasSaidIsNotListed() throws Exception {
    new Journals("20260101-100000-aaaaaa", Instant.parse("2026-01-01T10:00:00Z"))
        .add(new EventPayload.SessionStarted("m", "/w")).write(data);
    new Journals("20260101-110000-bbbbbb", Instant.parse("2026-01-01T11:00:00Z"))
        .add(new EventPayload.SessionStarted("m", "/w"), new EventPayload.UserMessage("hi")).write(data);
    assertEquals(List.of("20260101-110000-bbbbbb"), SessionCatalog.list(data).stream().map(SessionCatalog.Entry::id)
        .toList());
  }

  @Test
  void anEmptyDataFolderHasNoSessions() {
    assertEquals(List.of(), SessionCatalog.list(data));
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> SessionCatalog.find(data, null));
    assertTrue(none.getMessage().startsWith("no sessions yet"), none.getMessage());
  }

  @Test
  void aPartialLastLineIsSkipped() throws Exception {
    Path file = new Journals("s1", Instant.parse("2026-01-01T10:00:00Z"))
        .add(new EventPayload.SessionStarted("m", "/w"), new EventPayload.UserMessage("hi")).write(data);
    Files.writeString(file, Files.readString(file) + "{\"session\":\"s1\",\"seq\":3,\"ts\":\"2026-01-");
    assertEquals(2, Journal.read(file).size());
    assertEquals("hi", SessionCatalog.list(data).get(0).title());
  }
}
