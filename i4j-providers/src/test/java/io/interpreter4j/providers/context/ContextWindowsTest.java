package io.interpreter4j.providers.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.model.ChatMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextWindowsTest {

  @Test
  void knowsCommonModels() {
    assertEquals(128_000, ContextWindows.forModel("gpt-4o"));
    assertEquals(128_000, ContextWindows.forModel("gpt-4o-mini-2024-07-18"));
    assertEquals(1_047_576, ContextWindows.forModel("gpt-4.1-mini"));
    assertEquals(200_000, ContextWindows.forModel("o3-mini"));
    assertEquals(200_000, ContextWindows.forModel("claude-sonnet-4-5"));
    assertEquals(200_000, ContextWindows.forModel("anthropic/claude-3.5-sonnet"));
    assertEquals(8_192, ContextWindows.forModel("llama3:70b"));
    assertEquals(8_192, ContextWindows.forModel("llama3-8b-8192"));
    assertEquals(128_000, ContextWindows.forModel("llama3.1:8b"));
    assertEquals(128_000, ContextWindows.forModel("meta-llama/llama-3.3-70b-instruct"));
    assertEquals(32_768, ContextWindows.forModel("qwen2.5-coder:7b"));
    assertEquals(32_768, ContextWindows.forModel("mistral"));
    assertEquals(ContextWindows.UNKNOWN, ContextWindows.forModel("my-finetune"));
  }

  @Test
  void inputBudgetReservesTheReplyButAtMostAQuarter() {
    assertEquals(128_000 - 4096, ContextWindows.inputBudget("gpt-4o", 0, 4096));
    assertEquals(8_192 - 2_048, ContextWindows.inputBudget("llama3", 0, 4096));
    assertEquals(30_000, ContextWindows.inputBudget("llama3", 40_000, 10_000));
  }

  @Test
  void countsOpenAiTokensExactlyAndOthersConservatively() {
    TokenCounter openAi = TokenCounter.forModel("gpt-4o");
    assertEquals(2, openAi.count("hello world"));
    assertEquals(4, TokenCounter.estimate().count("hello world"));
    String code = "for i in range(10):\n    print(i * i)\n";
    assertTrue(TokenCounter.forModel("llama3").count(code) >= openAi.count(code));
    assertEquals(openAi.count("hi") + TokenCounter.MESSAGE_OVERHEAD + TokenCounter.REPLY_PRIMING,
        openAi.count(List.of(ChatMessage.user("hi"))));
  }
}
