package io.interpreter4j.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.server.batch.BatchService;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Batches run by the server: {@code POST /api/batches} (the task file as the body, the options as query
 * parameters), {@code GET /api/batches/{id}} (progress) and {@code GET /api/batches/{id}/results} (JSON lines).
 * {@code GET /api/batches} stays in {@link OpsRoutes}. The service decides where tasks run (this process, or the
 * cluster).
 */
public final class BatchRoutes extends AllDirectives {
  /** The largest task file accepted, in bytes. */
  public static final long MAX_BODY = 16L * 1024 * 1024;

  private final BatchService service;

  public BatchRoutes(BatchService service) {
    this.service = service;
  }

  public Route routes() {
    return pathPrefix("api", () -> pathPrefix("batches", () -> concat(
        pathEndOrSingleSlash(() -> post(() -> parameterMap(this::submit))),
        pathPrefix(PathMatchers.segment(), id -> concat(
            pathEndOrSingleSlash(() -> get(() -> progress(id))),
            path("results", () -> get(() -> parameterOptional("from", from -> results(id, from)))))))));
  }

  private Route submit(Map<String, String> query) {
    return withSizeLimit(MAX_BODY, () -> entity(org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller.entityToString(),
        body -> {
          BatchService.Submission submission = submission(body, query);
          CompletionStage<HttpResponse> answer = service.submit(submission).handle((accepted, failure) -> {
            if (failure != null) {
              Throwable cause = ApiErrors.unwrap(failure);
              if (cause instanceof BatchService.Rejected rejected) {
                ObjectNode err = Json.object();
                err.put("error", "bad_request");
                err.put("detail", "the task file is invalid: " + rejected.getMessage()
                    + (rejected.problems().size() > 1 ? " (and " + (rejected.problems().size() - 1) + " more)" : ""));
                err.set("problems", problems(rejected.problems()));
                return Json.response(StatusCodes.BAD_REQUEST, err);
              }
              throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
            }
            ObjectNode ok = Json.object();
            ok.put("id", accepted.id());
            ok.put("total", accepted.total());
            ok.set("skipped", problems(accepted.skipped()));
            ok.put("progress", "/api/batches/" + accepted.id());
            ok.put("results", "/api/batches/" + accepted.id() + "/results");
            return Json.response(StatusCodes.CREATED, ok);
          });
          return completeWithFuture(answer);
        }));
  }

  private Route progress(String id) {
    return completeWithFuture(service.progress(id).thenApply(p -> p
        .map(node -> Json.response(StatusCodes.OK, node))
        .orElseThrow(() -> ApiError.notFound("no batch " + id + " on this server"))));
  }

  private Route results(String id, java.util.Optional<String> fromText) {
    int from = fromText.map(t -> wholeNumber("from", t, 0)).orElse(0);
    return completeWithFuture(service.results(id, from).thenApply(lines -> lines
        .map(l -> HttpResponse.create().withEntity(HttpEntities.create(ContentTypes.create(
            org.apache.pekko.http.javadsl.model.MediaTypes.applicationWithFixedCharset("x-ndjson",
                org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8)),
            l.isEmpty() ? "" : String.join("\n", l) + "\n")))
        .orElseThrow(() -> ApiError.notFound("no batch " + id + " on this server"))));
  }

  static BatchService.Submission submission(String body, Map<String, String> q) {
    if (body == null || body.isBlank()) {
      throw ApiError.badRequest("the request body is empty; send the task file (JSONL, or one prompt a line)");
    }
    for (String key : q.keySet()) {
      if (!List.of("name", "parallel", "yes", "dangerously_allow_all", "skip_invalid", "task_timeout", "model",
          "base_dir").contains(key)) {
        throw ApiError.badRequest("unknown query parameter \"" + key + "\"; known: name, parallel, yes, "
            + "dangerously_allow_all, skip_invalid, task_timeout (seconds), model, base_dir");
      }
    }
    int parallel = q.containsKey("parallel") ? wholeNumber("parallel", q.get("parallel"), 1) : 4;
    long timeoutS = q.containsKey("task_timeout") ? wholeNumber("task_timeout", q.get("task_timeout"), 1) : 30 * 60;
    String baseDir = q.get("base_dir");
    if (baseDir != null && !java.nio.file.Path.of(baseDir).isAbsolute()) {
      throw ApiError.badRequest("\"base_dir\" must be an absolute folder, got \"" + baseDir + "\"");
    }
    return new BatchService.Submission(body, baseDir, q.getOrDefault("name", "batch"), parallel,
        flag("yes", q), flag("dangerously_allow_all", q), flag("skip_invalid", q), Duration.ofSeconds(timeoutS),
        q.get("model"));
  }

  private static boolean flag(String key, Map<String, String> q) {
    String v = q.get(key);
    if (v == null) {
      return false;
    }
    return switch (v) {
      case "true", "1", "" -> true;
      case "false", "0" -> false;
      default -> throw ApiError.badRequest("\"" + key + "\" must be true or false, got \"" + v + "\"");
    };
  }

  private static int wholeNumber(String key, String text, int min) {
    try {
      int n = Integer.parseInt(text.trim());
      if (n < min) {
        throw ApiError.badRequest("\"" + key + "\" must be at least " + min + ", got " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("\"" + key + "\" must be a whole number, got \"" + text + "\"");
    }
  }

  private static ArrayNode problems(List<BatchService.Problem> problems) {
    ArrayNode list = Json.object().arrayNode();
    for (BatchService.Problem p : problems) {
      ObjectNode n = list.addObject();
      n.put("line", p.line());
      n.put("message", p.message());
    }
    return list;
  }
}
