package io.interpreter4j.api;

/**
 * One code block of a turn: what the model wrote, what the approval gate decided, and how it ran.
 *
 * @param block    the block's number in its session (1, 2, ...)
 * @param language the block's language as the model wrote it
 * @param code     the code as the model wrote it (an edited version is in {@code decision})
 * @param decision the approval gate's verdict, null when the block never reached the gate (an unknown language)
 * @param result   how it ran, null when it did not run
 */
public record BlockRun(int block, String language, String code, Decision decision, ExecResult result) {}
