package io.interpreter4j.core.prompt;

import io.interpreter4j.core.image.ImageFormat;
import io.interpreter4j.core.image.ImageRef;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Builds the text the model reads: the system prompt and the messages that report a block's fate. */
public final class PromptBuilder {

  /** A line of {@link #imageNote} naming a file a block saved. */
  private static final Pattern IMAGE_NOTE = Pattern.compile(
      "(?m)^\\[image (\\d{1,5})x(\\d{1,5}) (PNG|JPEG|GIF|WEBP): (.+/outputs/block-\\d+-\\d+\\.(?:png|jpg|gif|webp))\\]$");

  private PromptBuilder() {}

  /** The system prompt: role, host metadata, the date, execution rules and the user's custom instructions. */
  public static String systemPrompt(HostInfo host, LocalDate today, String customInstructions) {
    return systemPrompt(host, today, customInstructions, List.of());
  }

  /**
   * As {@link #systemPrompt(HostInfo, LocalDate, String)}, with extra execution rules of this session (the
   * sandbox's limits, where pip installs go); blank ones are left out.
   */
  public static String systemPrompt(HostInfo host, LocalDate today, String customInstructions,
                                    List<String> extraRules) {
    StringBuilder sb = new StringBuilder();
    sb.append("""
        You are interpreter4j, a world-class programmer that completes any goal by running code on the \
        user's machine. You have full access to it: the code blocks you write are executed, after the user \
        or their policy approves them, and their output is sent back to you.
        First write a short plan. Then work in small steps: write ONE code block at a time, wait for its \
        output, and use what it shows before writing the next. Recap the plan between steps when it helps.
        When the goal is met (or cannot be), answer in plain text without a code block; that ends the turn.

        """);
    sb.append("# Machine\n");
    sb.append("- OS: ").append(host.osName()).append(' ').append(host.osVersion()).append(" (").append(host.arch())
        .append(")\n");
    sb.append("- User: ").append(host.user()).append('\n');
    sb.append("- Working directory: ").append(host.cwd()).append('\n');
    sb.append("- Shell: ").append(host.shell()).append('\n');
    sb.append("- Python: ").append(host.pythonVersion()).append('\n');
    sb.append("- Languages you can run: ").append(String.join(", ", host.languages())).append('\n');
    sb.append("- Today's date: ").append(today).append("\n\n");
    sb.append("""
        # Rules for code
        - Always tag a code block with its language, e.g. ```python or ```bash. Blocks tagged text, output, \
        json and the like are shown, not run.
        - Each language keeps one persistent session: python variables and imports, and the shell's current \
        directory and variables, carry over from block to block.
        - Standard input is closed: programs cannot ask the user for input. Pass data as arguments or files.
        - A block that runs too long is interrupted (exit code 124). Long outputs are cut in the middle; \
        print only what you need, and write large results to files.
        - To install Python packages, use a virtual environment (python -m venv .venv), never the system or \
        global environment, and never sudo.
        - Never delete or modify anything outside the working directory unless the user asks for it.
        - If a block fails, read the error, fix the cause and try again with a different approach; do not \
        repeat the same failing code.
        """);
    for (String rule : extraRules) {
      if (rule != null && !rule.isBlank()) {
        sb.append("- ").append(rule.strip()).append('\n');
      }
    }
    if (customInstructions != null && !customInstructions.isBlank()) {
      sb.append("\n# Custom instructions from the user\n").append(customInstructions.strip()).append('\n');
    }
    return sb.toString();
  }

  /** The message that gives the model a block's result. */
  public static String blockResult(int block, String language, int exitCode, boolean timedOut, boolean interrupted,
                                   String output, String notice) {
    return blockResult(block, language, exitCode, timedOut, interrupted, output, notice, List.of());
  }

  /**
   * As {@link #blockResult(int, String, int, boolean, boolean, String, String)}, with a line per image the block
   * showed ({@link #imageNote}), for a model that does not see the images themselves.
   */
  public static String blockResult(int block, String language, int exitCode, boolean timedOut, boolean interrupted,
                                   String output, String notice, List<String> imageNotes) {
    StringBuilder sb = new StringBuilder();
    sb.append("Block ").append(block).append(" (").append(language).append(") ");
    if (timedOut) {
      sb.append("timed out and was interrupted (exit code ").append(exitCode).append(").");
    } else if (interrupted) {
      sb.append("was interrupted by the user (exit code ").append(exitCode).append(").");
    } else {
      sb.append("finished with exit code ").append(exitCode).append('.');
    }
    sb.append('\n');
    if (notice != null && !notice.isBlank()) {
      sb.append("Note: ").append(notice).append('\n');
    }
    if (output == null || output.isEmpty()) {
      sb.append("It printed no output.");
    } else {
      sb.append("Output:\n```output\n").append(output);
      if (!output.endsWith("\n")) {
        sb.append('\n');
      }
      sb.append("```");
    }
    for (String note : imageNotes) {
      sb.append('\n').append(note);
    }
    return sb.toString();
  }

  /**
   * Told to the model when the user declines a block. The user's reason is a sentence of its own, ended with a period
   * if they did not end it, and the advice starts on the next line: it never reads as part of their words.
   */
  public static String declined(int block, String reason) {
    String why = reason == null || reason.isBlank() ? "" : " Reason: " + sentence(reason);
    return "The user declined to run block " + block + "; it was not executed." + why
        + "\nAsk what they want instead, or propose a different approach.";
  }

  /** {@code text} stripped and ended with a period unless it ends with . ! ? or a closing quote. */
  static String sentence(String text) {
    String s = text.strip().replaceAll("\\s*\n\\s*", " ");
    return s.matches("(?s).*[.!?\"')]$") ? s : s + ".";
  }

  /**
   * Told to the model when a policy blocks a block; {@code reason} is the policy's own sentence
   * ("blocked by policy: ...; choose a safer way").
   */
  public static String blockedByPolicy(int block, String reason) {
    String why = reason.startsWith("blocked by policy") ? reason : "blocked by policy: " + reason + "; choose a safer way";
    return "Block " + block + " was not executed: " + why + ".";
  }

  /** Told to the model when it wrote a block in a language that cannot run here. */
  public static String unknownLanguage(int block, String language, List<String> available) {
    return "Block " + block + " was not executed: the language '" + language + "' is not available here. "
        + "Available languages: " + String.join(", ", available) + ". Rewrite it in one of those.";
  }

  /** How an image reaches a model without vision: {@code [image 640x480 PNG: /path/to/block-3-1.png]}. */
  public static String imageNote(int width, int height, String format, String path) {
    return "[image " + width + "x" + height + " " + format + ": " + path + "]";
  }


  /**
   * The images named by the {@link #imageNote} lines of a text, in order, as references: how a conversation restored
   * from text (a {@code conversation} event, a saved file) gets its images back. Only files a block saved (named
   * {@code .../outputs/block-N-K.ext}) are named so.
   */
  public static List<ImageRef> imagesNamedIn(String text) {
    List<ImageRef> refs = new ArrayList<>();
    Matcher m = IMAGE_NOTE.matcher(text);
    while (m.find()) {
      ImageFormat format = ImageFormat.valueOf(m.group(3));
      refs.add(new ImageRef(m.group(4), format.mime(), Integer.parseInt(m.group(1)),
          Integer.parseInt(m.group(2))));
    }
    return refs;
  }
}
