package io.interpreter4j.server.http;

import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;

/**
 * A request the API refuses, with the status and the {@code {"error", "detail"}} body to answer. Thrown from
 * route code and turned into a response by {@link ApiErrors#exceptionHandler}.
 */
public final class ApiError extends RuntimeException {
  private final StatusCode status;
  private final String error;
  private final List<HttpHeader> headers;

  public ApiError(StatusCode status, String error, String detail, List<HttpHeader> headers) {
    super(detail, null, false, false);
    this.status = status;
    this.error = error;
    this.headers = List.copyOf(headers);
  }

  public static ApiError badRequest(String detail) {
    return new ApiError(StatusCodes.BAD_REQUEST, "bad_request", detail, List.of());
  }

  public static ApiError notFound(String detail) {
    return new ApiError(StatusCodes.NOT_FOUND, "not_found", detail, List.of());
  }

  public static ApiError conflict(String detail) {
    return new ApiError(StatusCodes.CONFLICT, "conflict", detail, List.of());
  }

  public StatusCode status() {
    return status;
  }

  public String error() {
    return error;
  }

  public String detail() {
    return getMessage();
  }

  public List<HttpHeader> headers() {
    return headers;
  }
}
