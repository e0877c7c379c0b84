package io.interpreter4j.batch.cli;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.image.Vision;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.QuietPekko;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.repl.PythonLocator;
import io.interpreter4j.runtime.session.HostProbe;
import io.interpreter4j.runtime.session.Session;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** A batch environment that serves replay cassettes only ({@code replay:PATH}): offline runs and tests. */
public final class ReplayBatchEnvironment implements BatchEnvironment {

  /** Pekko logs only warnings, on stderr; nothing of the actor system on stdout. */
  public static final Config QUIET = QuietPekko.CONFIG;

  private final Map<String, String> env;
  private final PrintStream out;
  private final PrintStream err;
  private final boolean signals;

  public ReplayBatchEnvironment(Map<String, String> env, PrintStream out, PrintStream err, boolean signals) {
    this.env = Map.copyOf(env);
    this.out = out;
    this.err = err;
    this.signals = signals;
  }

  @Override
  public ActorSystem<?> actorSystem(Config config) {
    return ActorSystem.create(Behaviors.empty(), "i4j-batch", QUIET.withFallback(config));
  }

  @Override
  public Function<String, ModelProvider> models(Settings settings, Config config, ActorSystem<?> system) {
    boolean vision = config == null || !config.hasPath("interpreter4j.vision.mode")
        || Vision.parse(config.getString("interpreter4j.vision.mode")) != Vision.OFF;
    return spec -> replay(spec, vision);
  }

  /** {@code replay:PATH} -> a fresh replay of that cassette, with vision. */
  public static ModelProvider replay(String spec) {
    return replay(spec, true);
  }

  /** {@code replay:PATH} -> a fresh replay of that cassette; {@code vision} says whether it gets the images. */
  public static ModelProvider replay(String spec, boolean vision) {
    if (!spec.startsWith("replay:")) {
      throw new IllegalArgumentException("model " + spec + " is not available here: only replay:PATH cassettes "
          + "are (use i4j batch for real models)");
    }
    Path file = Path.of(spec.substring("replay:".length()));
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("cassette not found: " + file);
    }
    return ReplayModelProvider.load(file, vision);
  }

  @Override
  public HostInfo host(Settings settings) {
    String python = settings.python().isBlank() ? PythonLocator.resolve() : settings.python();
    return HostProbe.probe(settings.workdir(), python, Session.languages(), env);
  }

  @Override
  public Map<String, String> env() {
    return env;
  }

  @Override
  public PrintStream out() {
    return out;
  }

  @Override
  public PrintStream err() {
    return err;
  }

  @Override
  public boolean handleSignals() {
    return signals;
  }

  @Override
  public boolean stderrIsTerminal() {
    return err == System.err && BatchEnvironment.super.stderrIsTerminal();
  }
}
