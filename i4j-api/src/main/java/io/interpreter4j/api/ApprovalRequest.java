package io.interpreter4j.api;

/**
 * A block the approval gate puts to an {@link Approver}. What the danger analysis found about it is in the
 * session's {@link Event.ApprovalRequested} event, published just before.
 *
 * @param sessionId the session the block belongs to
 * @param block     the block's number in its session (1, 2, ...)
 * @param language  the block's language, e.g. {@code python}
 * @param code      the code
 */
public record ApprovalRequest(String sessionId, int block, String language, String code) {}
