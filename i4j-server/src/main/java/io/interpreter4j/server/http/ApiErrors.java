package io.interpreter4j.server.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.slf4j.Logger;

/**
 * Every error the server answers has the same shape, {@code {"error": "...", "detail": "..."}}, with the right
 * status: Pekko's own rejections (404, 405, 415, ...) are rewritten into it, and {@link ApiError}s thrown by the
 * routes are answered with it. Anything else is a bug: logged, and a 500 that gives nothing away.
 */
public final class ApiErrors {

  private ApiErrors() {}

  /** Pekko's default rejection handling, each response rewritten as a JSON error (status and headers kept). */
  public static RejectionHandler rejectionHandler() {
    return RejectionHandler.defaultHandler().mapRejectionResponse(ApiErrors::asJsonError);
  }

  public static ExceptionHandler exceptionHandler(Logger log) {
    return ExceptionHandler.newBuilder()
        .matchAny(e -> Directives.complete(toResponse(unwrap(e), log)))
        .build();
  }

  static HttpResponse toResponse(Throwable e, Logger log) {
    if (e instanceof ApiError a) {
      return Json.error(a.status(), a.error(), a.detail(), a.headers());
    }
    log.error("request failed unexpectedly", e);
    return Json.error(StatusCodes.INTERNAL_SERVER_ERROR, "internal_error",
        "the server failed to handle this request; see its log", List.of());
  }

  /** The cause of a failed future's wrapper. */
  static Throwable unwrap(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  static HttpResponse asJsonError(HttpResponse response) {
    ApiError e = fromResponse(response);
    return Json.error(e.status(), e.error(), e.detail(), e.headers());
  }

  /** A response of Pekko's rejection handling as the error it says (status, headers, text). */
  static ApiError fromResponse(HttpResponse response) {
    String detail = "";
    HttpEntity entity = response.entity();
    if (entity instanceof HttpEntity.Strict strict) {
      detail = strict.getData().utf8String();
    }
    if (detail.isBlank()) {
      detail = response.status().reason();
    }
    List<HttpHeader> headers = new ArrayList<>();
    response.getHeaders().forEach(headers::add);
    return new ApiError(response.status(), code(response.status().reason()), detail, headers);
  }

  /** "Method Not Allowed" -> "method_not_allowed". */
  static String code(String reason) {
    return reason.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
  }
}
