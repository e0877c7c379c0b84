package io.interpreter4j.runtime.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.PromptBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  @Test
  void aResultRestoredFromTextGetsBackTheImagesItsLinesNameWhereTheFilesStillAre(@TempDir Path dir) throws Exception {
    Path outputs = Files.createDirectories(dir.resolve("outputs"));
    Path kept = Files.write(outputs.resolve("block-1-1.png"), new byte[] {1});
    Path gone = outputs.resolve("block-1-2.png");
    Path elsewhere = Files.write(dir.resolve("photo.png"), new byte[] {1});
    String result = PromptBuilder.blockResult(1, "python", 0, false, false, "", null, List.of(
        PromptBuilder.imageNote(640, 480, "PNG", kept.toString()), PromptBuilder.imageNote(8, 8, "PNG", gone.toString()),
        PromptBuilder.imageNote(8, 8, "PNG", elsewhere.toString())));

    List<ChatMessage> restored = ConversationEdits.restorable(ConversationEdits.fromEvent(List.of(
        new EventPayload.Message("user", "plot"), new EventPayload.Message("assistant", "```python\nplot()\n```"),
        new EventPayload.Message("user", result))));

    assertEquals(List.of(new ImageRef(kept.toString(), "image/png", 640, 480)), restored.get(2).images());
    assertEquals(result, restored.get(2).content());
    assertEquals(List.of(), restored.get(0).images());
  }

  @Test
  void undoKeepsTheImagesOfTheResultsBeforeTheUsersText() {
    ImageRef plot = new ImageRef("/s/outputs/block-1-1.png", "image/png", 640, 480);
    List<ChatMessage> history = List.of(SYSTEM, ChatMessage.user("a"), ChatMessage.assistant("```python\nplot()\n```"),
        ChatMessage.user("Block 1 (python) finished with exit code 0.\n\nb", List.of(plot)));

    Optional<List<ChatMessage>> undone = ConversationEdits.undo(history, "b");

    assertEquals(List.of(plot), undone.orElseThrow().get(3).images());
  }
}
