package io.interpreter4j.runtime.computer;

import org.apache.pekko.actor.typed.ActorRef;

/** Asks a target actor to perform an action; it answers {@code replyTo} once, whatever happens. */
public record Perform(ComputerAction action, ActionGate gate, ActorRef<ActionOutcome> replyTo)
    implements ComputerCommand {}
