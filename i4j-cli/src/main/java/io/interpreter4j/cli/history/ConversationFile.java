package io.interpreter4j.cli.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.runtime.session.ConversationRebuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A conversation saved by {@code %save} and read by {@code %load}: JSON with the messages the model sees (without
 * the system prompt), {@code {"format": "interpreter4j-conversation", "version": 1, "session", "model", "saved",
 * "messages": [{"role": "user" | "assistant", "content": "..."}]}}. A bare array of such messages (as Open
 * Interpreter and OpenAI's API write them) loads too, and so does a session journal ({@code events.jsonl}).
 */
public final class ConversationFile {

  public static final String FORMAT = "interpreter4j-conversation";

  private ConversationFile() {}

  public static void write(Path file, String session, String model, List<ChatMessage> messages) throws IOException {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    root.put("format", FORMAT);
    root.put("version", 1);
    root.put("session", session);
    root.put("model", model);
    root.put("saved", Instant.now().toString());
    ArrayNode list = root.putArray("messages");
    for (ChatMessage m : messages) {
      if (m.role() == ChatMessage.Role.SYSTEM) {
        continue;
      }
      list.addObject().put("role", m.role().name().toLowerCase(Locale.ROOT)).put("content", m.content());
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n",
        StandardCharsets.UTF_8);
  }

  /**
   * Reads the messages of a saved conversation, a message array or a journal.
   *
   * @param maxOutput characters of a block's output the model got, to rebuild results from a journal
   * @throws IllegalArgumentException when the file holds no conversation; the message says what was expected
   */
  public static List<ChatMessage> read(Path file, int maxOutput) throws IOException {
    if (file.getFileName().toString().endsWith(".jsonl")) {
      return ConversationRebuilder.rebuild(Journal.read(file), maxOutput).messages();
    }
    JsonNode root;
    try {
      root = EventCodec.mapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(file + " is not JSON: " + e.getOriginalMessage());
    }
    JsonNode list = root != null && root.isArray() ? root : root == null ? null : root.get("messages");
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException(file + " holds no conversation: expected {\"messages\": [...]} "
          + "as %save writes it, or an array of {\"role\", \"content\"}");
    }
    List<ChatMessage> messages = new ArrayList<>();
    for (JsonNode m : list) {
      String role = m.path("role").asText("").toLowerCase(Locale.ROOT);
      JsonNode content = m.get("content");
      String text = content == null || content.isNull() ? "" : content.isTextual() ? content.asText()
          : textOf(content);
      switch (role) {
        case "user" -> messages.add(ChatMessage.user(text));
        case "assistant" -> messages.add(ChatMessage.assistant(text));
        case "system" -> { }
        default -> throw new IllegalArgumentException(file + ": message " + (messages.size() + 1)
            + " has role '" + role + "'; use user or assistant");
      }
    }
    return messages;
  }

  /** Content given as a list of parts ({@code [{"type": "text", "text": "..."}]}) as one text. */
  private static String textOf(JsonNode parts) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : parts) {
      if (part.hasNonNull("text")) {
        if (sb.length() > 0) {
          sb.append("\n\n");
        }
        sb.append(part.get("text").asText());
      }
    }
    return sb.toString();
  }
}
