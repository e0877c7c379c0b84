package io.interpreter4j.core.model;

import java.util.List;

/** A request for one model call: the model's name (without provider prefix) and the whole conversation. */
public record ModelRequest(String model, List<ChatMessage> messages) {

  public ModelRequest {
    messages = List.copyOf(messages);
  }

  /** The last message of the conversation, or "" when there is none. */
  public String lastMessageText() {
    return messages.isEmpty() ? "" : messages.get(messages.size() - 1).content();
  }

  /** How many images the last message carries, 0 when there is none. */
  public int lastMessageImages() {
    return messages.isEmpty() ? 0 : messages.get(messages.size() - 1).images().size();
  }
}
