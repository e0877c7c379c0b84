package io.interpreter4j.runtime.session;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.PromptBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The edits a session makes to its conversation between turns ({@code %undo}, {@code %load}, resume), as pure
 * functions over message lists. A user message may share its chat message with block results sent before it
 * (roles alternate, so consecutive user texts are joined with a blank line); undo strips just the user's text.
 */
public final class ConversationEdits {

  /** How block results, declines and refusals written by {@code PromptBuilder} begin. */
  private static final Pattern GENERATED = Pattern.compile(
      "^(Block \\d+ \\(|Block \\d+ was not executed|The user declined to run block \\d+)");

  private ConversationEdits() {}

  /**
   * The conversation without the user's last message {@code userText} and everything after it; empty when that
   * text is not at the end of any user message (nothing is undone then). {@code history} keeps its system prompt.
   */
  public static Optional<List<ChatMessage>> undo(List<ChatMessage> history, String userText) {
    for (int i = history.size() - 1; i >= 0; i--) {
      ChatMessage m = history.get(i);
      if (m.role() != ChatMessage.Role.USER) {
        continue;
      }
      List<ChatMessage> kept = new ArrayList<>(history.subList(0, i));
      if (m.content().equals(userText)) {
        return Optional.of(kept);
      }
      String suffix = "\n\n" + userText;
      if (m.content().endsWith(suffix)) {
        kept.add(ChatMessage.user(m.content().substring(0, m.content().length() - suffix.length()), m.images()));
        return Optional.of(kept);
      }
    }
    return Optional.empty();
  }

  /**
   * The user's own texts in restored messages, oldest first: every user message that is not a block result. A
   * user text that shares its message with results before it is not found, so it cannot be undone alone.
   */
  public static List<String> userTexts(List<ChatMessage> messages) {
    List<String> texts = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m.role() == ChatMessage.Role.USER && !isGenerated(m.content())) {
        texts.add(m.content());
      }
    }
    return texts;
  }

  /** Whether a user-role text was written by the session (a block's result, a decline) rather than the user. */
  public static boolean isGenerated(String text) {
    return GENERATED.matcher(text).find();
  }

  /**
   * Restored messages as the session keeps them: no system prompts, empty ones dropped, and a block result restored
   * from text alone (a user message without images) given back the images its lines {@code [image WxH FORMAT: PATH]} name, where the files still are.
   */
  public static List<ChatMessage> restorable(List<ChatMessage> messages) {
    List<ChatMessage> out = merged(messages);
    for (int i = 0; i < out.size(); i++) {
      ChatMessage m = out.get(i);
      if (m.role() == ChatMessage.Role.USER && m.images().isEmpty()) {
        List<ImageRef> found = PromptBuilder.imagesNamedIn(m.content()).stream()
            .filter(ConversationEdits::stillThere).toList();
        if (!found.isEmpty()) {
          out.set(i, m.withImages(found));
        }
      }
    }
    return out;
  }

  private static boolean stillThere(ImageRef image) {
    try {
      return Files.isRegularFile(Path.of(image.path()));
    } catch (RuntimeException badPath) {
      return false;
    }
  }

  private static List<ChatMessage> merged(List<ChatMessage> messages) {
    List<ChatMessage> out = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m.role() == ChatMessage.Role.SYSTEM || m.content() == null || m.content().isBlank()) {
        continue;
      }
      int last = out.size() - 1;
      if (last >= 0 && out.get(last).role() == m.role()) {
        out.set(last, out.get(last).append(m.content(), m.images()));
      } else {
        out.add(m);
      }
    }
    return out;
  }

  /** The messages of a {@code conversation} event: the history without its system prompt. */
  public static List<EventPayload.Message> forEvent(List<ChatMessage> history) {
    return history.stream()
        .filter(m -> m.role() != ChatMessage.Role.SYSTEM)
        .map(m -> new EventPayload.Message(m.role().name().toLowerCase(Locale.ROOT), m.content()))
        .toList();
  }

  /** Messages of a {@code conversation} event (or a saved file) as chat messages; unknown roles are an error. */
  public static List<ChatMessage> fromEvent(List<EventPayload.Message> messages) {
    List<ChatMessage> out = new ArrayList<>();
    for (EventPayload.Message m : messages) {
      ChatMessage.Role role = switch (m.role() == null ? "" : m.role().toLowerCase(Locale.ROOT)) {
        case "user" -> ChatMessage.Role.USER;
        case "assistant" -> ChatMessage.Role.ASSISTANT;
        case "system" -> ChatMessage.Role.SYSTEM;
        default -> throw new IllegalArgumentException("unknown message role '" + m.role()
            + "': use user or assistant");
      };
      out.add(new ChatMessage(role, m.content() == null ? "" : m.content()));
    }
    return out;
  }
}
