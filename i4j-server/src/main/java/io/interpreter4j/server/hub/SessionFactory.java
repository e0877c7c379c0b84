package io.interpreter4j.server.hub;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.runtime.session.SessionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * Creates the sessions asked for through the API: per-session settings from the server's base settings (model,
 * working directory, iteration limit, ask or auto approval), a fresh model provider from the factory, the
 * dashboard as approver in ask mode, and the hub's subscriber attached before the first event.
 */
public final class SessionFactory {
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
  private static final int ID_ATTEMPTS = 5;

  /**
   * A validated request: model null for the default, maxIterations null for the configured limit; {@code earlier}:
   * messages that come before {@code message} in the new conversation, and {@code instructions} (or null) added to
   * its system prompt.
   */
  public record Request(String message, String model, boolean autoRun, Path workdir, Integer maxIterations,
                        List<ChatMessage> earlier, String instructions) {
    public Request {
      earlier = List.copyOf(earlier);
    }

    public Request(String message, String model, boolean autoRun, Path workdir, Integer maxIterations) {
      this(message, model, autoRun, workdir, maxIterations, List.of(), null);
    }
  }

  private final ActorSystem<SessionManager.Command> system;
  private final Settings base;
  private final Function<String, ModelProvider> models;
  private final HostInfo host;
  private final SessionHub hub;

  public SessionFactory(ActorSystem<SessionManager.Command> system, Settings base,
                        Function<String, ModelProvider> models, HostInfo host, SessionHub hub) {
    this.system = system;
    this.base = base;
    this.models = models;
    this.host = host;
    this.hub = hub;
  }

  public Settings baseSettings() {
    return base;
  }

  /**
   * Creates and starts a session with its first message; completes with its entry.
   *
   * @throws IllegalArgumentException when the model cannot be used (the message says why); nothing is created
   */
  public CompletionStage<SessionEntry> create(Request request) {
    String model = request.model() == null ? base.model() : request.model();
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("no model given and the server has no default model; send \"model\"");
    }
    ModelProvider provider;
    try {
      provider = models.apply(model);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      // a factory's own way of saying no (a usage error, a missing key): still a problem with the request
      throw new IllegalArgumentException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
    }
    if (provider == null) {
      throw new IllegalArgumentException("unknown model '" + model + "'");
    }
    Path workdir = request.workdir() == null ? base.workdir() : request.workdir();
    Settings settings = derive(base, model, workdir,
        request.maxIterations() == null ? base.maxIterations() : request.maxIterations(),
        request.autoRun() ? Settings.ApprovalMode.AUTO : Settings.ApprovalMode.ASK);
    SessionHub.Registration registration = registerFreshId(settings.dataDir());
    SessionSpec spec = new SessionSpec(registration.id(), settings, provider,
        registration.approver(), hostFor(workdir),
        List.of(registration.subscriber()));
    return AskPattern.<SessionManager.Command, SessionManager.Created>ask(system,
            replyTo -> new SessionManager.Create(spec, replyTo), ASK_TIMEOUT, system.scheduler())
        // on the system's dispatcher: an ask's stage runs a plain thenCompose asynchronously on the common pool, which
        // on 2 cores is a new thread per task, started by the session manager for each session it creates
        .thenComposeAsync(created -> {
          if (created.error() != null) {
            hub.unregister(registration.id());
            throw new CompletionException(new IllegalStateException(created.error()));
          }
          hub.attach(registration.id(), created.session());
          return seed(created.session(), request).thenApply(seeded -> {
            created.session().tell(new Session.UserMessage(request.message()));
            return registration.entry();
          });
        }, system.executionContext())
        .whenComplete((entry, failure) -> {
          if (failure != null) {
            hub.unregister(registration.id());
          }
        });
  }

  /** Puts the request's earlier messages and instructions into the new conversation before its first turn. */
  private CompletionStage<Session.Changed> seed(ActorRef<Session.Command> session, Request request) {
    if (request.earlier().isEmpty() && request.instructions() == null) {
      return CompletableFuture.completedFuture(null);
    }
    return AskPattern.<Session.Command, Session.Changed>ask(session,
        replyTo -> new Session.Restore(request.earlier(), "load", "request", request.instructions(), replyTo),
        ASK_TIMEOUT, system.scheduler());
  }

  private SessionHub.Registration registerFreshId(Path dataDir) {
    IllegalArgumentException last = null;
    for (int i = 0; i < ID_ATTEMPTS; i++) {
      try {
        return hub.register(SessionIds.next(), dataDir, true);
      } catch (IllegalArgumentException e) {
        last = e;
      }
    }
    throw new IllegalStateException("could not find a free session id", last);
  }

  private HostInfo hostFor(Path workdir) {
    return new HostInfo(host.osName(), host.osVersion(), host.arch(), host.user(), workdir.toString(), host.shell(),
        host.pythonVersion(), host.languages());
  }

  /** The base settings with one session's model, working directory, iteration limit and approval mode. */
  static Settings derive(Settings b, String model, Path workdir, int maxIterations, Settings.ApprovalMode approval) {
    return b.forSession(model, workdir, approval, maxIterations);
  }
}
