package io.interpreter4j.runtime.computer;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The actions each target knows, as the python API and the tool calls name them; {@link #check} says what is wrong
 * with a call before any target sees it. Arguments are checked in detail by the target that performs them. Pure.
 */
public final class ActionCatalog {

  /** Target -> its actions, in the order the docs list them. */
  public static final Map<String, List<String>> ACTIONS = Map.of(
      "display", List.of("view", "size"),
      "mouse", List.of("move", "click", "scroll", "drag", "position"),
      "keyboard", List.of("write", "press", "hotkey"),
      "browser", List.of("go", "snapshot", "click", "type", "press", "view", "text"));

  /** The targets the display actor serves. */
  public static final List<String> DISPLAY_TARGETS = List.of("display", "mouse", "keyboard");

  private ActionCatalog() {}

  /** Why {@code target.action} cannot be performed, or empty when it names a known action. */
  public static Optional<String> check(String target, String action) {
    List<String> actions = ACTIONS.get(target);
    if (actions == null) {
      return Optional.of("unknown target '" + target + "': computer.display, computer.mouse, computer.keyboard and "
          + "computer.browser are there");
    }
    if (!actions.contains(action)) {
      return Optional.of("computer." + target + " has no action '" + action + "'; it has "
          + String.join(", ", actions));
    }
    return Optional.empty();
  }
}
