package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;
import io.interpreter4j.core.event.EventPayload;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows the terminal shows for a code block's events, styled and wrapped to a width: its frame, the risk of the
 * approval question, the decision, and the badge of its run. Pure; {@link TerminalRenderer} decides when.
 */
final class BlockRows {

  private final Theme theme;

  BlockRows(Theme theme) {
    this.theme = theme;
  }

  /** A code frame labelled "LANGUAGE · block N" (the edited code of block N: "edited · block N"). */
  List<String> frame(int block, String label, String code, int width) {
    MarkdownStream frame = new MarkdownStream(theme);
    frame.nextBlockIndex(block);
    return frame.feed("```" + label + "\n" + (code == null ? "" : code) + "\n```\n", width);
  }

  /** "⚠ risk: high" and a line per flag; nothing for a low-risk block without flags. */
  List<String> risk(EventPayload.ApprovalRequested a, int width) {
    boolean risky = a.risk() != null && !"low".equals(a.risk());
    List<EventPayload.RiskFlag> flags = a.flags() == null ? List.of() : a.flags();
    List<String> rows = new ArrayList<>();
    if (risky || !flags.isEmpty()) {
      String level = a.risk() == null ? "unknown" : a.risk();
      String head = "⚠ risk: " + level;
      rows.add("high".equals(level) ? theme.bad(head) : theme.warn(head));
      for (EventPayload.RiskFlag f : flags) {
        String text = theme.bold(f.rule()) + theme.dim(" (" + f.level() + ")") + " " + f.reason();
        rows.addAll(TextWrap.wrap(text, width, "  • ", "    "));
      }
    }
    return rows;
  }

  /**
   * "⊘ denied by user: \"not on prod\"" or "✓ approved by auto"; nothing for a block a person ran (they just said
   * so) nor, unless verbose, for auto-run's yes. A transcript says every decision.
   */
  List<String> decision(EventPayload.Approval a, int width, boolean transcript, boolean verbose) {
    boolean userRan = a.by() == DecidedBy.USER && a.decision() != ApprovalDecision.DENIED;
    boolean autoRan = a.by() == DecidedBy.AUTO && a.decision() == ApprovalDecision.APPROVED;
    if (!transcript && (userRan || autoRan && !verbose)) {
      return List.of();
    }
    boolean denied = a.decision() == ApprovalDecision.DENIED;
    String text = (denied ? "⊘ " : "✓ ") + EventText.approval(a);
    return TextWrap.wrap(denied ? theme.warn(text) : theme.dim(text), width, "", "  ");
  }

  /** "✓ exit 0 · 287 ms" or "✗ exit 1 · 3.2 s · timed out". */
  String badge(EventPayload.ExecFinished f, boolean verbose) {
    StringBuilder note = new StringBuilder(" · ").append(EventRenderer.duration(f.duration_ms()));
    EventText.execNotes(f, verbose).forEach(n -> note.append(" · ").append(n));
    String exit = "exit " + f.exit_code();
    return f.exit_code() == 0
        ? theme.ok("✓ " + exit) + theme.dim(note.toString())
        : theme.bad("✗ " + exit) + theme.red(note.toString());
  }
}
