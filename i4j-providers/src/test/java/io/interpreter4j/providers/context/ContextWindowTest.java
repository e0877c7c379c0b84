package io.interpreter4j.providers.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ModelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextWindowTest {

  /** One token per character: budgets in the tests read as character counts. */
  private static final TokenCounter CHARS = String::length;

  private static ChatMessage output(int block, int chars) {
    return ChatMessage.user("Block " + block + " (python) finished with exit code 0.\nOutput:\n```output\n"
        + "x".repeat(chars) + "\n```");
  }

  private static int cost(List<ChatMessage> messages) {
    return CHARS.count(messages);
  }

  /** system, first request, then rounds of (assistant code, block output), then a final user turn. */
  private static List<ChatMessage> session(int rounds, int outputChars) {
    List<ChatMessage> m = new ArrayList<>();
    m.add(ChatMessage.system("You run code."));
    m.add(ChatMessage.user("Analyse the data"));
    for (int i = 1; i <= rounds; i++) {
      m.add(ChatMessage.assistant("```python\nstep(" + i + ")\n```"));
      m.add(output(i, outputChars));
    }
    m.add(ChatMessage.assistant("Done with the analysis."));
    m.add(ChatMessage.user("Now plot it"));
    return m;
  }

  @Test
  void aConversationThatFitsIsReturnedAsIs() {
    List<ChatMessage> m = session(2, 100);
    assertSame(m, ContextWindow.fit(m, cost(m), CHARS));
  }

  @Test
  void oldOutputsAreCutFirstKeepingHeadAndTail() {
    List<ChatMessage> m = session(4, 5_000);
    int budget = cost(m) - 5_000;

    List<ChatMessage> fitted = ContextWindow.fit(m, budget, CHARS);

    assertEquals(m.size(), fitted.size(), "no turn dropped");
    assertTrue(cost(fitted) <= budget);
    String first = fitted.get(3).content();
    assertTrue(first.startsWith("Block 1 (python)"), first);
    assertTrue(first.contains("characters cut to fit the context window"), first);
    assertTrue(first.endsWith("x\n```"), first);
    assertEquals(m.get(9), fitted.get(9), "the latest turns' outputs stay whole");
  }

  @Test
  void oldestTurnsAreDroppedKeepingSystemFirstMessageAndLatestTurns() {
    List<ChatMessage> m = session(6, 100);
    List<ChatMessage> latest = m.subList(m.size() - 4, m.size());
    int budget = cost(m.subList(0, 2)) + cost(latest) + 10;

    List<ChatMessage> fitted = ContextWindow.fit(m, budget, CHARS);

    assertTrue(cost(fitted) <= budget);
    assertEquals(m.get(0), fitted.get(0));
    assertEquals(m.get(1), fitted.get(1));
    assertEquals(latest, fitted.subList(fitted.size() - 4, fitted.size()));
    assertTrue(fitted.size() < m.size());
    assertFalse(fitted.contains(m.get(2)), "the oldest reply went first");
  }

  @Test
  void theLatestOutputIsCutRatherThanFailing() {
    List<ChatMessage> m = new ArrayList<>(List.of(ChatMessage.system("sys"), ChatMessage.user("go"),
        ChatMessage.assistant("```bash\ncat big.log\n```"), output(1, 50_000)));
    List<ChatMessage> fitted = ContextWindow.fit(m, 2_000, CHARS);
    assertTrue(cost(fitted) <= 2_000);
    assertEquals(4, fitted.size());
  }

  @Test
  void aMinimumThatCannotFitFailsWithoutRetry() {
    List<ChatMessage> m = List.of(ChatMessage.system("s".repeat(5_000)), ChatMessage.user("hi"));
    ModelException e = assertThrows(ModelException.class, () -> ContextWindow.fit(m, 1_000, CHARS));
    assertFalse(e.retryable());
    assertTrue(e.getMessage().contains("does not fit the model's context window"), e.getMessage());
    assertTrue(e.getMessage().contains("1000 are available"), e.getMessage());
  }

  @Test
  void recognisesBlockOutputs() {
    assertTrue(ContextWindow.isBlockOutput(output(3, 10)));
    assertFalse(ContextWindow.isBlockOutput(ChatMessage.user("Block the door")));
    assertFalse(ContextWindow.isBlockOutput(ChatMessage.assistant("```output\nx\n```")));
  }

  @Test
  void cutMiddleKeepsBothEnds() {
    String cut = ContextWindow.cutMiddle("a".repeat(50) + "b".repeat(50), 10);
    assertEquals("aaaaa\n[... 90 characters cut to fit the context window ...]\nbbbbb", cut);
    assertEquals("short", ContextWindow.cutMiddle("short", 10));
  }

  @Test
  void imagesGoFirstOldestFirstEachLeavingANote() {
    ImageRef a = new ImageRef("/o/a.png", "image/png", 750, 1000);
    ImageRef b = new ImageRef("/o/b.png", "image/png", 750, 1000);
    ImageRef c = new ImageRef("/o/c.png", "image/png", 750, 1000);
    List<ChatMessage> messages = List.of(ChatMessage.system("s"), ChatMessage.user("go"),
        ChatMessage.assistant("one"), ChatMessage.user("Block 1 (python) finished with exit code 0.", List.of(a, b)),
        ChatMessage.assistant("two"), ChatMessage.user("Block 2 (python) finished with exit code 0.", List.of(c)));
    TokenCounter counter = TokenCounter.estimate();
    int all = counter.count(messages);
    // Each image costs 1000 tokens: room for one image and the text.
    List<ChatMessage> fitted = ContextWindow.fit(messages, all - 1500, counter);

    assertEquals(messages.size(), fitted.size(), "no text was dropped");
    assertEquals(List.of(), fitted.get(3).images());
    assertEquals("Block 1 (python) finished with exit code 0.\n" + ContextWindow.droppedImageNote(a) + "\n"
        + ContextWindow.droppedImageNote(b), fitted.get(3).content());
    assertEquals(List.of(c), fitted.get(5).images(), "the latest image is kept");
    assertEquals(1000, c.tokens());
  }
}
