package io.interpreter4j.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.safety.SecretRedactor;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.approval.HttpApprover;
import io.interpreter4j.server.hub.SessionEntry;
import io.interpreter4j.server.hub.SessionFactory;
import io.interpreter4j.server.hub.SessionHub;
import io.interpreter4j.server.hub.SessionView;
import io.interpreter4j.server.hub.Transcripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaType;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.apache.pekko.stream.javadsl.FileIO;

/**
 * {@code /api/sessions}: create, list, read, message, interrupt and stop sessions, answer their approval
 * questions and fetch their blocks' full output and the images they showed. What a session is doing is read from its view (built from its
 * events), never asked of its actor.
 */
public final class SessionRoutes extends AllDirectives {
  static final int DEFAULT_PAGE = 500;
  static final int MAX_PAGE = 5_000;
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);
  private static final Set<String> FORM_TYPES = Set.of("application/x-www-form-urlencoded",
      "multipart/form-data", "text/plain");

  private final SessionHub hub;
  private final SessionFactory factory;
  private final ApiPaths paths;
  private final Executor blocking;

  public SessionRoutes(SessionHub hub, SessionFactory factory, ApiPaths paths, Executor blocking) {
    this.hub = hub;
    this.factory = factory;
    this.paths = paths;
    this.blocking = blocking;
  }

  public Route routes() {
    return pathPrefix("api", () -> pathPrefix("sessions", () -> concat(
        pathEndOrSingleSlash(() -> concat(
            get(this::list),
            post(() -> jsonBody(this::create)))),
        pathPrefix(PathMatchers.segment(), id -> session(id, entry -> concat(
            pathEndOrSingleSlash(() -> concat(
                get(() -> transcript(entry)),
                delete(() -> stop(entry)))),
            path("messages", () -> post(() -> jsonBody(body -> message(entry, body)))),
            path("interrupt", () -> post(() -> interrupt(entry))),
            pathPrefix(PathMatchers.segment("blocks").slash(PathMatchers.integerSegment()), block -> concat(
                path("approval", () -> post(() -> jsonBody(body -> approval(entry, block, body)))),
                path("output", () -> get(() -> output(entry, block))))),
            path(PathMatchers.segment("images").slash(PathMatchers.integerSegment()),
                n -> get(() -> image(entry, n))),
            path(PathMatchers.segment("html").slash(PathMatchers.integerSegment()),
                n -> get(() -> html(entry, n)))))))));
  }

  // ---- collection ----

  private Route list() {
    ObjectNode body = Json.object();
    ArrayNode sessions = body.putArray("sessions");
    hub.all().forEach(e -> sessions.add(e.view().toJson()));
    return complete(Json.response(StatusCodes.OK, body));
  }

  private Route create(ObjectNode body) {
    String message = Json.requiredText(body, "message");
    String model = Json.optionalText(body, "model");
    if (model != null && model.isBlank()) {
      throw ApiError.badRequest("\"model\" must not be blank; leave it out for the server's default");
    }
    Boolean autoRun = Json.optionalBoolean(body, "autoRun");
    Integer maxIterations = Json.optionalInt(body, "maxIterations");
    if (maxIterations != null && maxIterations < 1) {
      throw ApiError.badRequest("\"maxIterations\" must be at least 1, not " + maxIterations);
    }
    Path workdir = workdir(Json.optionalText(body, "workdir"));
    Path replay = replayFile(model);
    SessionFactory.Request request = new SessionFactory.Request(message,
        replay == null ? model : ApiPaths.REPLAY + replay, autoRun != null && autoRun, workdir, maxIterations);
    CompletionStage<SessionEntry> created;
    try {
      created = factory.create(request);
    } catch (IllegalArgumentException e) {
      if (replay != null) {
        // the reader's message may quote the file (a JSON error shows the token it choked on): say only what it is
        throw ApiError.badRequest("cannot use model '" + model + "': " + (Files.isRegularFile(replay)
            ? replay + " is not a replay cassette the server can read (its content is not repeated here; try it "
                + "with i4j -m replay:PATH)"
            : "no such file: " + replay));
      }
      throw ApiError.badRequest("cannot use model '" + (model == null ? factory.baseSettings().model() : model)
          + "': " + e.getMessage());
    }
    return onSuccess(created, entry -> {
      ObjectNode out = Json.object();
      out.put("id", entry.id());
      return complete(Json.response(StatusCodes.CREATED, out)
          .addHeader(org.apache.pekko.http.javadsl.model.headers.Location.create("/api/sessions/" + entry.id())));
    });
  }

  private Path workdir(String given) {
    if (given == null) {
      return null;
    }
    try {
      return paths.workdir(given);
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  /** The file of a {@code replay:PATH} model other than the server's own, checked against the replay roots; else null. */
  private Path replayFile(String model) {
    if (model == null || !model.startsWith(ApiPaths.REPLAY) || model.equals(factory.baseSettings().model())) {
      return null;
    }
    try {
      return paths.replayFile(model.substring(ApiPaths.REPLAY.length()));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest("cannot use model '" + model + "': " + e.getMessage());
    }
  }

  // ---- one session ----

  private Route session(String id, Function<SessionEntry, Route> inner) {
    Optional<SessionEntry> entry = hub.find(id);
    if (entry.isEmpty()) {
      throw ApiError.notFound("no session '" + id + "'");
    }
    return inner.apply(entry.get());
  }

  private Route transcript(SessionEntry entry) {
    return parameterOptional("after", after -> parameterOptional("limit", limit -> {
      long from = after.map(a -> number("after", a, 0)).orElse(0L);
      int size = (int) Math.min(MAX_PAGE, limit.map(l -> number("limit", l, 1)).orElse((long) DEFAULT_PAGE));
      CompletionStage<Transcripts.Page> page = CompletableFuture.supplyAsync(() -> {
        try {
          return Transcripts.page(entry.journal(), from, size);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, blocking);
      return onSuccess(page, p -> {
        ObjectNode body = Json.object();
        body.set("session", entry.view().toJson());
        body.set("events", p.events());
        body.put("nextAfter", p.nextAfter());
        body.put("more", p.more());
        return complete(Json.response(StatusCodes.OK, body));
      });
    }));
  }

  private Route stop(SessionEntry entry) {
    ActorRef<Session.Command> session = entry.session();
    if (session != null && !entry.ended()) {
      session.tell(Session.Stop.INSTANCE);
    }
    CompletionStage<Boolean> stopped = entry.whenEnded().toCompletableFuture()
        .thenApply(done -> true)
        .completeOnTimeout(false, STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    return onSuccess(stopped, done -> {
      ObjectNode body = Json.object();
      body.put("id", entry.id());
      body.put("stopped", done);
      body.set("session", entry.view().toJson());
      return complete(Json.response(done ? StatusCodes.OK : StatusCodes.ACCEPTED, body));
    });
  }

  /** The session alone says whether a turn may start; its answer maps to 202, 409 (busy, failed) or 400 (empty). */
  private Route message(SessionEntry entry, ObjectNode body) {
    String text = Json.requiredText(body, "text");
    return extractActorSystem(system -> onSuccess(
        SessionTurns.start(entry, text, Adapter.toTyped(system).scheduler()), this::accepted));
  }

  private Route interrupt(SessionEntry entry) {
    SessionTurns.live(entry).tell(Session.Interrupt.INSTANCE);
    return accepted(entry);
  }

  private Route approval(SessionEntry entry, int block, ObjectNode body) {
    String decision = Json.requiredText(body, "decision");
    String code = Json.optionalText(body, "code");
    String reason = Json.optionalText(body, "reason");
    Approver.Answer answer = switch (decision) {
      case "approve" -> code == null ? Approver.Answer.yes() : Approver.Answer.edit(code);
      case "deny" -> Approver.Answer.no(reason == null || reason.isBlank() ? "declined in the dashboard" : reason);
      default -> throw ApiError.badRequest("\"decision\" must be \"approve\" or \"deny\", not \"" + decision + "\"");
    };
    if (code != null && !"approve".equals(decision)) {
      throw ApiError.badRequest("\"code\" goes with \"approve\" (run the edited code), not with \"deny\"");
    }
    if (code != null && code.isBlank()) {
      throw ApiError.badRequest("\"code\" must not be blank; leave it out to run the block as written");
    }
    SessionView view = entry.view();
    if (block < 1 || block > view.lastBlock()) {
      throw ApiError.notFound("session '" + entry.id() + "' has no block " + block);
    }
    if (!entry.approvedHere()) {
      throw ApiError.conflict("the blocks of session '" + entry.id() + "' are approved where it runs, not here");
    }
    String decided = view.decision(block);
    if (decided != null) {
      throw ApiError.conflict("block " + block + " was already decided: " + decided);
    }
    SessionView.PendingApproval pending = view.pendingApproval();
    boolean announced = pending != null && pending.block() == block;
    if (!announced && !SessionView.RUNNING.contains(view.status())) {
      // the turn has ended (interrupted, say): a question the session withdraws a moment later is not answered
      throw ApiError.conflict("block " + block + " is not waiting for approval (status " + view.status() + ")");
    }
    HttpApprover.Result result = hub.approver().answer(entry.id(), block, answer, announced);
    switch (result) {
      case ALREADY_ANSWERED -> throw ApiError.conflict("block " + block + " was already answered");
      case NOT_WAITING -> throw ApiError.conflict("block " + block + " is not waiting for approval (status "
          + view.status() + ")");
      case ANSWERED -> { }
    }
    ObjectNode out = Json.object();
    out.put("id", entry.id());
    out.put("block", block);
    out.put("decision", answer.kind() == Approver.Answer.Kind.EDIT ? "edited"
        : answer.kind() == Approver.Answer.Kind.YES ? "approved" : "denied");
    return complete(Json.response(StatusCodes.OK, out));
  }

  private Route output(SessionEntry entry, int block) {
    String file = entry.view().outputFile(block);
    if (file == null && entry.view().outputInEvents(block)) {
      return complete(HttpResponse.create().withEntity(HttpEntities.createChunked(ContentTypes.TEXT_PLAIN_UTF8,
          Transcripts.blockOutput(entry.journal(), block).via(RedactedText.flow(SecretRedactor.ofThisProcess())))));
    }
    if (file == null) {
      throw ApiError.notFound("block " + block + " of session '" + entry.id() + "' has no output (yet)");
    }
    Path path = insideDataDir(entry, file);
    // redacted as the events are (a file written before redaction reached the disk, or by another process, too)
    return complete(HttpResponse.create().withEntity(HttpEntities.createChunked(ContentTypes.TEXT_PLAIN_UTF8,
        FileIO.fromPath(path).via(RedactedText.flow(SecretRedactor.ofThisProcess())))));
  }

  /** The n-th image the session showed, with its media type, if its file is inside the session's folder. */
  private Route image(SessionEntry entry, int n) {
    io.interpreter4j.core.event.EventPayload.Image image = entry.view().image(n);
    if (image == null) {
      throw ApiError.notFound("session '" + entry.id() + "' has no image " + n);
    }
    Path path = insideSessionFolder(entry, image.path(), "image " + n);
    io.interpreter4j.core.image.ImageFormat format = io.interpreter4j.core.image.ImageFormat.ofMime(image.mime());
    if (format == null) {
      throw ApiError.notFound("image " + n + " of session '" + entry.id() + "' has an unknown type " + image.mime());
    }
    MediaType.Binary type = switch (format) {
      case PNG -> MediaTypes.IMAGE_PNG;
      case JPEG -> MediaTypes.IMAGE_JPEG;
      case GIF -> MediaTypes.IMAGE_GIF;
      case WEBP -> MediaTypes.IMAGE_WEBP;
    };
    return complete(HttpResponse.create().withEntity(HttpEntities.create(ContentTypes.create(type), path)));
  }

  /**
   * The n-th HTML document the session showed, for the dashboard's sandboxed frame: served under a policy that runs
   * no script, loads nothing from anywhere (inline styles and {@code data:} images only), submits no form and may be
   * framed by the dashboard alone; the {@code sandbox} directive gives it an opaque origin even when opened on its own.
   */
  private Route html(SessionEntry entry, int n) {
    io.interpreter4j.core.event.EventPayload.Html html = entry.view().html(n);
    if (html == null) {
      throw ApiError.notFound("session '" + entry.id() + "' has no HTML document " + n);
    }
    Path path = insideSessionFolder(entry, html.path(), "HTML document " + n);
    return respondWithHeaders(List.of(
            RawHeader.create("Content-Security-Policy", HTML_SECURITY_POLICY),
            RawHeader.create("X-Frame-Options", "SAMEORIGIN"),
            RawHeader.create("Cache-Control", "no-store")),
        () -> complete(HttpResponse.create().withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, path))));
  }

  /** The Content-Security-Policy of a block's HTML document (see {@link #html}). */
  static final String HTML_SECURITY_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; "
      + "img-src data:; font-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

  /** A file an event names, if it is a regular file inside the session's folder (symlinks resolved), else 404. */
  private static Path insideSessionFolder(SessionEntry entry, String file, String what) {
    try {
      Path real = Path.of(file).toRealPath();
      Path root = entry.journal().getParent().toRealPath();
      if (!real.startsWith(root) || !Files.isRegularFile(real)) {
        throw ApiError.notFound(what + " of session '" + entry.id() + "' is not inside the session's folder");
      }
      return real;
    } catch (IOException | InvalidPathException e) {
      throw ApiError.notFound(what + " of session '" + entry.id() + "' is gone: " + file);
    }
  }

  /** The output file if it is a regular file inside the session's data dir (symlinks resolved), else 404. */
  private static Path insideDataDir(SessionEntry entry, String file) {
    try {
      Path real = Path.of(file).toRealPath();
      Path root = entry.dataDir().toRealPath();
      if (real.startsWith(root) && Files.isRegularFile(real)) {
        return real;
      }
    } catch (IOException | InvalidPathException e) {
      throw ApiError.notFound("the output file is gone: " + file);
    }
    throw ApiError.notFound("the output file is not inside the data directory");
  }

  // ---- helpers ----

  private Route accepted(SessionEntry entry) {
    ObjectNode out = Json.object();
    out.put("id", entry.id());
    out.put("status", entry.view().status());
    return complete(Json.response(StatusCodes.ACCEPTED, out));
  }

  /**
   * The body as a JSON object. The content types a browser may send cross-origin without asking first (forms,
   * text/plain) are refused, one more wall against cross-site requests.
   */
  static Route jsonBody(Function<ObjectNode, Route> inner) {
    return Directives.extractRequest(request -> {
      String mediaType = request.entity().getContentType().mediaType().toString().toLowerCase(Locale.ROOT);
      if (FORM_TYPES.contains(mediaType)) {
        throw new ApiError(StatusCodes.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
            "send the body as JSON with Content-Type: application/json, not " + mediaType, List.of());
      }
      return Directives.entity(Unmarshaller.entityToString(), body -> inner.apply(Json.parseObject(body)));
    });
  }

  private static long number(String name, String value, long min) {
    long n;
    try {
      n = Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("\"" + name + "\" must be a whole number, not \"" + value + "\"");
    }
    if (n < min) {
      throw ApiError.badRequest("\"" + name + "\" must be at least " + min + ", not " + n);
    }
    return n;
  }
}
