package io.interpreter4j.runtime.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.PromptBuilder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConversationEditsTest {
  private static final ChatMessage SYSTEM = ChatMessage.system("sys");

  @Test
  void undoCutsAtTheUsersLastMessage() {
    List<ChatMessage> history = List.of(SYSTEM, ChatMessage.user("a"), ChatMessage.assistant("A"),
        ChatMessage.user("b"), ChatMessage.assistant("```bash\nls\n```"),
        ChatMessage.user("Block 1 (bash) finished with exit code 0.\nIt printed no output."),
        ChatMessage.assistant("B"));
    assertEquals(Optional.of(history.subList(0, 3)), ConversationEdits.undo(history, "b"));
    assertEquals(Optional.of(List.of(SYSTEM)), ConversationEdits.undo(history.subList(0, 3), "a"));
  }

  @Test
  void undoKeepsResultsThatShareTheMessage() {
    List<ChatMessage> history = List.of(SYSTEM, ChatMessage.user("a"), ChatMessage.assistant("```bash\nsleep 9\n```"),
        ChatMessage.user("Block 1 (bash) was interrupted by the user (exit code 130).\n\nb"));
    assertEquals(Optional.of(List.of(SYSTEM, ChatMessage.user("a"), ChatMessage.assistant("```bash\nsleep 9\n```"),
        ChatMessage.user("Block 1 (bash) was interrupted by the user (exit code 130)."))),
        ConversationEdits.undo(history, "b"));
  }

  @Test
  void undoOfATextThatIsNotThereChangesNothing() {
    assertEquals(Optional.empty(), ConversationEdits.undo(List.of(SYSTEM, ChatMessage.user("a")), "zzz"));
  }

  @Test
  void generatedMessagesAreToldApartFromTheUsers() {
    assertTrue(ConversationEdits.isGenerated(PromptBuilder.blockResult(3, "python", 1, false, false, "x", null)));
    assertTrue(ConversationEdits.isGenerated(PromptBuilder.declined(2, "no")));
    assertTrue(ConversationEdits.isGenerated(PromptBuilder.blockedByPolicy(2, "rm")));
    assertTrue(ConversationEdits.isGenerated(PromptBuilder.unknownLanguage(2, "cobol", List.of("python"))));
    assertFalse(ConversationEdits.isGenerated("Block the port 22 please"));
    assertEquals(List.of("a", "c"), ConversationEdits.userTexts(List.of(ChatMessage.user("a"),
        ChatMessage.assistant("b"), ChatMessage.user("c"), ChatMessage.assistant("```bash\nx\n```"),
        ChatMessage.user(PromptBuilder.declined(1, null)))));
  }

  @Test
  void restorableMessagesHaveNoSystemPromptAndAlternate() {
    assertEquals(List.of(ChatMessage.user("a\n\nb"), ChatMessage.assistant("c")),
        ConversationEdits.restorable(List.of(SYSTEM, ChatMessage.user("a"), ChatMessage.user("b"),
            ChatMessage.assistant(""), ChatMessage.assistant("c"))));
  }

  @Test
  void eventMessagesRoundTrip() {
    List<ChatMessage> history = List.of(SYSTEM, ChatMessage.user("a"), ChatMessage.assistant("b"));
    List<EventPayload.Message> event = ConversationEdits.forEvent(history);
    assertEquals(List.of(new EventPayload.Message("user", "a"), new EventPayload.Message("assistant", "b")), event);
    assertEquals(history.subList(1, 3), ConversationEdits.fromEvent(event));
    assertThrows(IllegalArgumentException.class,
        () -> ConversationEdits.fromEvent(List.of(new EventPayload.Message("tool", "x"))));
  }
}
