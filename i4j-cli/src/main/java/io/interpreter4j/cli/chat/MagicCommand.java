package io.interpreter4j.cli.chat;

import io.interpreter4j.core.text.EditDistance;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@code %} command typed at the chat prompt, as Open Interpreter users know them: its name and the rest of the
 * line. The table of commands drives {@code %help}, tab completion and the suggestion for a mistyped name.
 */
public record MagicCommand(String name, String argument) {

  /** A command, the arguments it takes (for help) and what it does. */
  public record Spec(String name, String arguments, String summary) {}

  public static final List<Spec> SPECS = List.of(
      new Spec("%help", "", "this list"),
      new Spec("%reset", "", "start a new conversation (the REPL processes are restarted)"),
      new Spec("%undo", "", "remove your last message and everything after it"),
      new Spec("%save", "[FILE]", "save the conversation as JSON (default: in the data folder)"),
      new Spec("%load", "[FILE|SESSION]", "load a saved conversation (default: the last saved) or a session's"),
      new Spec("%tokens", "", "tokens in the context now, and the estimated cost so far"),
      new Spec("%verbose", "[on|off]", "also show token usage, automatic approvals and output files"),
      new Spec("%auto_run", "[on|off]", "run code without asking (on) or ask first (off)"),
      new Spec("%info", "", "model, limits, languages, folders"),
      new Spec("%%", "COMMAND", "run a shell command directly (not seen by the model)"),
      new Spec("%markdown", "[FILE]", "export the conversation as markdown"),
      new Spec("%jupyter", "[FILE]", "export the conversation as a Jupyter notebook (.ipynb)"));

  /** The command on a line that starts with {@code %}; empty for any other line. */
  public static Optional<MagicCommand> parse(String line) {
    String s = line.strip();
    if (!s.startsWith("%")) {
      return Optional.empty();
    }
    if (s.startsWith("%%")) {
      return Optional.of(new MagicCommand("%%", s.substring(2).strip()));
    }
    int space = indexOfWhitespace(s);
    String name = (space < 0 ? s : s.substring(0, space)).toLowerCase(Locale.ROOT).replace('-', '_');
    String argument = space < 0 ? "" : s.substring(space).strip();
    return Optional.of(new MagicCommand(name, argument));
  }

  /** Whether the argument turns something on (on, true, yes, 1) or off; empty when it is neither. */
  public Optional<Boolean> onOff() {
    return switch (argument.toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes", "1" -> Optional.of(true);
      case "off", "false", "no", "0" -> Optional.of(false);
      default -> Optional.empty();
    };
  }

  /** The known command closest to a mistyped one (at most two edits away, or a prefix), if any. */
  public static Optional<String> closest(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (Spec spec : SPECS) {
      int d = spec.name().startsWith(name) && name.length() > 2 ? 0 : EditDistance.between(name, spec.name());
      if (d < bestDistance) {
        bestDistance = d;
        best = spec.name();
      }
    }
    return bestDistance <= 2 ? Optional.of(best) : Optional.empty();
  }

  private static int indexOfWhitespace(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
