package io.interpreter4j.cli.approve;

import io.interpreter4j.runtime.approval.Approver.Answer;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Predicate;

/**
 * Answers one approval question on the main thread: {@code y} runs, {@code n} declines, {@code e} opens the code
 * in {@code $EDITOR} (else vi) and runs the edited code. Reads answers from a terminal or from piped lines.
 */
public final class ApprovalPrompter {
  private final Function<String, Optional<String>> readLine;
  private final PrintStream out;
  private final Editor editor;
  private final IntConsumer beforeAsking;
  private final Predicate<String> closeQuestion;

  /** {@code readLine} shows a prompt and returns the line, or empty at end of input. */
  public ApprovalPrompter(Function<String, Optional<String>> readLine, PrintStream out, Editor editor) {
    this(readLine, out, editor, block -> { }, note -> false);
  }

  /** As below, for a prompt nobody else can answer (no dashboard). */
  public ApprovalPrompter(Function<String, Optional<String>> readLine, PrintStream out, Editor editor,
                          IntConsumer beforeAsking) {
    this(readLine, out, editor, beforeAsking, note -> false);
  }

  /**
   * @param beforeAsking     called with the block's number before the question is shown: waits until the renderer
   *                         has printed what goes above the question (the code, its risk flags)
   * @param closeQuestion    called from another thread, with a note to show, when the question is answered elsewhere
   *                         (the dashboard of {@code i4j --dashboard}) or withdrawn while this prompt waits: shows
   *                         the note at once (before the session goes on and prints more) and makes
   *                         {@code readLine} return; false if it could not show the note (it is then printed
   *                         when {@code readLine} returns)
   */
  public ApprovalPrompter(Function<String, Optional<String>> readLine, PrintStream out, Editor editor,
                          IntConsumer beforeAsking, Predicate<String> closeQuestion) {
    this.readLine = readLine;
    this.out = out;
    this.editor = editor;
    this.beforeAsking = beforeAsking;
    this.closeQuestion = closeQuestion;
  }

  /**
   * Asks the question and completes its answer, unless it is answered elsewhere or withdrawn meanwhile: then the
   * prompt is interrupted and says so, and what was typed counts for nothing.
   */
  public void answer(ConsoleApprover.Question q) {
    beforeAsking.accept(q.block().index());
    if (q.answer().isDone()) {
      return; // answered in the dashboard (or withdrawn) before it was shown
    }
    AtomicBoolean asking = new AtomicBoolean(true);
    AtomicBoolean noted = new AtomicBoolean();
    q.answer().whenComplete((answer, failure) -> {
      if (asking.compareAndSet(true, false)) {
        noted.set(closeQuestion.test(closedNote(q)));
      }
    });
    Answer mine = decide(q);
    if (asking.compareAndSet(true, false)) {
      q.answer().complete(mine);
    } else if (!noted.get()) {
      out.println(closedNote(q));
    }
  }

  /**
   * Why the prompt closed without an answer here: "(block 2 was approved in the dashboard)", "(block 2 was denied
   * in the dashboard: "not on prod")", or "(block 2's question was withdrawn)".
   */
  static String closedNote(ConsoleApprover.Question q) {
    int block = q.block().index();
    Answer answer = q.closedElsewhere().getNow(ConsoleApprover.WITHDRAWN);
    if (answer == ConsoleApprover.WITHDRAWN) {
      return "(block " + block + "'s question was withdrawn; the prompt is closed)";
    }
    return "(block " + block + " was " + switch (answer.kind()) {
      case YES -> "approved in the dashboard";
      case EDIT -> "edited and approved in the dashboard";
      case NO -> "denied in the dashboard" + (answer.reason() == null || answer.reason().isBlank() ? ""
          : ": \"" + answer.reason().strip() + "\"");
      case NO_ONE -> "left unanswered";
    } + "; the prompt is closed)";
  }

  private Answer decide(ConsoleApprover.Question q) {
    String prompt = "Run block " + q.block().index() + " (" + q.block().language() + ")? [y]es / [n]o / [e]dit: ";
    for (int tries = 0; tries < 20; tries++) {
      if (q.answer().isDone()) {
        return Answer.no(null); // not used: someone else answered
      }
      Optional<String> line = readLine.apply(prompt);
      if (line.isEmpty()) {
        return Answer.noOne("no answer: standard input ended before the approval question was answered");
      }
      String a = line.get().strip().toLowerCase(Locale.ROOT);
      switch (a) {
        case "y", "yes" -> {
          return Answer.yes();
        }
        case "n", "no" -> {
          return Answer.no(null);
        }
        case "e", "edit" -> {
          try {
            // the approval event carries the edited code; the renderer shows it
            return Answer.edit(editor.edit(q.block().code(), q.block().language()));
          } catch (IOException e) {
            out.println("could not edit the code: " + e.getMessage() + " (set $EDITOR to an editor that works)");
          }
        }
        default -> out.println("please answer y (run it), n (skip it) or e (edit it first)");
      }
    }
    return Answer.no("no valid answer after 20 tries");
  }
}
