package io.interpreter4j.runtime.computer;

import java.nio.file.Path;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Makes the actor of one computer target for a session (the browser, registered by name in {@link ComputerSpec}).
 * The router spawns it on the target's first action and again after it stopped.
 */
@FunctionalInterface
public interface TargetFactory {

  /**
   * What a target may need of its session.
   *
   * @param sessionId  the session's id
   * @param workdir    the working folder (downloads go there)
   * @param sessionDir the session's own folder
   * @param display    the session's {@code DISPLAY} (a headed browser appears there), or null when it has none
   * @param settings   the session's computer settings
   */
  record Context(String sessionId, Path workdir, Path sessionDir, String display, ComputerSettings settings) {}

  Behavior<ComputerCommand> create(Context context);
}
