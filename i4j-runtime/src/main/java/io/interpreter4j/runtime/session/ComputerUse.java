package io.interpreter4j.runtime.session;

import io.interpreter4j.core.computer.ComputerPrompt;
import io.interpreter4j.core.computer.ModelSpace;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.computer.AskBeforeGate;
import io.interpreter4j.runtime.computer.ComputerChannel;
import io.interpreter4j.runtime.computer.ComputerCommand;
import io.interpreter4j.runtime.computer.ComputerRouter;
import io.interpreter4j.runtime.computer.ComputerSettings;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.computer.DisplayActor;
import io.interpreter4j.runtime.computer.TargetFactory;
import io.interpreter4j.runtime.computer.XServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * A session's computer use ({@code --computer}): its {@link ComputerRouter} (a child of the session, which spawns
 * the {@link DisplayActor} and the registered targets), the {@link ComputerChannel} its python processes reach it
 * through, the environment those processes get ({@code DISPLAY}, the channel, the API), and the system prompt's
 * part about it. Closed with the session.
 */
final class ComputerUse implements AutoCloseable {

  /** Environment: the channel's socket (bound into the sandbox) and the API the python driver runs. */
  static final String SOCKET_ENV = "I4J_COMPUTER_SOCKET";
  static final String API_ENV = "I4J_COMPUTER_API";

  private static final String API = resource("/io/interpreter4j/runtime/computer/computer_api.py");

  private final DisplayActor.Screen screen;
  private final ActorRef<ComputerRouter.Command> router;
  private final ComputerChannel channel;
  private final ComputerSettings settings;
  private final boolean browser;
  private final boolean hasScreen;
  private final AtomicLong block;

  private ComputerUse(DisplayActor.Screen screen, ActorRef<ComputerRouter.Command> router, ComputerChannel channel,
                      ComputerSettings settings, boolean browser, boolean hasScreen, AtomicLong block) {
    this.block = block;
    this.screen = screen;
    this.router = router;
    this.channel = channel;
    this.settings = settings;
    this.browser = browser;
    this.hasScreen = hasScreen;
  }

  /** The session's computer use, or null when it is off. */
  static ComputerUse start(ActorContext<?> context, SessionSpec spec, Path sessionDir,
                           Consumer<EventPayload> publish) {
    ComputerSpec computer = spec.computer();
    if (!computer.enabled()) {
      return null;
    }
    ComputerSettings settings = computer.settings();
    String host = computer.privateScreen() ? null : System.getenv("DISPLAY");
    boolean hostDisplay = host != null && !host.isBlank();
    boolean hasScreen = hostDisplay || XServer.available();
    Path scratch = sessionDir.resolve("computer");
    DisplayActor.Screen screen = hostDisplay
        ? DisplayActor.Screen.host(host, settings.grid(), scratch)
        : DisplayActor.Screen.privateXvfb(hasScreen ? XServer.freeNumber() : -1, settings.width(), settings.height(),
            settings.grid(), scratch);
    AtomicLong block = new AtomicLong();
    Map<String, Supplier<Behavior<ComputerCommand>>> targets = new HashMap<>();
    targets.put("display", () -> DisplayActor.create(screen, Redaction.fromEnvironment()));
    TargetFactory.Context targetContext = new TargetFactory.Context(spec.id(), spec.settings().workdir(), sessionDir,
        hasScreen ? screen.display() : null, settings);
    computer.targets().forEach((name, factory) -> targets.put(name, () -> factory.create(targetContext)));
    AskBeforeGate gate = new AskBeforeGate(settings, spec.approver(), spec.id(), block::get);
    ActorRef<ComputerRouter.Command> router = context.spawn(ComputerRouter.create(targets, gate, payload -> {
      if (payload instanceof EventPayload.ComputerAction) {
        publish.accept(payload);
      }
    }), "computer");
    ComputerChannel channel = ComputerChannel.open(router, context.getSystem().scheduler());
    return new ComputerUse(screen, router, channel, settings, computer.targets().containsKey("browser"), hasScreen,
        block);
  }

  /** What the session's interpreters get: the display and the channel; python also the API its driver runs. */
  Map<String, String> env(String language) {
    Map<String, String> env = new HashMap<>();
    if (hasScreen) {
      env.put("DISPLAY", screen.display());
    }
    env.put(SOCKET_ENV, channel.socket().toString());
    if (language.equals("python")) {
      env.put(API_ENV, API);
    }
    return env;
  }

  /** The block now running: the actions that follow belong to it. */
  void blockRunning(int number) {
    block.set(number);
    router.tell(new ComputerRouter.BlockRunning(number));
  }

  /** The system prompt's part about the computer, in the model's coordinates. */
  String promptSentence() {
    ModelSpace space = screen.host() == null ? new ModelSpace(settings.width(), settings.height()) : null;
    String text = ComputerPrompt.describe(space == null ? null : space.width() + "x" + space.height(),
        settings.grid(), browser);
    return hasScreen ? text : text + " No screen can be had on this machine right now; each call says why.";
  }

  @Override
  public void close() {
    channel.close();
  }

  private static String resource(String name) {
    try (InputStream in = ComputerUse.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
