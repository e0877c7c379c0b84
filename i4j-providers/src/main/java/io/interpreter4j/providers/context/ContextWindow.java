package io.interpreter4j.providers.context;

import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ChatMessage.Role;
import io.interpreter4j.core.model.ModelException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Fits a conversation into a model's input budget, so that no request is sent that is sure to fail for its length.
 * In order, until it fits: drop images, oldest first (a line in their message says so), cut the middle out of old
 * block outputs, drop the oldest turns, cut the outputs of the
 * latest turns. The system prompt, the first user message and the latest {@value #KEPT_TURNS} turns always stay;
 * when even they don't fit, {@link #fit} fails with a non-retryable {@link ModelException}. A turn here is a model
 * reply with the user messages after it (the block's output, or the next request), so dropping whole turns keeps
 * each output with the code that produced it and the roles alternating.
 */
public final class ContextWindow {

  /** Turns (a model reply and the user messages after it) that are never dropped. */
  public static final int KEPT_TURNS = 2;
  /** Characters kept of a cut output, half from its head and half from its tail. */
  public static final int KEPT_OUTPUT_CHARS = 1_000;

  // PromptBuilder.blockResult writes "Block N (lang) ..." with the output in an ```output fence.
  private static final Pattern BLOCK_RESULT = Pattern.compile("^Block \\d+ \\(");

  private ContextWindow() {}

  /**
   * The conversation, shortened as little as needed to cost at most {@code budgetTokens}; the same list when it fits.
   *
   * @throws ModelException (not retryable) when the system prompt, first message and latest turns alone exceed it
   */
  public static List<ChatMessage> fit(List<ChatMessage> messages, int budgetTokens, TokenCounter counter) {
    List<ChatMessage> work = new ArrayList<>(messages);
    int[] cost = new int[work.size()];
    int total = TokenCounter.REPLY_PRIMING;
    for (int i = 0; i < work.size(); i++) {
      cost[i] = counter.count(work.get(i));
      total += cost[i];
    }
    if (total <= budgetTokens) {
      return messages;
    }
    int firstUser = indexOfFirst(work, Role.USER);
    int keptFrom = startOfLatestTurns(work, firstUser);
    boolean[] dropped = new boolean[work.size()];

    // 0. Images go first, oldest first: each costs about a thousand tokens, and the text names it still.
    for (int k = 0; k < work.size() && total > budgetTokens; k++) {
      total -= dropImages(work, cost, k, budgetTokens, total, counter);
    }
    // 1. Old outputs lose their middle, oldest first.
    for (int i = firstUser + 1; i < keptFrom && total > budgetTokens; i++) {
      total -= shortenIfOutput(work, cost, i, counter);
    }
    // 2. Whole turns go, oldest first.
    int i = firstUser + 1;
    while (i < keptFrom && total > budgetTokens) {
      int end = nextTurnStart(work, i);
      for (int k = i; k < Math.min(end, keptFrom); k++) {
        if (work.get(k).role() != Role.SYSTEM) {
          dropped[k] = true;
          total -= cost[k];
        }
      }
      i = end;
    }
    // 3. The latest turns' outputs lose their middle too, rather than failing the request.
    for (int k = Math.max(keptFrom, firstUser + 1); k < work.size() && total > budgetTokens; k++) {
      total -= shortenIfOutput(work, cost, k, counter);
    }
    if (total > budgetTokens) {
      throw new ModelException("the conversation does not fit the model's context window: even its shortest form "
          + "(system prompt, first message and latest " + KEPT_TURNS + " turns) needs about " + total
          + " tokens, and " + Math.max(budgetTokens, 0) + " are available for input. Start a new conversation, "
          + "shorten the system prompt or custom instructions, or set interpreter4j.providers.context-window "
          + "if the model's window is larger", false);
    }
    List<ChatMessage> fitted = new ArrayList<>(work.size());
    for (int k = 0; k < work.size(); k++) {
      if (!dropped[k]) {
        fitted.add(work.get(k));
      }
    }
    return List.copyOf(fitted);
  }

  /** Whether a message carries a code block's output back to the model. */
  public static boolean isBlockOutput(ChatMessage message) {
    return message.role() == Role.USER
        && (BLOCK_RESULT.matcher(message.content()).find() || message.content().contains("```output"));
  }

  /** Keeps the head and tail of a text, {@code keep} characters in all, around a marker saying what was cut. */
  public static String cutMiddle(String text, int keep) {
    if (text.length() <= keep) {
      return text;
    }
    int head = keep / 2;
    int tail = keep - head;
    int cut = text.length() - keep;
    return text.substring(0, head) + "\n[... " + cut + " characters cut to fit the context window ...]\n"
        + text.substring(text.length() - tail);
  }

  private static int shortenIfOutput(List<ChatMessage> work, int[] cost, int i, TokenCounter counter) {
    ChatMessage m = work.get(i);
    if (!isBlockOutput(m) || m.content().length() <= KEPT_OUTPUT_CHARS + 100) {
      return 0;
    }
    ChatMessage shorter = new ChatMessage(m.role(), cutMiddle(m.content(), KEPT_OUTPUT_CHARS), m.images());
    int newCost = counter.count(shorter);
    int saved = cost[i] - newCost;
    if (saved <= 0) {
      return 0;
    }
    work.set(i, shorter);
    cost[i] = newCost;
    return saved;
  }

  /** The line that takes a dropped image's place: {@code [image not sent, to fit the context window: PATH]}. */
  public static String droppedImageNote(ImageRef image) {
    return "[image not sent, to fit the context window: " + image.path() + "]";
  }

  /** Drops the images of message {@code k}, first first, while the total is over budget; returns the tokens saved. */
  private static int dropImages(List<ChatMessage> work, int[] cost, int k, int budgetTokens, int total,
                                TokenCounter counter) {
    ChatMessage m = work.get(k);
    int saved = 0;
    while (!m.images().isEmpty() && total - saved > budgetTokens) {
      ImageRef dropped = m.images().get(0);
      m = new ChatMessage(m.role(), m.content() + "\n" + droppedImageNote(dropped),
          m.images().subList(1, m.images().size()));
      int newCost = counter.count(m);
      saved += cost[k] - newCost;
      cost[k] = newCost;
    }
    work.set(k, m);
    return saved;
  }

  private static int indexOfFirst(List<ChatMessage> messages, Role role) {
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).role() == role) {
        return i;
      }
    }
    return messages.size();
  }

  /** Whether a turn (a run of model replies after a user message) starts at {@code i}. */
  private static boolean turnStartsAt(List<ChatMessage> messages, int i) {
    return messages.get(i).role() == Role.ASSISTANT && messages.get(i - 1).role() != Role.ASSISTANT;
  }

  /** The start of the turn after the one at {@code i} (or the end of the conversation). */
  private static int nextTurnStart(List<ChatMessage> messages, int i) {
    int k = i + 1;
    while (k < messages.size() && !turnStartsAt(messages, k)) {
      k++;
    }
    return k;
  }

  /** Index where the latest kept turns start (at most right after the first user message). */
  private static int startOfLatestTurns(List<ChatMessage> messages, int firstUser) {
    int seen = 0;
    for (int i = messages.size() - 1; i > firstUser + 1; i--) {
      if (turnStartsAt(messages, i) && ++seen == KEPT_TURNS) {
        return i;
      }
    }
    return firstUser + 1;
  }
}
