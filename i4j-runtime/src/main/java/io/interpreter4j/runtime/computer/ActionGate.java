package io.interpreter4j.runtime.computer;

import java.util.concurrent.CompletionStage;

/**
 * Asks whether an action of a sensitive kind may go on ({@code type-password}, {@code submit}, {@code download}:
 * the kinds of {@code interpreter4j.computer.ask-before}). A target calls it before it acts; it completes with
 * {@code true} when the action may go on. Kinds the user did not list complete with {@code true} at once; where
 * nobody can answer, a listed kind completes with {@code false}.
 */
@FunctionalInterface
public interface ActionGate {
  CompletionStage<Boolean> allow(String kind, String description);
}
