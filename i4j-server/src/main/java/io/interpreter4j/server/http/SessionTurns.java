package io.interpreter4j.server.http;

import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.hub.SessionEntry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/**
 * Starting a turn in a session the API names, for every endpoint that does ({@code /api/sessions/{id}/messages},
 * {@code /v1/chat/completions}): the session actor alone decides whether a turn may start, and its answer becomes
 * the API's error (409 busy, stopped or failed; 400 empty; 503 no answer).
 */
final class SessionTurns {
  static final Duration ASK_WAIT = Duration.ofSeconds(10);

  private SessionTurns() {}

  /** The actor of a session that can take messages; 409 when it has stopped or is still starting. */
  static ActorRef<Session.Command> live(SessionEntry entry) {
    if (entry.ended() || entry.view().stopped()) {
      throw ApiError.conflict("session '" + entry.id() + "' has stopped; start a new one");
    }
    ActorRef<Session.Command> session = entry.session();
    if (session == null) {
      throw ApiError.conflict("session '" + entry.id() + "' is still starting; try again");
    }
    return session;
  }

  /** Asks the session to start a turn with {@code text}; completes when it has, else fails with the ApiError. */
  static CompletionStage<SessionEntry> start(SessionEntry entry, String text, Scheduler scheduler) {
    ActorRef<Session.Command> session = live(entry);
    return AskPattern.<Session.Command, Session.TurnStart>ask(session,
            replyTo -> new Session.UserMessage(text, replyTo), ASK_WAIT, scheduler)
        .handle((start, failure) -> {
          if (failure != null) {
            throw new ApiError(StatusCodes.SERVICE_UNAVAILABLE, "session_unavailable", "session '" + entry.id()
                + "' did not answer within " + ASK_WAIT.toSeconds() + " s; try again", List.of());
          }
          return switch (start.outcome()) {
            case STARTED -> entry;
            case BUSY -> throw ApiError.conflict("a turn is running (status " + entry.view().status()
                + "); wait for it to finish or interrupt it first");
            case EMPTY -> throw ApiError.badRequest("the message must not be blank; say what you want done");
            case FAILED -> throw ApiError.conflict("session '" + entry.id() + "' failed: " + start.reason());
          };
        });
  }
}
