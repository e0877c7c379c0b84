package io.interpreter4j.cli.approve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver.Answer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ApprovalPrompterTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
  /** Lines typed at the prompt; INTERRUPT is what the reader sees when its read is interrupted. */
  private final BlockingQueue<String> typed = new ArrayBlockingQueue<>(8);
  private static final String INTERRUPT = "\u0000interrupted";
  private final CountDownLatch reading = new CountDownLatch(1);

  private Optional<String> readLine(String prompt) {
    reading.countDown();
    try {
      String line = typed.poll(30, TimeUnit.SECONDS);
      return line == null ? Optional.empty() : Optional.of(line.equals(INTERRUPT) ? "n" : line); // as Ctrl-C
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private ApprovalPrompter prompter() {
    return new ApprovalPrompter(this::readLine, out, new Editor(Map.of(), false), block -> { },
        note -> {
          out.println(note);
          typed.add(INTERRUPT);
          return true;
        });
  }

  private static ConsoleApprover.Question question(ConsoleApprover approver) {
    approver.ask("s1", new CodeBlock(1, "bash", "bash", "echo hi", true, false));
    try {
      return approver.poll(1000);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void anAnswerTypedHereIsTheAnswer() {
    ConsoleApprover approver = new ConsoleApprover(true);
    ConsoleApprover.Question q = question(approver);
    typed.add("maybe");
    typed.add("y");
    prompter().answer(q);
    assertEquals(Answer.Kind.YES, q.answer().join().kind());
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("please answer y"), bytes.toString());
  }

  @Test
  void aQuestionAnsweredElsewhereWhileAskedClosesThePrompt() throws Exception {
    ConsoleApprover approver = new ConsoleApprover(true);
    ConsoleApprover.Question q = question(approver);
    CompletableFuture<Void> asking = CompletableFuture.runAsync(() -> prompter().answer(q));
    assertTrue(reading.await(30, TimeUnit.SECONDS), "the prompt is waiting for a line");
    // what FirstAnswerApprover does when the dashboard answered first
    approver.answeredElsewhere("s1", 1, Answer.no("not on prod"));
    asking.get(30, TimeUnit.SECONDS); // the prompt did not wait for a line
    assertEquals("not on prod", q.answer().join().reason());
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains(
        "(block 1 was denied in the dashboard: \"not on prod\"; the prompt is closed)"), bytes.toString());
    assertTrue(typed.isEmpty(), "the interrupt was consumed by the read it ended");
  }

  @Test
  void theClosedPromptSaysHowTheQuestionWasAnswered() {
    ConsoleApprover approver = new ConsoleApprover(true);
    ConsoleApprover.Question approved = question(approver);
    approver.answeredElsewhere("s1", 1, Answer.yes());
    assertEquals("(block 1 was approved in the dashboard; the prompt is closed)",
        ApprovalPrompter.closedNote(approved));
    ConsoleApprover.Question withdrawn = question(approver);
    approver.cancel("s1", 1);
    assertEquals("(block 1's question was withdrawn; the prompt is closed)", ApprovalPrompter.closedNote(withdrawn));
  }

  @Test
  void aQuestionWithdrawnBeforeItIsShownIsNotAsked() {
    ConsoleApprover approver = new ConsoleApprover(true);
    ConsoleApprover.Question q = question(approver);
    approver.cancel("s1", 1);
    typed.add("y");
    prompter().answer(q);
    assertEquals(Answer.Kind.NO, q.answer().join().kind());
    assertEquals(1, typed.size(), "nothing was read");
  }

  @Test
  void cancellingAnotherSessionsBlockLeavesTheQuestion() {
    ConsoleApprover approver = new ConsoleApprover(true);
    ConsoleApprover.Question q = question(approver);
    approver.cancel("other-session", 1);
    approver.cancel("s1", 2);
    assertFalse(q.answer().isDone());
  }
}
