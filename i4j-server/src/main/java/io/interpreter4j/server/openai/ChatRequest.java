package io.interpreter4j.server.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.model.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code POST /v1/chat/completions} body, checked: the last message is the user's new turn, the ones before it
 * seed a new session's conversation ({@code system} and {@code developer} messages become instructions added to the
 * system prompt). Content is a string or an array of {@code {"type": "text", "text"}} parts. A body that is not one
 * throws {@link IllegalArgumentException} saying what is wrong.
 *
 * @param model        the model asked for; null when not given
 * @param prompt       the new turn: the text of the last message, a {@code user} message
 * @param earlier      the user and assistant messages before it, in order
 * @param instructions the system and developer messages joined, or null when there are none
 * @param stream       whether the answer streams as {@code chat.completion.chunk}s
 * @param includeUsage {@code stream_options.include_usage}: a usage chunk before {@code [DONE]}
 * @param user         the caller's end-user id, or null (accepted, not used)
 */
public record ChatRequest(String model, String prompt, List<ChatMessage> earlier, String instructions,
                          boolean stream, boolean includeUsage, String user) {

  public ChatRequest {
    earlier = List.copyOf(earlier);
  }

  public static ChatRequest parse(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new IllegalArgumentException("the request body must be a JSON object");
    }
    JsonNode messages = body.get("messages");
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException("\"messages\" is required: a non-empty array of {role, content}");
    }
    List<ChatMessage> earlier = new ArrayList<>();
    List<String> instructions = new ArrayList<>();
    String prompt = null;
    for (int i = 0; i < messages.size(); i++) {
      JsonNode m = messages.get(i);
      if (!m.isObject()) {
        throw new IllegalArgumentException("messages[" + i + "] must be an object {role, content}");
      }
      String role = m.path("role").asText("");
      String content = content(m.get("content"), i);
      boolean last = i == messages.size() - 1;
      switch (role) {
        case "user" -> {
          if (last) {
            prompt = content;
          } else {
            earlier.add(ChatMessage.user(content));
          }
        }
        case "assistant" -> earlier.add(ChatMessage.assistant(content));
        case "system", "developer" -> instructions.add(content);
        case "tool", "function" -> throw new IllegalArgumentException("messages[" + i + "] has role \"" + role
            + "\": i4j runs code itself and takes no tool results; send user and assistant messages");
        default -> throw new IllegalArgumentException("messages[" + i + "] has role \"" + role
            + "\"; use user, assistant, system or developer");
      }
      if (last && !role.equals("user")) {
        throw new IllegalArgumentException("the last message must be the user's (it is the new turn), not \""
            + role + "\"");
      }
    }
    if (prompt.isBlank()) {
      throw new IllegalArgumentException("the last user message is blank; say what you want done");
    }
    return new ChatRequest(text(body, "model"), prompt, earlier,
        instructions.isEmpty() ? null : String.join("\n\n", instructions),
        bool(body, "stream"), includeUsage(body.get("stream_options")), text(body, "user"));
  }

  /** A message's content: a string, or the text parts of an array joined. */
  private static String content(JsonNode content, int index) {
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isTextual()) {
      return content.asText();
    }
    if (content.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode part : content) {
        if (!part.path("type").asText().equals("text") || !part.path("text").isTextual()) {
          throw new IllegalArgumentException("messages[" + index + "].content: only {\"type\": \"text\", \"text\"} "
              + "parts are taken (no images, audio or files)");
        }
        if (!sb.isEmpty()) {
          sb.append('\n');
        }
        sb.append(part.path("text").asText());
      }
      return sb.toString();
    }
    throw new IllegalArgumentException("messages[" + index + "].content must be a string or an array of text parts");
  }

  private static boolean includeUsage(JsonNode options) {
    if (options == null || options.isNull()) {
      return false;
    }
    if (!options.isObject()) {
      throw new IllegalArgumentException("\"stream_options\" must be an object");
    }
    return bool(options, "include_usage");
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("\"" + field + "\" must be a string");
    }
    return v.asText();
  }

  private static boolean bool(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return false;
    }
    if (!v.isBoolean()) {
      throw new IllegalArgumentException("\"" + field + "\" must be true or false");
    }
    return v.asBoolean();
  }
}
