package io.interpreter4j.server.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.FileIO;
import org.apache.pekko.stream.javadsl.Framing;
import org.apache.pekko.stream.javadsl.FramingTruncation;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * Reads a session's {@code events.jsonl} (every event but {@code assistant_delta}, one JSON object a line). The
 * session may still be appending: a last line that does not parse yet is where reading stops.
 */
public final class Transcripts {
  /** Longest journal line read; an output event holds at most one 8 KiB read, a code block can be long. */
  static final int MAX_LINE = 16 * 1024 * 1024;

  private Transcripts() {}

  /** Lines with {@code after < seq < before} ({@code before == 0}: no upper bound), in order, read lazily. */
  static Source<EventLine, NotUsed> stream(String session, Path file, long after, long before) {
    return Source.lazySource(() -> Files.isRegularFile(file)
            ? FileIO.fromPath(file)
                .via(Framing.delimiter(ByteString.fromString("\n"), MAX_LINE, FramingTruncation.ALLOW))
                .map(bytes -> parse(session, bytes.utf8String()))
                .takeWhile(line -> line.seq() > 0 && (before == 0 || line.seq() < before))
                .filter(line -> line.seq() > after)
                .mapMaterializedValue(ignored -> NotUsed.getInstance())
            : Source.<EventLine>empty())
        .mapMaterializedValue(ignored -> NotUsed.getInstance());
  }

  /**
   * The text of a block's {@code output} events in order, as UTF-8: the whole output of a block that ended with
   * {@code output_file} null. Only lines that can be its output events are parsed.
   */
  public static Source<ByteString, NotUsed> blockOutput(Path file, int block) {
    String blockField = "\"block\":" + block + ",";
    return stream("", file, 0, 0)
        .filter(line -> line.json().contains("\"type\":\"output\"") && line.json().contains(blockField))
        .map(line -> EventCodec.mapper().readTree(line.json()))
        .filter(node -> "output".equals(node.path("type").asText()) && node.path("block").asInt() == block)
        .map(node -> ByteString.fromString(node.path("text").asText(), StandardCharsets.UTF_8));
  }

  /** One page of the transcript: up to {@code limit} events with {@code seq > after}. */
  public record Page(ArrayNode events, long nextAfter, boolean more) {}

  public static Page page(Path file, long after, int limit) throws IOException {
    ArrayNode events = EventCodec.mapper().createArrayNode();
    long next = after;
    boolean more = false;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        JsonNode node = tryParse(line);
        if (node == null) {
          break;
        }
        long seq = node.path("seq").asLong();
        if (seq <= after) {
          continue;
        }
        if (events.size() == limit) {
          more = true;
          break;
        }
        events.add(node);
        next = seq;
      }
    } catch (NoSuchFileException e) {
      // no event journaled yet
    }
    return new Page(events, next, more);
  }

  /** The line as an event line; seq 0 when it does not parse (a line still being written). */
  private static EventLine parse(String session, String line) {
    JsonNode node = tryParse(line);
    return node == null ? new EventLine(session, 0, line) : new EventLine(session, node.path("seq").asLong(), line);
  }

  private static JsonNode tryParse(String line) {
    if (line.isBlank()) {
      return null;
    }
    try {
      JsonNode node = EventCodec.mapper().readTree(line);
      return node != null && node.isObject() && node.path("seq").canConvertToLong() ? node : null;
    } catch (IOException e) {
      return null;
    }
  }
}
