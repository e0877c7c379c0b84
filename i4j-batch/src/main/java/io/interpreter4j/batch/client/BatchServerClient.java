package io.interpreter4j.batch.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Talks to the batch endpoints of an {@code i4j serve} (one node or a cluster): {@code POST /api/batches},
 * {@code GET /api/batches/{id}} and {@code GET /api/batches/{id}/results?from=N}, with the API token as a bearer
 * token. Every failure is a {@link ServerException} whose message a person can act on.
 */
public final class BatchServerClient {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  /** One problem of a task file the server rejected (line 0: the file as a whole). */
  public record Problem(int line, String message) {}

  /** The server accepted the batch. */
  public record Accepted(String id, int total, List<Problem> skipped) {}

  /** The server could not be asked, or answered other than expected. */
  public static class ServerException extends Exception {
    public ServerException(String message) {
      super(message);
    }
  }

  /** The server could not be reached or did not answer in time: it may be down or restarting. */
  public static final class Unreachable extends ServerException {
    public Unreachable(String message) {
      super(message);
    }
  }

  /** 400: the task file is invalid ({@code problems}) or a parameter is ({@code problems} empty). */
  public static final class Rejected extends ServerException {
    private final List<Problem> problems;

    public Rejected(String detail, List<Problem> problems) {
      super(detail);
      this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
      return problems;
    }
  }

  private final URI base;
  private final String token;
  private final HttpClient http;

  /** @param base the server's URL, {@code http://127.0.0.1:8717} (a trailing slash or path is allowed) */
  public BatchServerClient(URI base, String token) {
    String text = base.toString();
    this.base = URI.create(text.endsWith("/") ? text : text + "/");
    this.token = token;
    this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  }

  /** Checks a {@code --server} value: an http or https URL with a host. */
  public static URI parseUrl(String text) {
    URI uri;
    try {
      uri = URI.create(text.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--server: \"" + text + "\" is not a URL; give the server's address, like "
          + "http://127.0.0.1:8717");
    }
    if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException("--server: \"" + text + "\" is not an http(s) URL with a host; give the "
          + "server's address, like http://127.0.0.1:8717");
    }
    return uri;
  }

  public URI base() {
    return base;
  }

  /** {@code POST /api/batches?params} with the task file's text. */
  public Accepted submit(String tasks, Map<String, String> params) throws ServerException, InterruptedException {
    String query = params.entrySet().stream()
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    HttpRequest request = request("api/batches" + (query.isEmpty() ? "" : "?" + query))
        .header("Content-Type", "text/plain; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(tasks, StandardCharsets.UTF_8)).build();
    HttpResponse<String> response = send(request);
    JsonNode body = json(response);
    if (response.statusCode() == 400) {
      throw new Rejected(body.path("detail").asText("the server rejected the batch"), problems(body.path("problems")));
    }
    expect(response, body, 201);
    return new Accepted(body.path("id").asText(), body.path("total").asInt(), problems(body.path("skipped")));
  }

  /** {@code GET /api/batches/{id}}: where the batch stands. */
  public JsonNode progress(String id) throws ServerException, InterruptedException {
    HttpResponse<String> response = send(request("api/batches/" + encode(id)).GET().build());
    JsonNode body = json(response);
    expect(response, body, 200);
    return body;
  }

  /** {@code GET /api/batches/{id}/results?from=N}: result lines from the {@code from}-th on (maybe not all). */
  public List<String> results(String id, int from) throws ServerException, InterruptedException {
    HttpResponse<String> response = send(request("api/batches/" + encode(id) + "/results?from=" + from).GET()
        .build());
    if (response.statusCode() != 200) {
      expect(response, json(response), 200);
    }
    return response.body().lines().filter(l -> !l.isBlank()).toList();
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT)
        .header("Authorization", "Bearer " + token).header("Accept", "application/json, application/x-ndjson");
  }

  private HttpResponse<String> send(HttpRequest request) throws ServerException, InterruptedException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (ConnectException e) {
      throw new Unreachable("cannot reach the server at " + origin() + " (connection refused): is "
          + "`i4j serve` running there?");
    } catch (HttpTimeoutException e) {
      throw new Unreachable("the server at " + origin() + " did not answer in time (" + e.getMessage() + ")");
    } catch (IOException e) {
      throw new Unreachable("cannot talk to the server at " + origin() + ": " + e);
    }
  }

  /** The server's URL without a trailing slash, for messages. */
  public String origin() {
    String text = base.toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  private void expect(HttpResponse<String> response, JsonNode body, int status) throws ServerException {
    int got = response.statusCode();
    if (got == status) {
      return;
    }
    String detail = body.path("detail").asText(body.path("error").asText(""));
    String what = request(response);
    throw switch (got) {
      case 401 -> new ServerException("the server at " + origin() + " refused the token (401 unauthorized): set "
          + "I4J_TOKEN to the token of that `i4j serve` (printed in its dashboard URL)");
      case 404 -> new ServerException(what + ": not found (404)" + (detail.isEmpty() ? "" : ": " + detail)
          + "; is this an i4j server that runs batches?");
      case 400 -> new Rejected(detail.isEmpty() ? "the server rejected the request (400)" : detail, List.of());
      default -> new ServerException(what + ": the server answered " + got + (detail.isEmpty() ? "" : ": " + detail));
    };
  }

  private static String request(HttpResponse<String> response) {
    return response.request().method() + " " + response.request().uri().getPath();
  }

  private static JsonNode json(HttpResponse<String> response) {
    try {
      JsonNode node = JSON.readTree(response.body());
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  private static List<Problem> problems(JsonNode list) {
    List<Problem> out = new ArrayList<>();
    for (JsonNode p : list) {
      out.add(new Problem(p.path("line").asInt(), p.path("message").asText()));
    }
    return out;
  }

  private static String encode(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
