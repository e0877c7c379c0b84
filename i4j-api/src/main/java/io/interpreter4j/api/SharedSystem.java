package io.interpreter4j.api;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.runtime.QuietPekko;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The one actor system of this JVM for {@link Interpreter}s built without one of the user's: started by the first,
 * counted, and terminated when the last is closed (a later one starts a new system).
 */
final class SharedSystem {

  private static ActorSystem<Void> system;
  private static int users;

  private SharedSystem() {}

  static synchronized ActorSystem<Void> acquire() {
    if (system == null) {
      system = ActorSystem.create(Behaviors.empty(), "interpreter4j", QuietPekko.CONFIG.withFallback(ConfigFactory.load()));
    }
    users++;
    return system;
  }

  /** One user fewer; the last one terminates the system and waits for it (its sessions are stopped already). */
  static synchronized void release() {
    if (users == 0) {
      return;
    }
    users--;
    if (users == 0) {
      ActorSystem<Void> ending = system;
      system = null;
      ending.terminate();
      try {
        ending.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the sessions were stopped before; what remains is the system's own threads
      }
    }
  }

  /** The running shared system, or null. */
  static synchronized ActorSystem<Void> current() {
    return system;
  }
}
