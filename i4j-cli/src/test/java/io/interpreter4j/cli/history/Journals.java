package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.ApprovalDecision;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds journals for tests: events numbered and timed as a session would write them. */
final class Journals {
  private final String session;
  private final List<Event> events = new ArrayList<>();
  private Instant clock;

  Journals(String session, Instant start) {
    this.session = session;
    this.clock = start;
  }

  Journals add(EventPayload... payloads) {
    for (EventPayload p : payloads) {
      events.add(new Event(session, events.size() + 1, clock, p));
      clock = clock.plusSeconds(1);
    }
    return this;
  }

  List<Event> events() {
    return List.copyOf(events);
  }

  Path write(Path dataDir) throws IOException {
    Path file = Journal.file(dataDir, session);
    Files.createDirectories(file.getParent());
    StringBuilder sb = new StringBuilder();
    for (Event e : events) {
      sb.append(EventCodec.toJson(e)).append('\n');
    }
    Files.writeString(file, sb.toString());
    return file;
  }

  /** A turn: the user asks, the model writes one bash block, it runs, the model answers. */
  Journals turn(String user, int block, String code, String output, int exit, String answer) {
    return add(new EventPayload.UserMessage(user),
        new EventPayload.CodeBlockEvent(block, "bash", code, false),
        new EventPayload.AssistantMessage("Running it.\n\n```bash\n" + code + "\n```\n"),
        new EventPayload.Approval(block, ApprovalDecision.APPROVED, DecidedBy.USER, null),
        new EventPayload.ExecStarted(block, "bash"),
        new EventPayload.Output(block, StreamName.STDOUT, output),
        new EventPayload.ExecFinished(block, exit, false, false, 12, false, null),
        new EventPayload.AssistantMessage(answer),
        new EventPayload.TurnFinished(TurnStatus.DONE, 2, null));
  }
}
