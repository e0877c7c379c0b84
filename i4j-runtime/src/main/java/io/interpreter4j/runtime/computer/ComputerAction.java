package io.interpreter4j.runtime.computer;

import java.util.Map;

/**
 * One action the model asks of the computer.
 *
 * @param block  the code block (or tool call) that asked, numbered as in the session's events; 0 when none
 * @param target {@code display}, {@code mouse}, {@code keyboard} or {@code browser}
 * @param action the action's name within its target ({@code click}, {@code go}, {@code snapshot}, ...)
 * @param args   its arguments by name, JSON-like values (String, Number, Boolean, List, Map, null)
 */
public record ComputerAction(long block, String target, String action, Map<String, Object> args) {
  public ComputerAction {
    args = Map.copyOf(args);
  }
}
