package io.interpreter4j.runtime.session;

import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The conversation of one session as the model gets it: the system prompt first, then user and assistant
 * messages with roles alternating (block results are user messages, merged with a user text beside them). It also
 * remembers the user's own texts (what {@code %undo} takes back) and the session's title. Pure; used from the
 * session actor's thread only.
 */
final class Conversation {

  private static final int TITLE_LENGTH = 80;

  private String systemPrompt;
  /** What a restore added to the system prompt about this conversation, or null. */
  private String note;
  private final List<ChatMessage> history = new ArrayList<>();
  private final List<ChatMessage> view = Collections.unmodifiableList(history);
  /** The user's own texts, newest first. */
  private final Deque<String> userTexts = new ArrayDeque<>();
  private String title = "";

  Conversation(String systemPrompt) {
    this.systemPrompt = systemPrompt;
    history.add(ChatMessage.system(systemPrompt));
  }

  /**
   * Adds a paragraph to the system prompt, from the next model call on and after a reset or restore too (a change
   * of where the code runs, which stays true for the rest of the session).
   */
  void amendSystemPrompt(String paragraph) {
    systemPrompt = systemPrompt.stripTrailing() + "\n\n" + paragraph.strip() + "\n";
    history.set(0, ChatMessage.system(withNote(note)));
  }

  /** Everything the model gets on the next call, system prompt first (a read-only view). */
  List<ChatMessage> forModel() {
    return view;
  }

  /** The messages without the system prompt, as a copy. */
  List<ChatMessage> messages() {
    return List.copyOf(history.subList(1, history.size()));
  }

  String title() {
    return title;
  }

  /** A message the user typed: the first one names the conversation. */
  void userSaid(String text) {
    if (title.isEmpty()) {
      title = titleOf(text);
    }
    addUser(text);
    userTexts.push(text);
  }

  /** A user-role message written by the session (block results), merged with a user message before it. */
  void addUser(String text) {
    addUser(text, List.of());
  }

  /** As {@link #addUser(String)}, with the images the block results carry to the model. */
  void addUser(String text, List<ImageRef> images) {
    int last = history.size() - 1;
    if (last > 0 && history.get(last).role() == ChatMessage.Role.USER) {
      history.set(last, history.get(last).append(text, images));
    } else {
      history.add(ChatMessage.user(text, images));
    }
  }

  void addAssistant(String text) {
    history.add(ChatMessage.assistant(text));
  }

  /** A new conversation: only the system prompt is kept, and the title is forgotten. */
  void reset() {
    replace(List.of(), null);
    title = "";
  }

  /** Takes back the user's last message and everything after it; the text taken back, or empty if none. */
  Optional<String> undo() {
    String last = userTexts.peek();
    if (last == null) {
      return Optional.empty();
    }
    Optional<List<ChatMessage>> undone = ConversationEdits.undo(history, last);
    if (undone.isEmpty()) {
      return Optional.empty();
    }
    userTexts.pop();
    history.clear();
    history.addAll(undone.get());
    return Optional.of(last);
  }

  /** Replaces the conversation with restored messages; {@code note}, if set, is added to the system prompt. */
  void restore(List<ChatMessage> messages, String note) {
    replace(ConversationEdits.restorable(messages), note);
    ConversationEdits.userTexts(history).forEach(userTexts::push);
    if (title.isEmpty() && !userTexts.isEmpty()) {
      title = titleOf(userTexts.peekLast());
    }
  }

  /** How many messages there are, the system prompt not counted. */
  int size() {
    return history.size() - 1;
  }

  private void replace(List<ChatMessage> messages, String note) {
    history.clear();
    userTexts.clear();
    this.note = note;
    history.add(ChatMessage.system(withNote(note)));
    history.addAll(messages);
  }

  private String withNote(String about) {
    return about == null || about.isBlank() ? systemPrompt
        : systemPrompt + "\n# About this conversation\n" + about.strip() + "\n";
  }

  private static String titleOf(String text) {
    String firstLine = text.strip().lines().findFirst().orElse("");
    return firstLine.length() > TITLE_LENGTH ? firstLine.substring(0, TITLE_LENGTH - 3) + "..." : firstLine;
  }
}
