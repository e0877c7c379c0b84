package io.interpreter4j.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.interpreter4j.core.image.ImageRef;
import java.util.ArrayList;
import java.util.List;

/**
 * One message of the conversation sent to a model: its text, and the images it carries (block results only), by
 * reference. A provider without vision sends the text alone; the text always names each image in a line
 * {@code [image 640x480 PNG: PATH]}.
 */
public record ChatMessage(Role role, String content, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ImageRef> images) {

  public enum Role { SYSTEM, USER, ASSISTANT }

  public ChatMessage {
    images = images == null ? List.of() : List.copyOf(images);
  }

  /** A message without images. */
  public ChatMessage(Role role, String content) {
    this(role, content, List.of());
  }

  public static ChatMessage system(String content) { return new ChatMessage(Role.SYSTEM, content); }

  public static ChatMessage user(String content) { return new ChatMessage(Role.USER, content); }

  public static ChatMessage user(String content, List<ImageRef> images) {
    return new ChatMessage(Role.USER, content, images);
  }

  public static ChatMessage assistant(String content) { return new ChatMessage(Role.ASSISTANT, content); }

  /** This message followed by {@code text} after a blank line, with {@code more} images after its own. */
  public ChatMessage append(String text, List<ImageRef> more) {
    List<ImageRef> all = new ArrayList<>(images);
    all.addAll(more);
    return new ChatMessage(role, content + "\n\n" + text, all);
  }

  /** The same text with other images. */
  public ChatMessage withImages(List<ImageRef> other) {
    return new ChatMessage(role, content, other);
  }

  /** The same text without images. */
  public ChatMessage withoutImages() {
    return images.isEmpty() ? this : new ChatMessage(role, content, List.of());
  }

  /** The messages without their images: what a model without vision gets. */
  public static List<ChatMessage> withoutImages(List<ChatMessage> messages) {
    return messages.stream().anyMatch(m -> !m.images().isEmpty())
        ? messages.stream().map(ChatMessage::withoutImages).toList() : messages;
  }
}
