package io.interpreter4j.bench;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.session.ProcessDefaults;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.runtime.session.SessionSpec;
import io.interpreter4j.runtime.supervision.Faults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/** Real sessions for the harness: settings in a temp folder (no user config), auto-approval, the session manager. */
public final class SessionKit {

  public static final HostInfo HOST = new HostInfo("Linux", "bench", "amd64", "bench", "/tmp", "/bin/bash", "3",
      List.of("python", "bash"));

  private SessionKit() {}

  /** The settings file-less, with data under {@code dataDir}, code run in {@code workdir}, blocks auto-approved. */
  public static Config config(Path dataDir, Path workdir, Map<String, Object> overrides) {
    Map<String, Object> all = new HashMap<>();
    all.put("interpreter4j.data-dir", dataDir.toString());
    all.put("interpreter4j.workdir", workdir.toString());
    all.put("interpreter4j.approval.mode", "auto");
    all.putAll(overrides);
    return ConfigLoader.load(null, all, Map.of("XDG_CONFIG_HOME", dataDir.resolve("no-config").toString()));
  }

  public static Settings settings(Config config) {
    return Settings.from(config, Map.of());
  }

  public static ActorSystem<SessionManager.Command> system(String name, Config config) {
    return ActorSystem.create(SessionManager.create(), name, Quiet.over(config), SessionManager.PROPS);
  }

  /**
   * Where the code of a session of {@code config} runs: its {@code interpreter4j.sandbox} settings, as the CLI gives
   * its sessions ({@code auto-run}, reference.conf's: bwrap under auto-approval; {@code none}: unconfined). A
   * section's sandbox override takes effect only through this: a {@link SessionSpec} made without a containment
   * takes the process's default, whatever the section's config says.
   */
  public static Containment containment(Config config) {
    SandboxSettings sandbox = SandboxSettings.from(config);
    return Containment.of(sandbox,
        MaskedPaths.standard(System.getenv(), settings(config).dataDir(), sandbox.maskedPaths()));
  }

  /** Creates a session whose code runs as {@code containment} says; completes with its ref (or the manager's error). */
  public static CompletionStage<ActorRef<Session.Command>> create(ActorSystem<SessionManager.Command> system,
      String id, Settings settings, Containment containment, ModelProvider provider,
      List<Consumer<Event>> subscribers) {
    SessionSpec spec = new SessionSpec(id, settings, provider, Approver.NOBODY, HOST, subscribers, containment,
        ProcessDefaults.venv(), Faults.NONE);
    return AskPattern.<SessionManager.Command, SessionManager.Created>ask(system,
            replyTo -> new SessionManager.Create(spec, replyTo), Duration.ofSeconds(60), system.scheduler())
        // on the system's dispatcher: an ask's stage runs a plain thenApply asynchronously, on the common pool, and
        // with 2 cores that pool is a new thread per task (started by the session manager, 1000 in a burst)
        .thenApplyAsync(created -> {
          if (created.error() != null) {
            throw new IllegalStateException(created.error());
          }
          return created.session();
        }, system.executionContext());
  }
}
