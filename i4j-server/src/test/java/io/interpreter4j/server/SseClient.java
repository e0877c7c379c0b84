package io.interpreter4j.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A raw Server-Sent Events reader over java.net.http: a thread parses lines into events and queues them. */
final class SseClient implements AutoCloseable {

  /** One event as sent: its id and event fields (null when absent), its data, the comments before it. */
  record Frame(String id, String event, String data) {
    JsonNode json() {
      try {
        return EventCodec.mapper().readTree(data);
      } catch (IOException e) {
        throw new AssertionError("data is not JSON: " + data, e);
      }
    }

    long seq() {
      return json().path("seq").asLong();
    }

    String type() {
      return json().path("type").asText();
    }
  }

  private static final Frame END_OF_STREAM = new Frame(null, "__eof__", "");

  final HttpResponse<InputStream> response;
  private final LinkedBlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
  private final Thread reader;
  private final java.util.concurrent.CountDownLatch comment = new java.util.concurrent.CountDownLatch(1);

  private SseClient(HttpResponse<InputStream> response) {
    this.response = response;
    this.reader = new Thread(this::read, "sse-reader");
    this.reader.setDaemon(true);
  }

  static SseClient open(HttpClient http, HttpRequest request) throws IOException, InterruptedException {
    SseClient c = new SseClient(http.send(request, HttpResponse.BodyHandlers.ofInputStream()));
    if (c.response.statusCode() == 200) {
      c.reader.start();
    }
    return c;
  }

  int status() {
    return response.statusCode();
  }

  private void read() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String id = null;
      String event = null;
      StringBuilder data = null;
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isEmpty()) {
          if (data != null) {
            frames.add(new Frame(id, event, data.toString()));
          }
          id = null;
          event = null;
          data = null;
        } else if (line.startsWith(":")) {
          comment.countDown();
        } else if (line.startsWith("id:")) {
          id = line.substring(3).strip();
        } else if (line.startsWith("event:")) {
          event = line.substring(6).strip();
        } else if (line.startsWith("data:")) {
          String part = line.substring(5);
          part = part.startsWith(" ") ? part.substring(1) : part;
          data = data == null ? new StringBuilder(part) : data.append('\n').append(part);
        }
      }
    } catch (IOException e) {
      // closed by the test or the server
    } finally {
      frames.add(END_OF_STREAM);
    }
  }

  /** The next event, or an assertion failure if none comes within {@code within}; null at the end of the stream. */
  Frame next(Duration within) throws InterruptedException {
    Frame f = frames.poll(within.toMillis(), TimeUnit.MILLISECONDS);
    assertNotNull(f, "no event within " + within);
    return f == END_OF_STREAM ? null : f;
  }

  /** Events until (and including) the first of the given type in the given session, or the end of the stream. */
  List<Frame> until(String type, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    List<Frame> out = new ArrayList<>();
    while (true) {
      Frame f = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      if (f == null) {
        return out;
      }
      out.add(f);
      if (f.event() == null && type.equals(f.type())) {
        return out;
      }
    }
  }

  /** Exactly {@code n} events. */
  List<Frame> take(int n, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    List<Frame> out = new ArrayList<>();
    while (out.size() < n) {
      Frame f = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      assertNotNull(f, "the stream ended after " + out.size() + " of " + n + " events");
      out.add(f);
    }
    return out;
  }

  /** Whether a comment line (a keep-alive) arrives within {@code within}. */
  boolean awaitComment(Duration within) throws InterruptedException {
    return comment.await(within.toMillis(), TimeUnit.MILLISECONDS);
  }

  static void assertConsecutive(List<Frame> frames, long firstSeq) {
    long expected = firstSeq;
    for (Frame f : frames) {
      assertEquals(expected, f.seq(), "seq");
      assertEquals(Long.toString(expected), f.id(), "SSE id is the seq");
      expected++;
    }
  }

  @Override
  public void close() {
    try {
      response.body().close();
    } catch (IOException e) {
      // already closed
    }
  }
}
