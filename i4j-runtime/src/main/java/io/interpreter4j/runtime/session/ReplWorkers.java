package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import io.interpreter4j.runtime.repl.PythonStart;
import io.interpreter4j.runtime.repl.ReplConfig;
import io.interpreter4j.runtime.repl.ReplWorker;
import io.interpreter4j.runtime.sandbox.Sandbox;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The session's REPL workers, one per language, spawned on a language's first block and named
 * {@code repl-<language>} ({@code repl-<n>-<language>} after the n-th restart of them all, so new workers never
 * clash with stopping ones). Each is restarted when it throws, at most {@link #RESTARTS} times in
 * {@link #WITHIN}; past that it stops, the session is told (it watches them) and the next block starts a new one.
 */
final class ReplWorkers {

  static final int RESTARTS = ReplWorker.MAX_RESTARTS;
  static final Duration WITHIN = ReplWorker.RESTART_WINDOW;

  private final ActorContext<Session.Command> context;
  private final SessionSpec spec;
  private final Path sessionDir;
  private final LanguageRegistry languages;
  private final BiFunction<String, ActorRef<ReplWorker.Command>, Session.Command> onStopped;
  private final Map<String, ActorRef<ReplWorker.Command>> workers = new HashMap<>();
  private int generation;
  /** Where new workers start their interpreters. */
  private Sandbox sandbox;
  /** Added to each language's interpreter's environment (computer use: DISPLAY, the computer channel, its API). */
  private java.util.function.Function<String, Map<String, String>> extraEnv = language -> Map.of();

  ReplWorkers(ActorContext<Session.Command> context, SessionSpec spec, Sandbox sandbox, Path sessionDir,
              LanguageRegistry languages, BiFunction<String, ActorRef<ReplWorker.Command>, Session.Command> onStopped) {
    this.context = context;
    this.spec = spec;
    this.sandbox = sandbox;
    this.sessionDir = sessionDir;
    this.languages = languages;
    this.onStopped = onStopped;
  }

  /** Environment entries of the interpreters started from now on, by language. */
  void extraEnv(java.util.function.Function<String, Map<String, String>> value) {
    extraEnv = value;
  }

  /**
   * Starts the python interpreter now, before the first block, when {@code config}'s
   * {@link PythonStart#KEY} says so for a session in this sandbox ({@code sandboxed}, reference.conf's: one whose
   * code runs in a sandbox, where python cannot be forked from the fork server and costs a whole python start). The
   * start then overlaps the model's first reply.
   *
   * @throws IllegalArgumentException for a value that is not sandboxed, on or off
   */
  void startPythonEarly(com.typesafe.config.Config config) {
    PythonStart start = PythonStart.from(config);
    if (start.atCreation(sandbox.name())) {
      of("python").tell(ReplWorker.StartEarly.INSTANCE);
    }
  }

  /** The worker of this (canonical) language, spawned if there is none. */
  ActorRef<ReplWorker.Command> of(String language) {
    return workers.computeIfAbsent(language, this::spawn);
  }

  private ActorRef<ReplWorker.Command> spawn(String language) {
    Settings settings = spec.settings();
    ReplConfig config = new ReplConfig(language, sessionDir, settings.workdir(), settings.idleTimeout(),
        settings.interruptGrace(), settings.maxOutput(), settings.liveOutputLimit(), extraEnv.apply(language),
        settings.python().isBlank() ? null : settings.python())
        .withSandbox(sandbox).withVenv(spec.venv()).withFaults(spec.faults());
    ActorRef<ReplWorker.Command> worker = context.spawn(ReplWorker.supervised(languages.worker(config)),
        (generation == 0 ? "repl-" : "repl-" + generation + "-") + URLEncoder.encode(language, StandardCharsets.UTF_8));
    context.watchWith(worker, onStopped.apply(language, worker));
    return worker;
  }

  /**
   * Forgets a worker that stopped on its own (past its restart limit); true if it was this session's current
   * worker of that language, false for one stopped on purpose earlier.
   */
  boolean stoppedByItself(String language, ActorRef<ReplWorker.Command> worker) {
    return workers.remove(language, worker);
  }

  /** Stops one language's worker (its process tree is killed); the next block of that language starts afresh. */
  void stop(String language) {
    ActorRef<ReplWorker.Command> worker = workers.remove(language);
    if (worker != null) {
      context.stop(worker);
    }
  }

  /** Stops every worker (their process trees are killed); the next block of each language starts afresh. */
  void restartAll() {
    workers.values().forEach(context::stop);
    workers.clear();
    generation++;
  }

  /** As {@link #restartAll()}, and the next blocks start their interpreters in {@code newSandbox}. */
  void restartAll(Sandbox newSandbox) {
    sandbox = newSandbox;
    restartAll();
  }
}
