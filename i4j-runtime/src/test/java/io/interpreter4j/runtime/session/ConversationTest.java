package io.interpreter4j.runtime.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.model.ChatMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationTest {

  /** The kept count is what counting every message of the model's view gives, after each change. */
  private static void counted(Conversation conversation) {
    assertEquals(Conversation.count(conversation.forModel()), conversation.chars());
  }

  @Test
  void theCharacterCountFollowsEveryChange() {
    Conversation conversation = new Conversation("You run code.");
    counted(conversation);
    conversation.userSaid("list the files");
    counted(conversation);
    conversation.addAssistant("```bash\nls\n```");
    counted(conversation);
    conversation.addUser("Block 1 (bash) finished with exit code 0.");
    conversation.addUser("and now count them"); // merged into the user message before it
    counted(conversation);
    conversation.amendSystemPrompt("Code runs in a sandbox.");
    counted(conversation);
    conversation.addAssistant("There are 3.");
    conversation.userSaid("thanks");
    counted(conversation);
    assertTrue(conversation.undo().isPresent());
    counted(conversation);
    conversation.restore(List.of(ChatMessage.user("a restored question"), ChatMessage.assistant("its answer")),
        "restored from an earlier session");
    counted(conversation);
    conversation.reset();
    counted(conversation);
    assertEquals(conversation.forModel().get(0).content().length(), conversation.chars());
  }
}
