package io.interpreter4j.server.http;

import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.headers.Authorization;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The dashboard: {@code /?token=TOKEN} logs a browser in (cookie, then a redirect to {@code /}); {@code /} is the
 * page for a logged-in browser (a short "use the printed URL" page otherwise); {@code /assets/*} are its static
 * files from the classpath folder {@code dashboard/}, public because they hold no data.
 */
public final class DashboardRoutes extends AllDirectives {
  static final String RESOURCES = "dashboard";

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
    return getFromResource(RESOURCES + "/index.html", ContentTypes.TEXT_HTML_UTF8);
  }
}
