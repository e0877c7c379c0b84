package io.interpreter4j.server.http;

import org.apache.pekko.event.LoggingAdapter;
import org.apache.pekko.http.ParsingErrorHandler;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.scaladsl.model.ErrorInfo;
import org.apache.pekko.http.scaladsl.model.StatusCode;
import org.apache.pekko.http.scaladsl.settings.ServerSettings;

/**
 * Answers requests the HTTP layer cannot parse (a header section too large: 431, a URI too long: 414, a malformed
 * request: 400, ...) in the API's {@code {"error", "detail"}} form with the security headers, as every other error.
 * Pekko HTTP creates it by name ({@code pekko.http.server.parsing.error-handler}, set by {@code Server}) before any
 * route runs, so it needs a public constructor without arguments.
 */
public final class JsonParsingErrorHandler extends ParsingErrorHandler {
  /** The setting that names this class. */
  public static final String SETTING = "pekko.http.server.parsing.error-handler";

  @Override
  public HttpResponse handle(StatusCode status, ErrorInfo info, LoggingAdapter log, ServerSettings settings) {
    log.debug("refused a request the HTTP layer could not parse ({}): {}", status, info.summary());
    return Json.error(status, ApiErrors.code(status.reason()), info.summary(), Security.HEADERS);
  }
}
