package io.interpreter4j.cli.history;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The sessions kept in the data folder, one per journal: id, start, title and number of turns (of the conversation
 * as it stands at the end, see {@link ConversationTitle}), status (of the last turn) and model. Reading a catalog parses only the few lines it needs from each
 * journal; the output events, most of a journal's bytes, are skipped unparsed.
 */
public final class SessionCatalog {

  /** status: done | failed | gave_up | interrupted | blocked, or "" when no turn finished. */
  public record Entry(String id, Instant started, String title, String status, String model, int turns,
                      String resumedFrom, Path journal) {}

  private SessionCatalog() {}

  /** Every session with a journal in which something was said, newest first. */
  public static List<Entry> list(Path dataDir) {
    Path dir = Journal.sessionsDir(dataDir);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Entry> entries = new ArrayList<>();
    try (Stream<Path> sessions = Files.list(dir)) {
      for (Path session : (Iterable<Path>) sessions::iterator) {
        Path journal = session.resolve("events.jsonl");
        if (Files.isRegularFile(journal)) {
          read(session.getFileName().toString(), journal).ifPresent(entries::add);
        }
      }
    } catch (IOException e) {
      return entries;
    }
    entries.sort(Comparator.comparing(Entry::started).thenComparing(Entry::id).reversed());
    return entries;
  }

  /**
   * The session with this id, or the only one whose id starts with (or ends with) {@code query}; the latest when
   * {@code query} is null, blank or "last".
   *
   * @throws IllegalArgumentException when none or several match; the message says which exist
   */
  public static Entry find(Path dataDir, String query) {
    List<Entry> all = list(dataDir);
    if (all.isEmpty()) {
      throw new IllegalArgumentException("no sessions yet in " + Journal.sessionsDir(dataDir));
    }
    if (query == null || query.isBlank() || query.equals("last") || query.equals("latest")) {
      return all.get(0);
    }
    for (Entry e : all) {
      if (e.id().equals(query)) {
        return e;
      }
    }
    List<Entry> matches = all.stream().filter(e -> e.id().startsWith(query) || e.id().endsWith(query)).toList();
    if (matches.size() == 1) {
      return matches.get(0);
    }
    if (matches.isEmpty()) {
      throw new IllegalArgumentException("no session '" + query + "'; 'i4j sessions' lists them");
    }
    throw new IllegalArgumentException("'" + query + "' matches " + matches.size() + " sessions ("
        + String.join(", ", matches.stream().limit(5).map(Entry::id).toList())
        + (matches.size() > 5 ? ", ..." : "") + "); give more of the id");
  }

  static Optional<Entry> read(String id, Path journal) {
    Instant started = null;
    ConversationTitle conversation = new ConversationTitle();
    boolean said = false;
    String status = "";
    String model = "";
    String resumedFrom = null;
    try (BufferedReader reader = Files.newBufferedReader(journal, StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        String type = typeOf(line);
        if (type == null) {
          continue;
        }
        switch (type) {
          case "session_started", "user_message", "turn_finished", "conversation" -> { }
          default -> {
            continue;
          }
        }
        JsonNode node = parse(line);
        if (node == null) {
          continue;
        }
        if (started == null && node.hasNonNull("ts")) {
          started = Instant.parse(node.get("ts").asText());
        }
        switch (type) {
          case "session_started" -> model = node.path("model").asText("");
          case "user_message" -> {
            said = true;
            conversation.userMessage(node.path("text").asText(""));
          }
          case "turn_finished" -> {
            said = true; // also a client's block run without a message (i4j mcp, the Java API)
            status = node.path("status").asText("");
          }
          case "conversation" -> {
            String reason = node.path("reason").asText("");
            if (reason.equals("resume") && resumedFrom == null) {
              resumedFrom = node.path("source").asText(null);
            }
            String firstUser = null;
            for (JsonNode m : node.path("messages")) {
              if (m.path("role").asText().equals("user")) {
                firstUser = m.path("content").asText("");
                break;
              }
            }
            conversation.conversation(reason, firstUser);
          }
          default -> { }
        }
      }
    } catch (IOException | RuntimeException e) {
      // an unreadable journal is listed with what was read, or not at all
    }
    if (started == null || !said) {
      // nothing was said or run: the session forgets itself when it stops (SessionEvents); one killed first is not
      // listed
      return Optional.empty();
    }
    return Optional.of(new Entry(id, started, conversation.title(), status, model, conversation.turns(), resumedFrom,
        journal));
  }

  /** The event type of a journal line, found without parsing it ({@code "type":"..."} as EventCodec writes it). */
  static String typeOf(String line) {
    int at = line.indexOf("\"type\":\"");
    if (at < 0) {
      return null;
    }
    int start = at + 8;
    int end = line.indexOf('"', start);
    return end < 0 ? null : line.substring(start, end);
  }

  private static JsonNode parse(String line) {
    try {
      return EventCodec.mapper().readTree(line);
    } catch (IOException e) {
      return null;
    }
  }

  static String firstLine(String text) {
    String first = text.strip().lines().findFirst().orElse("");
    return first.length() > 80 ? first.substring(0, 77) + "..." : first;
  }
}
