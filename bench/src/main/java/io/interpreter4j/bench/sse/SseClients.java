package io.interpreter4j.bench.sse;

import io.interpreter4j.bench.Samples;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Many Server-Sent-Events clients on one selector thread, the way a load generator drives them: plain HTTP/1.1 over
 * non-blocking sockets, chunked transfer decoded by hand, each {@code data:} line timed against its event's
 * {@code ts}. One thread for all clients keeps the harness from charging the server for a hundred wake-ups per event.
 */
final class SseClients implements AutoCloseable {

  /** Per connection: the response head, then chunked framing, then the SSE lines inside the chunks. */
  private static final class Connection {
    final SocketChannel channel;
    final StringBuilder head = new StringBuilder();
    boolean inBody;
    long chunkLeft = -1; // -1: reading a chunk-size line
    boolean skipCrlf;
    final StringBuilder sizeLine = new StringBuilder();
    byte[] line = new byte[1024];
    int lineLength;
    int turns;
    boolean done;

    Connection(SocketChannel channel) {
      this.channel = channel;
    }
  }

  private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TURN_FINISHED = "\"type\":\"turn_finished\"".getBytes(StandardCharsets.US_ASCII);

  private final Selector selector;
  private final List<Connection> connections = new ArrayList<>();
  /** Per turn of the session, counted down by each client that has seen its {@code turn_finished}. */
  private final List<CountDownLatch> turns;
  private final AtomicLong measureFrom;
  private final AtomicReference<Samples> lag;
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param turns       one latch per turn to follow (each counting {@code clients}); a client stops reading after
   *                    the last
   * @param measureFrom lags are taken of the events stamped at or after this (epoch nanos)
   * @param lag         where they go (the reference is read at every sample: swap it between measured turns)
   */
  SseClients(String baseUrl, String path, String token, int clients, List<CountDownLatch> turns,
      AtomicLong measureFrom, AtomicReference<Samples> lag) throws IOException {
    this.selector = Selector.open();
    this.turns = List.copyOf(turns);
    this.measureFrom = measureFrom;
    this.lag = lag;
    URI uri = URI.create(baseUrl);
    byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
        + "\r\nAuthorization: Bearer " + token + "\r\nAccept: text/event-stream\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < clients; i++) {
      SocketChannel channel = SocketChannel.open(new InetSocketAddress(uri.getHost(), uri.getPort()));
      channel.write(ByteBuffer.wrap(request));
      channel.configureBlocking(false);
      Connection c = new Connection(channel);
      connections.add(c);
      channel.register(selector, SelectionKey.OP_READ, c);
    }
    this.thread = new Thread(this::loop, "bench-sse-clients");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16);
    byte[] bytes = new byte[1 << 16];
    try {
      while (running) {
        selector.select(1000);
        var keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          Connection c = (Connection) key.attachment();
          buffer.clear();
          int n = c.channel.read(buffer);
          if (n < 0) {
            key.cancel();
            c.channel.close();
            continue;
          }
          long received = nowNanos();
          buffer.flip();
          buffer.get(bytes, 0, n);
          feed(c, bytes, n, received);
        }
      }
    } catch (IOException e) {
      // the selector was closed at the end of the run
    }
  }

  private void feed(Connection c, byte[] bytes, int n, long received) {
    int i = 0;
    while (i < n) {
      if (!c.inBody) {
        c.head.append((char) bytes[i++]);
        if (c.head.length() >= 4 && c.head.substring(c.head.length() - 4).equals("\r\n\r\n")) {
          if (!c.head.toString().startsWith("HTTP/1.1 200")) {
            throw new IllegalStateException("SSE request refused: " + c.head);
          }
          c.inBody = true;
        }
      } else if (c.skipCrlf) {
        if (bytes[i++] == '\n') {
          c.skipCrlf = false;
        }
      } else if (c.chunkLeft < 0) {
        char ch = (char) bytes[i++];
        if (ch == '\n') {
          String hex = c.sizeLine.toString().strip();
          int semicolon = hex.indexOf(';');
          c.chunkLeft = Long.parseLong(semicolon < 0 ? hex : hex.substring(0, semicolon), 16);
          c.sizeLine.setLength(0);
        } else {
          c.sizeLine.append(ch);
        }
      } else if (c.chunkLeft == 0) {
        c.chunkLeft = -1;
        c.skipCrlf = true;
      } else {
        int take = (int) Math.min(c.chunkLeft, n - i);
        for (int k = i; k < i + take; k++) {
          if (bytes[k] == '\n') {
            line(c, received);
            c.lineLength = 0;
          } else {
            if (c.lineLength == c.line.length) {
              c.line = java.util.Arrays.copyOf(c.line, c.line.length * 2);
            }
            c.line[c.lineLength++] = bytes[k];
          }
        }
        i += take;
        c.chunkLeft -= take;
        if (c.chunkLeft == 0) {
          c.chunkLeft = -1;
          c.skipCrlf = true;
        }
      }
    }
  }

  /**
   * One SSE line, read in place from its bytes: nothing is allocated per line (no String, no {@code Instant.parse}),
   * so the clients' own collections do not delay their reading.
   */
  private void line(Connection c, long received) {
    byte[] line = c.line;
    int length = c.lineLength;
    if (c.done || !Bytes.startsWith(line, length, DATA)) {
      return;
    }
    long ts = Bytes.tsNanos(line, length);
    if (ts >= measureFrom.get()) {
      lag.get().add(received - ts);
    }
    if (Bytes.indexOf(line, length, TURN_FINISHED) >= 0) {
      turns.get(c.turns).countDown();
      c.turns++;
      c.done = c.turns == turns.size();
    }
  }

  static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      selector.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Connection c : connections) {
      try {
        c.channel.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
