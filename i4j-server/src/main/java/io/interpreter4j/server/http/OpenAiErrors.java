package io.interpreter4j.server.http;

import io.interpreter4j.server.openai.CompletionJson;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.RejectionHandler;
import org.slf4j.Logger;

/**
 * The errors of {@code /v1} in the shape OpenAI's clients read, {@code {"error": {"message", "type", "code"}}}:
 * the same {@link ApiError}s and rejections as the rest of the API, another body. A 409 or 5xx carries
 * {@code x-should-retry: false}: the official SDKs retry those by default, and a turn runs code, which must not run
 * twice because a client retried.
 */
final class OpenAiErrors {
  static final HttpHeader NO_RETRY = RawHeader.create("x-should-retry", "false");

  private OpenAiErrors() {}

  static RejectionHandler rejectionHandler() {
    return RejectionHandler.defaultHandler().mapRejectionResponse(r -> response(ApiErrors.fromResponse(r)));
  }

  static ExceptionHandler exceptionHandler(Logger log) {
    return ExceptionHandler.newBuilder()
        .matchAny(e -> Directives.complete(toResponse(ApiErrors.unwrap(e), log)))
        .build();
  }

  static HttpResponse toResponse(Throwable e, Logger log) {
    if (e instanceof ApiError a) {
      return response(a);
    }
    log.error("a /v1 request failed unexpectedly", e);
    return response(new ApiError(StatusCodes.INTERNAL_SERVER_ERROR, "internal_error",
        "the server failed to handle this request; see its log", List.of()));
  }

  static HttpResponse response(ApiError a) {
    StatusCode status = a.status();
    String code = status.intValue() == 401 ? "invalid_api_key" : a.error();
    List<HttpHeader> headers = new ArrayList<>(a.headers());
    if (status.intValue() == 409 || status.intValue() >= 500) {
      headers.add(NO_RETRY);
    }
    return Json.response(status, CompletionJson.error(a.detail(), type(status), code)).addHeaders(headers);
  }

  /** The error's {@code type}, from its status. */
  static String type(StatusCode status) {
    return switch (status.intValue()) {
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 409 -> "conflict_error";
      case 429 -> "rate_limit_error";
      default -> status.intValue() >= 500 ? "server_error" : "invalid_request_error";
    };
  }
}
