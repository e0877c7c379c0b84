package io.interpreter4j.server.http;

import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.headers.Authorization;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The dashboard: {@code /?token=TOKEN} logs a browser in (cookie, then a redirect to {@code /}); {@code /} is the
 * page for a logged-in browser (a short "use the printed URL" page otherwise); {@code /assets/*} are its static
 * files from the classpath folder {@code dashboard/} and its sub-folders (ES modules, served as they are, {@code .js}
 * as JavaScript), public because they hold no data. Pekko's resource directive keeps every request inside the
 * folder (a {@code ..} segment, however encoded, is refused) and answers conditional requests (ETag, Last-Modified).
 */
public final class DashboardRoutes extends AllDirectives {
  static final String RESOURCES = "dashboard";
  /**
   * The page's Content-Security-Policy: scripts, styles and requests from this server only (the modules under
   * {@code /assets/}), no inline script or style attribute, no plugins, no framing; images may also be
   * {@code data:} URLs (the favicon is drawn as one).
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
      + "frame-ancestors 'none'";

  private final Security security;

  public DashboardRoutes(Security security) {
    this.security = security;
  }

  public Route routes() {
    return concat(
        pathSingleSlash(() -> get(() -> parameterOptional("token", token -> token.isPresent()
            ? security.login(token.get())
            : extractRequest(request -> {
              if (security.hasValidCookie(request)) {
                return page();
              }
              return request.getHeader(Authorization.class).isPresent()
                  ? security.authenticated(this::page)
                  : complete(Security.loginPage());
            })))),
        pathPrefix("assets", () -> get(() -> concat(
            getFromResourceDirectory(RESOURCES),
            extractUnmatchedPath(rest -> {
              throw ApiError.notFound("no dashboard file " + rest);
            })))));
  }

  private Route page() {
    return respondWithHeader(RawHeader.create("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        () -> getFromResource(RESOURCES + "/index.html", ContentTypes.TEXT_HTML_UTF8));
  }
}
