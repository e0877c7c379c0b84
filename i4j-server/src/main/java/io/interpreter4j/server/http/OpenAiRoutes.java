package io.interpreter4j.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.hub.SessionEntry;
import io.interpreter4j.server.hub.SessionFactory;
import io.interpreter4j.server.hub.SessionHub;
import io.interpreter4j.server.openai.ChatRequest;
import io.interpreter4j.server.openai.CompletionJson;
import io.interpreter4j.server.openai.CompletionText;
import io.interpreter4j.server.openai.ServedModels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /v1}: the OpenAI Chat Completions API over i4j sessions, so clients written for OpenAI drive interpreter4j
 * unchanged. {@code POST /v1/chat/completions} makes a session (or continues the one {@code X-I4J-Session} names),
 * starts a turn with the last user message and answers with the turn's text ({@link CompletionText}), streamed as
 * {@code chat.completion.chunk}s or whole; {@code GET /v1/models} lists the models a request may name. Sessions are
 * made by the same {@link SessionFactory} and followed through the same event feeds as those of {@code /api}, so
 * they appear in the dashboard, and approvals follow the server's mode. A client that leaves interrupts its turn.
 */
public final class OpenAiRoutes extends AllDirectives {
  /** Names the session to continue (request) and the session the turn ran in (response). */
  public static final String SESSION_HEADER = "X-I4J-Session";
  static final ByteString PING = ByteString.fromString(": ping\n\n");
  private static final ByteString DONE = ByteString.fromString("data: [DONE]\n\n");
  /** How often a turn's event feed is followed again after its client fell behind (then the feed was cut). */
  private static final int FEED_RESUMES = 16;
  private static final Logger LOG = LoggerFactory.getLogger(OpenAiRoutes.class);

  private final SessionHub hub;
  private final SessionFactory factory;
  private final Security security;
  private final ServedModels models;
  private final int bufferSize;
  private final Duration ping;
  private final long started = Instant.now().getEpochSecond();

  /**
   * @param bufferSize events queued for one request before its feed is cut and followed again
   * @param ping       how long a stream may stay silent before a {@code : ping} comment
   */
  public OpenAiRoutes(SessionHub hub, SessionFactory factory, Security security, ServedModels models, int bufferSize,
                      Duration ping) {
    this.hub = hub;
    this.factory = factory;
    this.security = security;
    this.models = models;
    this.bufferSize = bufferSize;
    this.ping = ping;
  }

  public Route routes() {
    return routes(own -> own);
  }

  /**
   * The routes, with {@code around} given those behind authentication (whole paths, {@code /v1/...}) to put its own
   * in front of (a cluster node passes on a request continuing a session that runs on another node).
   */
  public Route routes(UnaryOperator<Route> around) {
    // made once, here: the directives below may call their inner supplier per request
    Route own = around.apply(pathPrefix("v1", () -> concat(
        path("models", () -> get(this::modelList)),
        path(PathMatchers.segment("chat").slash("completions"), () -> post(() ->
            withoutRequestTimeout(() -> extractRequest(request ->
                optionalHeaderValueByName(SESSION_HEADER, session ->
                    SessionRoutes.jsonBody(body -> completions(request, session, body))))))))));
    return pathPrefixTest("v1", () ->
        handleExceptions(OpenAiErrors.exceptionHandler(LOG), () ->
            handleRejections(OpenAiErrors.rejectionHandler(), () ->
                security.checkOrigin(() -> security.authenticated(() -> own)))));
  }

  private Route modelList() {
    return complete(Json.response(StatusCodes.OK, CompletionJson.models(models.ids(), started)));
  }

  private Route completions(HttpRequest request, Optional<String> sessionId, ObjectNode body) {
    ChatRequest chat;
    String spec;
    try {
      chat = ChatRequest.parse(body);
      spec = models.specFor(chat.model());
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
    if (sessionId.isPresent()) {
      SessionEntry entry = hub.find(sessionId.get().strip())
          .orElseThrow(() -> ApiError.notFound("no session '" + sessionId.get().strip() + "'; leave out "
              + SESSION_HEADER + " to start a new one"));
      long after = entry.view().lastSeq();
      return extractActorSystem(system -> onSuccess(
          SessionTurns.start(entry, chat.prompt(), Adapter.toTyped(system).scheduler()),
          turnStarted -> answer(request, entry, after, chat)));
    }
    Settings base = factory.baseSettings();
    SessionFactory.Request create = new SessionFactory.Request(chat.prompt(), spec,
        base.approvalMode() == Settings.ApprovalMode.AUTO, null, null, chat.earlier(), chat.instructions());
    CompletionStage<SessionEntry> created;
    try {
      created = factory.create(create);
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest("cannot use model '" + (chat.model() == null ? ServedModels.SERVER_MODEL : chat.model())
          + "': " + e.getMessage());
    }
    return onSuccess(created, entry -> answer(request, entry, 0, chat));
  }

  /** The turn that has started in {@code entry}, followed from its events after {@code after}, as the answer. */
  private Route answer(HttpRequest request, SessionEntry entry, long after, ChatRequest chat) {
    CompletionJson json = new CompletionJson("chatcmpl-" + entry.id() + "-" + after, Instant.now().getEpochSecond(),
        chat.model() == null ? ServedModels.SERVER_MODEL : chat.model());
    Source<CompletionText.Piece, NotUsed> pieces = turn(request, entry, after);
    RawHeader session = RawHeader.create(SESSION_HEADER, entry.id());
    if (chat.stream()) {
      Source<ByteString, NotUsed> frames = Source.single(frame(json.roleChunk()))
          .concat(pieces.mapConcat(piece -> frames(json, piece, chat.includeUsage())));
      return complete(Sse.response(frames, ping, PING).addHeader(session));
    }
    CompletionStage<HttpResponse> whole = pieces
        .runWith(Sink.fold(new Whole(), Whole::add), hub.materializer())
        .thenApply(w -> w.response(json).addHeader(session));
    return onSuccess(whole, this::complete);
  }

  /**
   * The turn's pieces up to its end: a {@link CompletionText.Finished} or {@link CompletionText.Failed} last. Ends
   * early when the client has gone, and then interrupts the turn (and the code it runs).
   */
  private Source<CompletionText.Piece, NotUsed> turn(HttpRequest request, SessionEntry entry, long after) {
    AtomicBoolean ended = new AtomicBoolean();
    Source<CompletionText.Piece, NotUsed> pieces = follow(entry, after, new AtomicLong(after), FEED_RESUMES)
        .statefulMapConcat(() -> new CompletionText()::accept)
        .takeWhile(piece -> !isLast(piece), true)
        .map(piece -> {
          if (isLast(piece)) {
            ended.set(true);
          }
          return piece;
        })
        .concatLazy(Source.lazySource(() -> ended.get() ? Source.<CompletionText.Piece>empty()
                : Source.<CompletionText.Piece>single(new CompletionText.Failed("session_ended",
                    "session '" + entry.id() + "' ended before the turn finished")))
            .mapMaterializedValue(m -> NotUsed.getInstance()));
    return ConnectionWatch.untilClientGone(request, pieces)
        .watchTermination((mat, done) -> {
          done.whenComplete((d, failure) -> {
            ActorRef<Session.Command> session = entry.session();
            if (!ended.get() && session != null) {
              session.tell(Session.Interrupt.INSTANCE);
            }
          });
          return mat;
        });
  }

  /**
   * The session's events after {@code after}, from its feed; a feed cut because this request fell behind is followed
   * again from the last event seen, at most {@code resumes} times.
   */
  private Source<Event, NotUsed> follow(SessionEntry entry, long after, AtomicLong seen, int resumes) {
    return entry.events(after, bufferSize)
        .map(line -> {
          seen.set(line.seq());
          return EventCodec.fromJson(line.json());
        })
        .concatLazy(Source.lazySource(() -> resumes > 0 && !entry.ended()
                ? follow(entry, seen.get(), seen, resumes - 1) : Source.<Event>empty())
            .mapMaterializedValue(m -> NotUsed.getInstance()));
  }

  private static boolean isLast(CompletionText.Piece piece) {
    return !(piece instanceof CompletionText.Content);
  }

  /** A piece as Server-Sent Events: a chunk; the finish chunk, the usage chunk and {@code [DONE]}; an error. */
  private static List<ByteString> frames(CompletionJson json, CompletionText.Piece piece, boolean includeUsage) {
    List<ByteString> out = new ArrayList<>(3);
    if (piece instanceof CompletionText.Content c) {
      out.add(frame(json.contentChunk(c.text())));
    } else if (piece instanceof CompletionText.Finished f) {
      out.add(frame(json.finishChunk(f.finishReason())));
      if (includeUsage) {
        out.add(frame(json.usageChunk(f)));
      }
      out.add(DONE);
    } else if (piece instanceof CompletionText.Failed f) {
      out.add(frame(CompletionJson.error(f.message(), "server_error", f.code())));
    }
    return out;
  }

  private static ByteString frame(JsonNode node) {
    return ByteString.fromString("data: " + Json.write(node) + "\n\n");
  }

  /** The pieces of a {@code stream: false} answer, collected. */
  private static final class Whole {
    private final StringBuilder content = new StringBuilder();
    private CompletionText.Piece last;

    Whole add(CompletionText.Piece piece) {
      if (piece instanceof CompletionText.Content c) {
        content.append(c.text());
      } else {
        last = piece;
      }
      return this;
    }

    HttpResponse response(CompletionJson json) {
      if (last instanceof CompletionText.Finished f) {
        return Json.response(StatusCodes.OK, json.completion(content.toString(), f));
      }
      CompletionText.Failed failed = last instanceof CompletionText.Failed f ? f
          : new CompletionText.Failed("client_gone", "the client left before the turn finished");
      return OpenAiErrors.response(new ApiError(StatusCodes.INTERNAL_SERVER_ERROR, failed.code(), failed.message(),
          List.of()));
    }
  }
}
