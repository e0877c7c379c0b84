package io.interpreter4j.core.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptBuilderTest {
  private final HostInfo host = new HostInfo("Linux", "6.1", "amd64", "alice", "/home/alice/w", "/bin/bash",
      "3.11.7", List.of("python", "bash"));

  @Test
  void systemPromptCarriesHostFactsRulesAndCustomInstructions() {
    String p = PromptBuilder.systemPrompt(host, LocalDate.of(2026, 12, 2), "Answer in French.");
    assertTrue(p.contains("Linux 6.1 (amd64)"));
    assertTrue(p.contains("User: alice"));
    assertTrue(p.contains("Working directory: /home/alice/w"));
    assertTrue(p.contains("Shell: /bin/bash"));
    assertTrue(p.contains("Python: 3.11.7"));
    assertTrue(p.contains("Languages you can run: python, bash"));
    assertTrue(p.contains("2026-12-02"));
    assertTrue(p.contains("ONE code block at a time"));
    assertTrue(p.contains("virtual environment"));
    assertTrue(p.contains("outside the working directory"));
    assertTrue(p.endsWith("Answer in French.\n"));
  }

  @Test
  void noCustomSectionWithoutInstructions() {
    assertFalse(PromptBuilder.systemPrompt(host, LocalDate.of(2026, 12, 2), " ").contains("Custom instructions"));
  }

  @Test
  void blockResultSaysExitCodeNoticeAndOutput() {
    String m = PromptBuilder.blockResult(3, "bash", 7, false, false, "boom", "The shell was restarted.");
    assertTrue(m.startsWith("Block 3 (bash) finished with exit code 7."));
    assertTrue(m.contains("Note: The shell was restarted."));
    assertTrue(m.contains("```output\nboom\n```"));
    assertTrue(PromptBuilder.blockResult(1, "python", 124, true, false, "", null).contains("timed out"));
    assertTrue(PromptBuilder.blockResult(1, "python", 0, false, false, "", null).contains("no output"));
  }

  @Test
  void aModelWithoutVisionReadsALinePerImage() {
    String note = PromptBuilder.imageNote(640, 480, "PNG", "/s/outputs/block-2-1.png");
    assertEquals("[image 640x480 PNG: /s/outputs/block-2-1.png]", note);
    String m = PromptBuilder.blockResult(2, "python", 0, false, false, "plotted\n", null, java.util.List.of(note));
    assertTrue(m.endsWith("```output\nplotted\n```\n[image 640x480 PNG: /s/outputs/block-2-1.png]"), m);
  }

  @Test
  void declinedAndBlockedMessagesNameTheBlock() {
    assertTrue(PromptBuilder.declined(2, null).contains("declined to run block 2"));
    assertEquals("The user declined to run block 2; it was not executed. Reason: not on prod.\n"
        + "Ask what they want instead, or propose a different approach.", PromptBuilder.declined(2, " not on prod "));
    assertTrue(PromptBuilder.declined(2, "Why would you?").contains("Reason: Why would you?\nAsk"),
        "a reason that ends a sentence itself gets no second period");
    assertTrue(PromptBuilder.blockedByPolicy(2, "recursive delete").contains(
        "blocked by policy: recursive delete; choose a safer way"));
  }

  @Test
  void extraRulesOfTheSessionAreListed() {
    String p = PromptBuilder.systemPrompt(host, LocalDate.of(2026, 12, 2), "",
        List.of("Code runs in a sandbox without network.", " "));
    assertTrue(p.contains("- Code runs in a sandbox without network.\n"), p);
    assertFalse(p.contains("- \n"));
  }
}
