package io.interpreter4j.core.replay;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A recorded conversation for the replay model: the model's replies turn by turn, each optionally guarded by a
 * regex the conversation's last message must contain. Loaded from JSON:
 * {@code {"turns": [{"expect": "regex", "expect_images": 1, "reply": "markdown", "chunk_chars": 4, "delay_ms": 0}]}}.
 *
 * @param source where the cassette came from (the file path as given), used in error messages
 * @param turns  the turns in order, at least one
 */
public record Cassette(String source, List<Turn> turns) {

  public static final int DEFAULT_CHUNK_CHARS = 4;

  private static final Set<String> TURN_FIELDS = Set.of("expect", "expect_images", "reply", "chunk_chars",
      "delay_ms");
  private static final String TURN_FIELD_LIST = "expect, expect_images, reply, chunk_chars, delay_ms";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  public Cassette {
    turns = List.copyOf(turns);
  }

  /**
   * One scripted model reply.
   *
   * @param expect       Java regex (DOTALL) that must be found in the last message, or null to accept anything
   * @param reply        the markdown the model answers
   * @param chunkChars   how many code points each streamed chunk carries, at least 1
   * @param delayMs      pause between chunks in milliseconds, 0 for none
   * @param expectImages how many images the last message must carry, or null to accept any number
   */
  public record Turn(String expect, String reply, int chunkChars, long delayMs, Integer expectImages) {

    /** A turn that accepts any number of images. */
    public Turn(String expect, String reply, int chunkChars, long delayMs) {
      this(expect, reply, chunkChars, delayMs, null);
    }

    public Turn {
      if (expectImages != null && expectImages < 0) {
        throw new IllegalArgumentException("expectImages must not be negative, was " + expectImages);
      }
      if (reply == null) {
        throw new IllegalArgumentException("reply is required");
      }
      if (chunkChars < 1) {
        throw new IllegalArgumentException("chunkChars must be at least 1, was " + chunkChars);
      }
      if (delayMs < 0) {
        throw new IllegalArgumentException("delayMs must not be negative, was " + delayMs);
      }
    }

    /** A turn that accepts any message and streams in default-sized chunks without delay. */
    public static Turn of(String reply) {
      return new Turn(null, reply, DEFAULT_CHUNK_CHARS, 0);
    }

    /** The compiled expectation; empty when the turn accepts any message. */
    public Optional<Pattern> expectPattern() {
      return Optional.ofNullable(expect).map(regex -> Pattern.compile(regex, Pattern.DOTALL));
    }
  }

  /** Reads and validates a cassette file; {@code source} in the result and in errors is the path as given. */
  public static Cassette load(Path file) {
    String json;
    try {
      json = Files.readString(file);
    } catch (IOException e) {
      throw new CassetteException("cassette " + file + ": cannot read the file (" + e.getClass().getSimpleName()
          + ": " + e.getMessage() + "); check the path and that the file is readable UTF-8", e);
    }
    return parse(json, file.toString());
  }

  /** Parses and validates cassette JSON; {@code source} names it in error messages. */
  public static Cassette parse(String json, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      // Jackson describes the input as "[Source: REDACTED (...); line: ..." which only adds noise here.
      String problem = e.getOriginalMessage().replaceAll("\\[Source: .*?; line: ", "[line: ");
      throw new CassetteException(prefix(source) + "not valid JSON" + where + ": " + problem
          + "; fix the syntax (strings need \\n for newlines and \\\" for quotes)", e);
    }
    if (root == null || !root.isObject()) {
      throw new CassetteException(prefix(source) + "the top level must be an object; write "
          + "{\"turns\": [{\"reply\": \"...\"}]}");
    }
    for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!name.equals("turns")) {
        throw new CassetteException(prefix(source) + "unknown top-level field \"" + name
            + "\"; the only top-level field is \"turns\"");
      }
    }
    JsonNode turnsNode = root.get("turns");
    if (turnsNode == null || !turnsNode.isArray()) {
      throw new CassetteException(prefix(source) + "missing \"turns\" array; write "
          + "{\"turns\": [{\"reply\": \"...\"}]}");
    }
    if (turnsNode.isEmpty()) {
      throw new CassetteException(prefix(source) + "\"turns\" is empty; add at least one turn with a \"reply\"");
    }
    List<Turn> turns = new ArrayList<>();
    for (int i = 0; i < turnsNode.size(); i++) {
      turns.add(parseTurn(turnsNode.get(i), source, i + 1));
    }
    return new Cassette(source, turns);
  }

  /** The cassette as the file {@link #load} reads: indented JSON in UTF-8, without {@code expect} when null. */
  public byte[] toJson() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode list = root.putArray("turns");
    for (Turn turn : turns) {
      ObjectNode node = list.addObject();
      if (turn.expect() != null) {
        node.put("expect", turn.expect());
      }
      if (turn.expectImages() != null) {
        node.put("expect_images", turn.expectImages());
      }
      node.put("reply", turn.reply());
      node.put("chunk_chars", turn.chunkChars());
      node.put("delay_ms", turn.delayMs());
    }
    try {
      return JSON.writer(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers always serialises", e);
    }
  }

  private static Turn parseTurn(JsonNode node, String source, int number) {
    String at = prefix(source) + "turn " + number + ": ";
    if (!node.isObject()) {
      throw new CassetteException(at + "must be an object like {\"reply\": \"...\"}, found " + describe(node));
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!TURN_FIELDS.contains(name)) {
        throw new CassetteException(at + "unknown field \"" + name + "\"; the allowed fields are " + TURN_FIELD_LIST);
      }
    }
    JsonNode reply = node.get("reply");
    if (reply == null || reply.isNull()) {
      throw new CassetteException(at + "missing \"reply\"; add the markdown text the model should answer");
    }
    if (!reply.isTextual()) {
      throw new CassetteException(at + "\"reply\" must be a string, found " + describe(reply));
    }
    String expect = null;
    JsonNode expectNode = node.get("expect");
    if (expectNode != null && !expectNode.isNull()) {
      if (!expectNode.isTextual()) {
        throw new CassetteException(at + "\"expect\" must be a string (a Java regex), found " + describe(expectNode));
      }
      expect = expectNode.asText();
      try {
        Pattern.compile(expect, Pattern.DOTALL);
      } catch (PatternSyntaxException e) {
        throw new CassetteException(at + "\"expect\" is not a valid Java regex: " + e.getDescription()
            + " near index " + e.getIndex() + " of /" + expect + "/; escape special characters with a backslash"
            + " (written \\\\ in JSON), e.g. \"\\\\(\" for a literal (", e);
      }
    }
    int chunkChars = (int) wholeNumber(node, "chunk_chars", DEFAULT_CHUNK_CHARS, 1, at);
    long delayMs = wholeNumber(node, "delay_ms", 0, 0, at);
    Integer expectImages = null;
    if (node.hasNonNull("expect_images")) {
      expectImages = (int) wholeNumber(node, "expect_images", 0, 0, at);
    }
    return new Turn(expect, reply.asText(), chunkChars, delayMs, expectImages);
  }

  private static long wholeNumber(JsonNode turn, String field, long defaultValue, long min, String at) {
    JsonNode value = turn.get(field);
    if (value == null || value.isNull()) {
      return defaultValue;
    }
    long max = field.equals("delay_ms") ? Long.MAX_VALUE : Integer.MAX_VALUE;
    if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < min || value.asLong() > max) {
      throw new CassetteException(at + "\"" + field + "\" is " + describe(value) + "; use a whole number of at least "
          + min + (field.equals("expect_images") ? " (leave it out to accept any number)"
              : " (default " + defaultValue + ")"));
    }
    return value.asLong();
  }

  private static String prefix(String source) {
    return "cassette " + source + ": ";
  }

  private static String describe(JsonNode node) {
    String text = node.toString();
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }
}
