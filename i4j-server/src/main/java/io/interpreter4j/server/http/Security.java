package io.interpreter4j.server.http;

import io.interpreter4j.server.hub.ServerMetrics;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.headers.Authorization;
import org.apache.pekko.http.javadsl.model.headers.CacheControl;
import org.apache.pekko.http.javadsl.model.headers.CacheDirectives;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.HttpCookiePair;
import org.apache.pekko.http.javadsl.model.headers.Location;
import org.apache.pekko.http.javadsl.model.headers.OAuth2BearerToken;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.model.headers.SameSite;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Who may talk to the server. Authentication is always on: a bearer token ({@code Authorization: Bearer TOKEN}),
 * or the dashboard's cookie, which {@code /?token=TOKEN} exchanges for a random per-browser secret (HttpOnly,
 * SameSite=Strict) so the token itself never sits in a cookie. Tokens are compared in constant time; wrong
 * tokens are counted per client address and refused with 429 past the limit, cross-site ones (a page's
 * {@code <img src="/?token=x">}) apart, so a web page can lock out only other cross-site attempts, never a
 * terminal, script or dashboard with the right token. Requests that change something
 * must come from the server's own origin when a browser says where they come from ({@code Origin},
 * {@code Sec-Fetch-Site}). Without --allow-remote the Host must be a loopback name (no DNS rebinding).
 */
public final class Security extends AllDirectives {
  public static final String COOKIE = "i4j_auth";
  private static final int MAX_BROWSER_SESSIONS = 1_000;
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "::1", "[::1]");
  private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
  /** Sent on every response, errors of the HTTP layer included. */
  static final List<HttpHeader> HEADERS = List.of(
      RawHeader.create("X-Content-Type-Options", "nosniff"),
      RawHeader.create("X-Frame-Options", "DENY"),
      RawHeader.create("Referrer-Policy", "no-referrer"));

  private final byte[] tokenHash;
  private final String host;
  private final boolean allowRemote;
  private final List<String> extraOrigins;
  private final ServerMetrics metrics;
  private final FailureLimiter limiter;
  private final SecureRandom random = new SecureRandom();
  private final Set<String> browserSessions = Collections.newSetFromMap(
      new LinkedHashMap<String, Boolean>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > MAX_BROWSER_SESSIONS;
        }
      });
  private volatile Set<String> ownOrigins = Set.of();

  public Security(String token, String host, boolean allowRemote, List<String> extraOrigins, int maxFailures,
                  ServerMetrics metrics, Clock clock) {
    this.tokenHash = sha256(token);
    this.host = host;
    this.allowRemote = allowRemote;
    this.extraOrigins = List.copyOf(extraOrigins);
    this.metrics = metrics;
    this.limiter = new FailureLimiter(maxFailures, Duration.ofMinutes(1), clock);
  }

  /** Sets the origins of the server once its port is known. */
  public void bound(int port) {
    Set<String> origins = new LinkedHashSet<>();
    for (String name : List.of("127.0.0.1", "localhost", "[::1]", hostForUrl(host))) {
      origins.add("http://" + name.toLowerCase(Locale.ROOT) + ":" + port);
    }
    extraOrigins.forEach(o -> origins.add(stripSlash(o.toLowerCase(Locale.ROOT))));
    ownOrigins = Set.copyOf(origins);
  }

  /** {@code host} as it appears in a URL: IPv6 literals in brackets, the wildcard address as 127.0.0.1. */
  public static String hostForUrl(String host) {
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      return "127.0.0.1";
    }
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /** Whether an address names this machine only. */
  public static boolean isLoopback(String host) {
    if (LOOPBACK_NAMES.contains(host.toLowerCase(Locale.ROOT))) {
      return true;
    }
    try {
      String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
      return InetAddress.getByName(bare).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  /** Headers on every response: no sniffing, no framing (the approve button must not be clickjacked), no referrer. */
  public Route secureHeaders(Supplier<Route> inner) {
    return respondWithDefaultHeaders(HEADERS, inner);
  }

  /** Without --allow-remote, only requests addressed to a loopback name (or the configured host) are served. */
  public Route checkHost(Supplier<Route> inner) {
    if (allowRemote) {
      return inner.get();
    }
    return extractUri(uri -> {
      String requested = uri.host().address().toLowerCase(Locale.ROOT);
      if (LOOPBACK_NAMES.contains(requested) || requested.equals(host.toLowerCase(Locale.ROOT))
          || ("[" + requested + "]").equals(host)) {
        return inner.get();
      }
      throw new ApiError(StatusCodes.FORBIDDEN, "forbidden",
          "this server only answers requests addressed to 127.0.0.1 or localhost", List.of());
    });
  }

  /** Requests that change something (POST, PUT, PATCH, DELETE) from a browser must come from this server's pages. */
  public Route checkOrigin(Supplier<Route> inner) {
    return extractRequest(request -> {
      if (!MUTATING.contains(request.method().value())) {
        return inner.get();
      }
      Optional<String> site = header(request, "Sec-Fetch-Site");
      if (site.isPresent() && !site.get().equalsIgnoreCase("same-origin") && !site.get().equalsIgnoreCase("none")) {
        throw forbidden("cross-site request refused (Sec-Fetch-Site: " + site.get() + ")");
      }
      Optional<String> origin = header(request, "Origin");
      if (origin.isPresent() && !isOwnOrigin(origin.get(), request)) {
        throw forbidden("cross-origin request refused (Origin: " + origin.get() + ")");
      }
      return inner.get();
    });
  }

  /** The inner route for requests with the right bearer token or dashboard cookie; 401 or 429 otherwise. */
  public Route authenticated(Supplier<Route> inner) {
    return extractRequest(request -> {
      Optional<String> bearer = bearer(request);
      if (bearer.isPresent()) {
        String who = limiterKey(request);
        refuseIfBlocked(who);
        if (tokenMatches(bearer.get())) {
          return inner.get();
        }
        failed(who);
        throw unauthorized("wrong token");
      }
      Optional<String> cookie = cookie(request);
      if (cookie.isPresent()) {
        // Cookie secrets are 256 random bits: not guessable, so a stale one (server restarted) is not counted.
        if (knownBrowser(cookie.get())) {
          return inner.get();
        }
        throw unauthorized("the dashboard cookie is not valid (the server restarted?): open the URL with ?token= "
            + "that i4j serve printed");
      }
      throw unauthorized("authentication required: send Authorization: Bearer TOKEN, or open the dashboard URL "
          + "with ?token= that i4j serve printed");
    });
  }

  /**
   * {@code GET /?token=TOKEN}: the right token sets the dashboard cookie and redirects to {@code /}, so the token
   * leaves the address bar and the browser history.
   */
  public Route login(String token) {
    return extractRequest(request -> {
      String who = limiterKey(request);
      refuseIfBlocked(who);
      if (!tokenMatches(token)) {
        failed(who);
        return complete(HttpResponse.create().withStatus(StatusCodes.UNAUTHORIZED)
            .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, page("Wrong token",
                "This token is not the one the server printed. Open the URL that <code>i4j serve</code> printed."))));
      }
      String secret = newSecret();
      synchronized (browserSessions) {
        browserSessions.add(hashString(secret));
      }
      HttpCookie cookie = HttpCookie.create(COOKIE, secret).withPath("/").withHttpOnly(true)
          .withSameSite(SameSite.Strict);
      return complete(HttpResponse.create().withStatus(StatusCodes.SEE_OTHER)
          .addHeader(SetCookie.create(cookie))
          .addHeader(Location.create("/"))
          .addHeader(CacheControl.create(CacheDirectives.NO_STORE)));
    });
  }

  /** The HTML answer to an unauthenticated visit of the dashboard page. */
  public static HttpResponse loginPage() {
    return HttpResponse.create().withStatus(StatusCodes.UNAUTHORIZED)
        .withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, page("interpreter4j",
            "Open the dashboard with the URL that <code>i4j serve</code> printed "
                + "(it ends in <code>?token=...</code>).")));
  }

  /** Whether a request carries a valid dashboard cookie (for choosing between the page and the login page). */
  public boolean hasValidCookie(HttpRequest request) {
    return cookie(request).map(this::knownBrowser).orElse(false);
  }

  boolean tokenMatches(String candidate) {
    return MessageDigest.isEqual(sha256(candidate), tokenHash);
  }

  private boolean knownBrowser(String secret) {
    synchronized (browserSessions) {
      return browserSessions.contains(hashString(secret));
    }
  }

  private void refuseIfBlocked(String who) {
    limiter.blockedFor(who).ifPresent(wait -> {
      long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
      throw new ApiError(StatusCodes.TOO_MANY_REQUESTS, "too_many_requests",
          "too many wrong tokens from " + who + "; try again in " + seconds + " s",
          List.of(RawHeader.create("Retry-After", Long.toString(seconds))));
    });
  }

  private void failed(String who) {
    limiter.fail(who);
    metrics.authFailure();
  }

  /**
   * Whose wrong tokens a token check counts: the client address, and apart from it the same address's cross-site
   * requests, which any web page the user opens can make (an image pointing at {@code /?token=x}) and so must not
   * lock out the programs and pages that hold the right token.
   */
  String limiterKey(HttpRequest request) {
    String address = clientAddress(request);
    return isCrossSite(request) ? "cross-site pages at " + address : address;
  }

  /**
   * Whether a browser says the request comes from another site: {@code Sec-Fetch-Site} other than
   * {@code same-origin} or {@code none} (the user typed or pasted the URL), or, from browsers without it, an
   * {@code Origin} or {@code Referer} that is not this server's.
   */
  boolean isCrossSite(HttpRequest request) {
    Optional<String> site = header(request, "Sec-Fetch-Site");
    if (site.isPresent()) {
      String s = site.get().strip().toLowerCase(Locale.ROOT);
      return !s.equals("same-origin") && !s.equals("none");
    }
    Optional<String> origin = header(request, "Origin");
    if (origin.isPresent() && !isOwnOrigin(origin.get(), request)) {
      return true;
    }
    Optional<String> referer = header(request, "Referer");
    return referer.isPresent() && !isOwnOrigin(originOf(referer.get()), request);
  }

  /** {@code scheme://host[:port]} of a URL, or the text itself when it is not one. */
  private static String originOf(String url) {
    int scheme = url.indexOf("://");
    if (scheme < 0) {
      return url;
    }
    int path = url.indexOf('/', scheme + 3);
    return path < 0 ? url : url.substring(0, path);
  }

  private boolean isOwnOrigin(String origin, HttpRequest request) {
    String o = stripSlash(origin.toLowerCase(Locale.ROOT));
    if (ownOrigins.contains(o)) {
      return true;
    }
    // Reached under a name of its own (--allow-remote): a page served by this very host and port is ours.
    return allowRemote && o.equals("http://" + request.getUri().host().address().toLowerCase(Locale.ROOT) + ":"
        + request.getUri().port());
  }

  private static Optional<String> bearer(HttpRequest request) {
    return request.getHeader(Authorization.class)
        .filter(a -> a.credentials() instanceof OAuth2BearerToken)
        .map(a -> ((OAuth2BearerToken) a.credentials()).token());
  }

  private static Optional<String> cookie(HttpRequest request) {
    for (HttpHeader h : request.getHeaders()) {
      if (h instanceof Cookie c) {
        for (HttpCookiePair pair : c.getCookies()) {
          if (pair.name().equals(COOKIE)) {
            return Optional.of(pair.value());
          }
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> header(HttpRequest request, String name) {
    return request.getHeader(name).map(HttpHeader::value);
  }

  /** The peer's address from the connection (never from X-Forwarded-For, which anyone can send). */
  static String clientAddress(HttpRequest request) {
    return request.getAttribute(AttributeKeys.remoteAddress)
        .flatMap(r -> r.getAddress())
        .map(InetAddress::getHostAddress)
        .orElse("unknown");
  }

  private String newSecret() {
    byte[] b = new byte[32];
    random.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static ApiError unauthorized(String detail) {
    return new ApiError(StatusCodes.UNAUTHORIZED, "unauthorized", detail,
        List.of(RawHeader.create("WWW-Authenticate", "Bearer realm=\"i4j\"")));
  }

  private static ApiError forbidden(String detail) {
    return new ApiError(StatusCodes.FORBIDDEN, "forbidden", detail, List.of());
  }

  private static String stripSlash(String origin) {
    return origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
  }

  private static String page(String title, String body) {
    return "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + title + "</title></head>"
        + "<body style=\"font-family: sans-serif; margin: 3em\"><h1>" + title + "</h1><p>" + body
        + "</p></body></html>";
  }

  private static String hashString(String s) {
    return Base64.getEncoder().encodeToString(sha256(s));
  }

  static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
