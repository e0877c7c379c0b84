package io.interpreter4j.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** The HTTP API of a node, as a client uses it: JSON calls and event streams, with the token. */
final class Api {
  /** One event read from a stream: its SSE id and its JSON. */
  record Sse(long id, JsonNode event) {}

  /** The event's {@code type}. */
  static String type(Sse e) {
    return e.event().path("type").asText();
  }

  /** A turn ended after the user message "again". */
  static boolean answeredAgain(List<Sse> seen) {
    boolean asked = false;
    for (Sse e : seen) {
      if (type(e).equals("user_message") && e.event().path("text").asText().equals("again")) {
        asked = true;
      } else if (asked && type(e).equals("turn_finished")) {
        return true;
      }
    }
    return false;
  }

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String token;

  Api(String token) {
    this.token = token;
  }

  HttpResponse<String> send(String method, String url, String json) throws Exception {
    return send(method, url, json, Map.of());
  }

  /** As {@link #send(String, String, String)} with more headers; the body is read to its end. */
  HttpResponse<String> send(String method, String url, String json, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token);
    headers.forEach(b::header);
    if (json != null) {
      b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  JsonNode json(String method, String url, String body, int expected) throws Exception {
    HttpResponse<String> r = send(method, url, body);
    if (r.statusCode() != expected) {
      throw new AssertionError(method + " " + url + ": " + r.statusCode() + " " + r.body());
    }
    return EventCodec.mapper().readTree(r.body());
  }

  /**
   * Reads the event stream of a session from {@code lastEventId} (null: the start) until an event matches
   * {@code until}; fails when the stream ends first or {@code within} passes.
   */
  List<Sse> events(String url, String session, Long lastEventId, Predicate<List<Sse>> until, Duration within)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/api/sessions/" + session + "/events"))
        .header("Authorization", "Bearer " + token);
    if (lastEventId != null) {
      b.header("Last-Event-ID", Long.toString(lastEventId));
    }
    HttpResponse<InputStream> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    if (r.statusCode() != 200) {
      throw new AssertionError("events of " + session + " at " + url + ": " + r.statusCode() + " "
          + new String(r.body().readAllBytes(), StandardCharsets.UTF_8));
    }
    List<Sse> seen = new ArrayList<>();
    CompletableFuture<Boolean> done = CompletableFuture.supplyAsync(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
        long id = -1;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith("id: ")) {
            id = Long.parseLong(line.substring(4));
          } else if (line.startsWith("data: ") && id >= 0) {
            synchronized (seen) {
              seen.add(new Sse(id, EventCodec.mapper().readTree(line.substring(6))));
              if (until.test(seen)) {
                return true;
              }
            }
            id = -1;
          }
        }
        return false;
      } catch (Exception e) {
        return false;
      }
    });
    try {
      boolean reached = done.get(within.toSeconds(), TimeUnit.SECONDS);
      if (!reached) {
        throw new AssertionError("the event stream of " + session + " at " + url + " ended early: " + types(seen));
      }
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the event stream of " + session + " at " + url + " did not reach its end within "
          + within + ": " + types(seen));
    } finally {
      r.body().close();
    }
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /**
   * Follows an endless event stream ({@code GET url}) in the background, keeping the JSON of each {@code data:} line;
   * closing it ends the stream.
   */
  Feed follow(String url) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).build();
    HttpResponse<java.util.stream.Stream<String>> r = HTTP.send(request, HttpResponse.BodyHandlers.ofLines());
    if (r.statusCode() != 200) {
      r.body().close();
      throw new AssertionError("GET " + url + ": " + r.statusCode());
    }
    Feed feed = new Feed(r.body());
    Thread reader = new Thread(feed::read, "feed-reader");
    reader.setDaemon(true);
    reader.start();
    return feed;
  }

  /** The events an endless stream gave so far. */
  static final class Feed implements AutoCloseable {
    private final java.util.stream.Stream<String> lines;
    private final List<JsonNode> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

    private Feed(java.util.stream.Stream<String> lines) {
      this.lines = lines;
    }

    private void read() {
      try {
        lines.forEach(line -> {
          if (line.startsWith("data: ")) {
            try {
              seen.add(EventCodec.mapper().readTree(line.substring(6)));
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        });
      } catch (RuntimeException e) {
        // closed, or the stream ended: what was seen stays
      }
    }

    List<JsonNode> seen() {
      return List.copyOf(seen);
    }

    @Override
    public void close() {
      lines.close();
    }
  }

  static List<String> types(List<Sse> events) {
    synchronized (events) {
      return events.stream().map(e -> e.id() + ":" + e.event().path("type").asText()).toList();
    }
  }
}
