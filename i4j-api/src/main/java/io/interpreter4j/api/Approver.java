package io.interpreter4j.api;

/**
 * Decides in code whether a block runs, where a terminal user would be asked. The approval gate still applies the
 * danger analysis and the approval rules first: an approver is asked only about blocks that need a person (every
 * block when auto-run is off; under auto-run, high-risk blocks), and a deny rule is never put to it. It is called on
 * a thread of the actor system's blocking pool, one block at a time per session, and may take its time.
 */
@FunctionalInterface
public interface Approver {

  /**
   * Decides about one block.
   *
   * @param request the block and what the danger analysis found
   * @return the verdict: {@link Decision#approve()}, {@link Decision#deny(String)} or {@link Decision#edit(String)};
   *     an exception or a null counts as a denial
   */
  Decision decide(ApprovalRequest request);
}
