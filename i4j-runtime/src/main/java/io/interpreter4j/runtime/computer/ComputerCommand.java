package io.interpreter4j.runtime.computer;

/**
 * What the actors that act on the computer (the display, the browser) accept. A target actor's own protocol
 * extends this interface, so the session's computer router can hand any of them a {@link Perform}.
 */
public interface ComputerCommand {}
