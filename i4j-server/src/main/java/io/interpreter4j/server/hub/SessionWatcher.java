package io.interpreter4j.server.hub;

import io.interpreter4j.runtime.session.Session;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** Watches the sessions the server follows and tells the hub when one stops, however it stopped. */
final class SessionWatcher {

  interface Command {}

  record Watch(String id, ActorRef<Session.Command> session) implements Command {}

  enum Stop implements Command { INSTANCE }

  private record Ended(String id) implements Command {}

  private SessionWatcher() {}

  static Behavior<Command> create(Consumer<String> onEnded) {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
        .onMessage(Watch.class, w -> {
          ctx.watchWith(w.session(), new Ended(w.id()));
          return Behaviors.same();
        })
        .onMessage(Stop.class, s -> Behaviors.stopped())
        .onMessage(Ended.class, e -> {
          onEnded.accept(e.id());
          return Behaviors.same();
        })
        .build());
  }
}
