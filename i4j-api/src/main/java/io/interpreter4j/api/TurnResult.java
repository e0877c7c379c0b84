package io.interpreter4j.api;

import java.util.List;

/**
 * How one {@link Session#chat(String)} turn ended.
 *
 * @param sessionId  the session
 * @param status     how the turn ended
 * @param answer     the model's last answer of the turn (after its last block), or "" when it wrote none
 * @param blocks     the code blocks of the turn, in order, with their verdicts and results
 * @param iterations the model calls of the turn
 * @param reason     why the turn ended as it did when not {@link TurnStatus#DONE}, else null
 */
public record TurnResult(String sessionId, TurnStatus status, String answer, List<BlockRun> blocks, int iterations,
                         String reason) {

  /**
   * Copies {@code blocks}.
   *
   * @param sessionId  the session
   * @param status     how the turn ended
   * @param answer     the last answer
   * @param blocks     the blocks
   * @param iterations the model calls
   * @param reason     why, or null
   */
  public TurnResult {
    blocks = List.copyOf(blocks);
  }
}
