package io.interpreter4j.runtime.session;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.safety.SecretRedactor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The event log of one session: numbers each event, appends it to {@code events.jsonl} (all but
 * {@code assistant_delta}) and only then tells the subscribers, so a crash loses nothing already shown.
 * Used from the session actor's thread only; subscribers may be added from anywhere.
 */
public final class SessionEvents implements AutoCloseable {
  private final String sessionId;
  private final Path journalFile;
  /** Unbuffered: every event is one write anyway (flushed before anyone is told), so a buffer only costs memory. */
  private final OutputStream journal;
  private final Clock clock;
  private final SecretRedactor redactor;
  private final List<Consumer<Event>> subscribers = new CopyOnWriteArrayList<>();
  private long seq;
  /**
   * Whether a user message or a block was published: a session where nothing was said or run leaves no journal
   * behind (a client's block, {@code Session.RunCode}, comes without a user message and must be kept).
   */
  private boolean spoken;
  /** Why the journal cannot be written, or null while it can. */
  private String journalFailure;
  private Consumer<String> onJournalFailure = message -> { };

  public SessionEvents(String sessionId, Path journalFile, Clock clock) throws IOException {
    this(sessionId, journalFile, clock, Redaction.fromEnvironment());
  }

  /** {@code redactor} removes API keys and tokens from every event before it is written or shown. */
  public SessionEvents(String sessionId, Path journalFile, Clock clock, SecretRedactor redactor) throws IOException {
    this.sessionId = sessionId;
    this.journalFile = journalFile;
    this.clock = clock;
    this.redactor = redactor;
    Files.createDirectories(journalFile.getParent());
    this.seq = lastSeqIn(journalFile);
    this.spoken = seq > 0;
    this.journal = Files.newOutputStream(journalFile, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    if (seq > 0 && !endsWithNewline(journalFile)) {
      journal.write('\n'); // the next event starts its own line after one cut short
    }
  }

  private static boolean endsWithNewline(Path file) throws IOException {
    try (var channel = Files.newByteChannel(file)) {
      java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
      channel.position(channel.size() - 1);
      channel.read(last);
      return last.get(0) == '\n';
    }
  }

  /** How far the journal reads back for its last event: one event line is far shorter (outputs are spooled). */
  private static final int TAIL_BYTES = 256 * 1024;

  /**
   * The seq of the last whole event in an existing journal, 0 for none: a session that continues a journal (in a
   * cluster, on the node that took it over after its node was lost) numbers on from there, so that event ids stay
   * one sequence with no gap and no duplicate.
   */
  static long lastSeqIn(Path journalFile) throws IOException {
    if (!Files.isRegularFile(journalFile) || Files.size(journalFile) == 0) {
      return 0;
    }
    byte[] tail;
    try (var channel = Files.newByteChannel(journalFile)) {
      long size = channel.size();
      long from = Math.max(0, size - TAIL_BYTES);
      channel.position(from);
      java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate((int) (size - from));
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // read the whole tail
      }
      tail = buffer.array();
    }
    String[] lines = new String(tail, StandardCharsets.UTF_8).split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      try {
        return EventCodec.fromJson(lines[i]).seq();
      } catch (RuntimeException e) {
        // a line cut short by a crash (or the first, cut by the tail's start): the one before
      }
    }
    return 0;
  }

  public Path journalFile() {
    return journalFile;
  }

  /** Adds a subscriber; it runs on the session's thread and must return quickly (hand off to a bounded queue). */
  public void subscribe(Consumer<Event> subscriber) {
    subscribers.add(subscriber);
  }

  public void unsubscribe(Consumer<Event> subscriber) {
    subscribers.remove(subscriber);
  }

  /**
   * Who hears, once, that the journal cannot be written (the message names the file and the cause, e.g.
   * {@code No space left on device}). Events are still numbered and told to subscribers after that, but not
   * journaled: the session must end its turn and take no more.
   */
  public void onJournalFailure(Consumer<String> listener) {
    this.onJournalFailure = listener;
  }

  public long lastSeq() {
    return seq;
  }

  /** Numbers, journals and broadcasts one event. */
  public Event publish(EventPayload payload) {
    Event event = new Event(sessionId, ++seq, clock.instant(), Redaction.redact(redactor, payload));
    spoken |= payload instanceof EventPayload.UserMessage || payload instanceof EventPayload.CodeBlockEvent;
    if (!(payload instanceof EventPayload.AssistantDelta)) {
      writeJournal(event);
    }
    for (Consumer<Event> subscriber : subscribers) {
      try {
        subscriber.accept(event);
      } catch (RuntimeException e) {
        // A broken subscriber must never break the session; it is dropped.
        subscribers.remove(subscriber);
      }
    }
    return event;
  }

  private void writeJournal(Event event) {
    if (journalFailure != null) {
      return;
    }
    try {
      journal.write((EventCodec.toJson(event) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      journalFailure = "cannot write the journal " + journalFile + ": " + (e.getMessage() == null
          ? e.getClass().getSimpleName() : e.getMessage());
      onJournalFailure.accept(journalFailure);
    }
  }

  /** Whether a user message or a code block was published in this session. */
  public boolean spoken() {
    return spoken;
  }

  @Override
  public void close() {
    try {
      journal.close();
    } catch (IOException e) {
      // nothing more can be written; the events were flushed line by line
    }
  }

  /**
   * Closes the journal and, when nothing was said or run in the session, deletes it and its folder if that is then empty:
   * a chat opened and left ({@code i4j resume}, then Ctrl-D) is not listed as a session with no turns.
   */
  public void closeAndForgetIfSilent() {
    close();
    if (spoken) {
      return;
    }
    try {
      Files.deleteIfExists(journalFile);
      try (var left = Files.list(journalFile.getParent())) {
        if (left.findAny().isEmpty()) {
          Files.deleteIfExists(journalFile.getParent());
        }
      }
    } catch (IOException e) {
      // the journal stays: a session with no turns, listed as such
    }
  }
}
