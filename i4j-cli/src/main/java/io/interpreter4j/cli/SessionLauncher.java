package io.interpreter4j.cli;

import com.typesafe.config.Config;
import io.interpreter4j.cli.approve.ApprovalPrompter;
import io.interpreter4j.cli.approve.ConsoleApprover;
import io.interpreter4j.cli.render.JsonEventPrinter;
import io.interpreter4j.cli.render.TerminalRenderer;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionManager;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;

/** The steps every session command shares: settings, model, actor system, renderer, approver, session. */
final class SessionLauncher {

  final Settings settings;
  final Config config;
  final Map<String, String> env;
  final PrintStream out;

  SessionLauncher(CommonOptions options, Map<String, String> env, PrintStream out) {
    this.env = env;
    this.out = out;
    try {
      this.config = ConfigLoader.load(options.config, options.overrides(), env);
      this.settings = Settings.from(config, env);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    if (!Files.isDirectory(settings.workdir())) {
      throw new ModelFactory.UsageException("working directory not found: " + settings.workdir()
          + " (give an existing folder to --workdir)");
    }
  }

  /** Starts the system and one session; closes the system again if the model cannot be set up. */
  CliSession start(CommonOptions options, Approver approver, Consumer<Event> renderer) {
    ActorSystem<SessionManager.Command> system = CliSession.startSystem(config);
    try {
      String model = ModelFactory.resolveModel(settings, config, env, system);
      ModelProvider provider = ModelFactory.create(model, settings, config, options.apiKey, options.record, env,
          system);
      return CliSession.start(system, settings, provider, approver, List.of(renderer), env);
    } catch (RuntimeException e) {
      system.terminate();
      throw e;
    }
  }

  Consumer<Event> renderer(boolean json, boolean color) {
    return json ? new JsonEventPrinter(out) : new TerminalRenderer(out, color);
  }

  boolean autoRun() {
    return settings.approvalMode() == Settings.ApprovalMode.AUTO;
  }

  /** Waits for a turn to end, answering approval questions on this thread meanwhile. */
  static String awaitTurn(CompletableFuture<String> turn, ConsoleApprover approver, ApprovalPrompter prompter)
      throws InterruptedException {
    while (!turn.isDone()) {
      ConsoleApprover.Question q = approver == null ? null : approver.poll(50);
      if (q != null) {
        prompter.answer(q);
      } else if (approver == null) {
        try {
          return turn.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
      }
    }
    return turn.join();
  }
}
