package io.interpreter4j.providers.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.providers.tools.ToolHistory.Calls;
import io.interpreter4j.providers.tools.ToolHistory.Plain;
import io.interpreter4j.providers.tools.ToolHistory.Result;
import io.interpreter4j.providers.tools.ToolHistory.Results;
import io.interpreter4j.providers.tools.ToolHistory.Turn;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolHistoryTest {

  private static final ChatMessage SYSTEM = ChatMessage.system("rules");
  private static final ChatMessage TASK = ChatMessage.user("what is 6*7?");
  private static final ExecuteCall PRINT = new ExecuteCall("call_1", "execute",
      "{\"language\":\"python\",\"code\":\"print(6*7)\\n\"}", "python", "print(6*7)\n");
  private static final ExecuteCall LS = new ExecuteCall("call_2", "execute", "{\"language\":\"bash\",\"code\":\"ls\"}",
      "bash", "ls");
  private static final String RESULT_1 = PromptBuilder.blockResult(1, "python", 0, false, false, "42\n", null);

  /** A reply as the session keeps it: prose, then the block rendered with plain fences. */
  private static ChatMessage reply(String prose, String... blocks) {
    StringBuilder sb = new StringBuilder(prose);
    for (int i = 0; i < blocks.length; i += 2) {
      sb.append("```").append(blocks[i]).append('\n').append(blocks[i + 1]);
      if (!blocks[i + 1].endsWith("\n")) {
        sb.append('\n');
      }
      sb.append("```\n");
    }
    return ChatMessage.assistant(sb.toString());
  }

  @Test
  void aReplyEndingWithACallAndItsResultBecomeCallsAndResults() {
    List<Turn> turns = ToolHistory.map(List.of(SYSTEM, TASK, reply("I'll compute it.\n", "python", "print(6*7)\n"),
        ChatMessage.user(RESULT_1), ChatMessage.assistant("It is 42.")), List.of(PRINT));

    assertEquals(List.of(new Plain(SYSTEM), new Plain(TASK), new Calls("I'll compute it.", List.of(PRINT)),
        new Results(List.of(new Result("call_1", RESULT_1)), ""), new Plain(ChatMessage.assistant("It is 42."))),
        turns);
  }

  @Test
  void declinedAndBlockedResultsAreResultsToo() {
    String declined = PromptBuilder.declined(1, "not now");
    String blocked = PromptBuilder.blockedByPolicy(1, "blocked by policy: deletes your home; choose a safer way");
    String unknown = PromptBuilder.unknownLanguage(1, "javascript", List.of("python", "bash"));
    for (String result : List.of(declined, blocked, unknown)) {
      List<Turn> turns = ToolHistory.map(List.of(TASK, reply("", "python", "print(6*7)"), ChatMessage.user(result)),
          List.of(PRINT));
      assertEquals(new Calls("", List.of(PRINT)), turns.get(1));
      assertEquals(new Results(List.of(new Result("call_1", result)), ""), turns.get(2));
    }
  }

  @Test
  void theUsersNextMessageMergedIntoTheResultFollowsTheToolResults() {
    String declined = PromptBuilder.declined(1, "");
    for (String result : List.of(RESULT_1, declined,
        PromptBuilder.blockResult(1, "python", 0, false, false, "", null),
        PromptBuilder.blockResult(1, "python", 1, false, false, "```\nfenced output\n```\n\nmore", "state reset"))) {
      List<Turn> turns = ToolHistory.map(List.of(TASK, reply("", "python", "print(6*7)"),
          ChatMessage.user(result + "\n\nNow do it in bash.")), List.of(PRINT));
      assertEquals(new Results(List.of(new Result("call_1", result)), "Now do it in bash."), turns.get(2));
    }
  }

  @Test
  void twoCallsGetTheirOwnResultsAndOneThatDidNotRunSaysSo() {
    ChatMessage twoBlocks = reply("Both:\n", "python", "print(6*7)\n", "bash", "ls");
    String result2 = PromptBuilder.blockResult(2, "bash", 0, false, false, "a.txt\n", null);
    List<Turn> both = ToolHistory.map(List.of(TASK, twoBlocks, ChatMessage.user(RESULT_1 + "\n\n" + result2)),
        List.of(PRINT, LS));
    assertEquals(new Calls("Both:", List.of(PRINT, LS)), both.get(1));
    assertEquals(new Results(List.of(new Result("call_1", RESULT_1), new Result("call_2", result2)), ""), both.get(2));

    String failed = PromptBuilder.blockResult(1, "python", 1, false, false, "Traceback\n", null);
    List<Turn> stopped = ToolHistory.map(List.of(TASK, twoBlocks, ChatMessage.user(failed)), List.of(PRINT, LS));
    assertEquals(new Results(List.of(new Result("call_1", failed), new Result("call_2", ToolHistory.NOT_RUN)), ""),
        stopped.get(2));
  }

  @Test
  void aBlockTheModelWroteItselfStaysTextAndItsResultGoesToTheUserText() {
    ChatMessage mixed = reply("First:\n", "bash", "echo hi", "python", "print(6*7)");
    String hi = PromptBuilder.blockResult(5, "bash", 0, false, false, "hi\n", null);
    String six = PromptBuilder.blockResult(6, "python", 0, false, false, "42\n", null);
    List<Turn> turns = ToolHistory.map(List.of(TASK, mixed, ChatMessage.user(hi + "\n\n" + six)), List.of(PRINT));
    assertEquals(new Calls("First:\n```bash\necho hi\n```", List.of(PRINT)), turns.get(1));
    assertEquals(new Results(List.of(new Result("call_1", six)), hi), turns.get(2));
  }

  @Test
  void withoutAResultOrAKnownCallEverythingStaysText() {
    ChatMessage r = reply("", "python", "print(6*7)");
    List<ChatMessage> interrupted = List.of(TASK, r, ChatMessage.user("stop, do something else"));
    assertEquals(interrupted.stream().map(Plain::new).toList(), ToolHistory.map(interrupted, List.of(PRINT)));
    List<ChatMessage> last = List.of(TASK, r);
    assertEquals(last.stream().map(Plain::new).toList(), ToolHistory.map(last, List.of(PRINT)));
    List<ChatMessage> unknown = List.of(TASK, r, ChatMessage.user(RESULT_1));
    assertEquals(unknown.stream().map(Plain::new).toList(), ToolHistory.map(unknown, List.of(LS)));
    List<ChatMessage> proseAfter = List.of(TASK, ChatMessage.assistant(r.content() + "Done?"),
        ChatMessage.user(RESULT_1));
    assertEquals(proseAfter.stream().map(Plain::new).toList(), ToolHistory.map(proseAfter, List.of(PRINT)));
  }

  @Test
  void theSameCodeCalledTwiceGetsBothCallsWithDistinctIds() {
    ExecuteCall again = PRINT.withId("call_1");
    String result2 = PromptBuilder.blockResult(2, "python", 0, false, false, "42\n", null);
    List<Turn> turns = ToolHistory.map(List.of(TASK, reply("", "python", "print(6*7)"), ChatMessage.user(RESULT_1),
        reply("Again.\n", "python", "print(6*7)"), ChatMessage.user(result2)), List.of(PRINT, again));
    Calls first = assertInstanceOf(Calls.class, turns.get(1));
    Calls second = assertInstanceOf(Calls.class, turns.get(3));
    assertEquals("call_1", first.calls().get(0).id());
    assertEquals("call_1_2", second.calls().get(0).id());
    assertEquals("call_1_2", ((Results) turns.get(4)).results().get(0).callId());
  }

  @Test
  void aResultCutByTheContextWindowStillGoesBack() {
    String cut = RESULT_1.substring(0, 30) + "\n[... 500 characters cut to fit the context window ...]\n";
    List<Turn> turns = ToolHistory.map(List.of(TASK, reply("", "python", "print(6*7)"), ChatMessage.user(cut)),
        List.of(PRINT));
    assertEquals(new Results(List.of(new Result("call_1", cut.strip())), ""), turns.get(2));
  }
}
