package io.interpreter4j.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The client's side of stdio as the SDK reads it, watched on the way: the end of the stream (the client has gone:
 * {@link #closed()}), and {@code notifications/cancelled} for a {@code tools/call} it made, which the SDK's server
 * does not act on: then {@code onCancel} runs (it interrupts the running call). Messages are JSON lines; a line
 * longer than {@link #MAX_LINE} is not inspected (it is passed on unchanged).
 */
public final class ProtocolWatch extends FilterInputStream {
  static final int MAX_LINE = 1 << 20;
  /** Ids of recent tool calls, the newest kept. */
  private static final int RECENT_CALLS = 256;

  private final Runnable onCancel;
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean overlong;
  private final Set<String> toolCalls = Collections.newSetFromMap(new LinkedHashMap<>(64, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > RECENT_CALLS;
    }
  });

  public ProtocolWatch(InputStream in, Runnable onCancel) {
    super(in);
    this.onCancel = onCancel;
  }

  /** Completes when the client's stream has ended. */
  public CompletableFuture<Void> closed() {
    return closed;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      closed.complete(null);
    } else {
      take((byte) b);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n;
    try {
      n = super.read(buffer, offset, length);
    } catch (IOException e) {
      closed.complete(null);
      throw e;
    }
    if (n < 0) {
      closed.complete(null);
    }
    for (int i = 0; i < n; i++) {
      take(buffer[offset + i]);
    }
    return n;
  }

  private void take(byte b) {
    if (b == '\n') {
      if (!overlong) {
        inspect(line.toString(java.nio.charset.StandardCharsets.UTF_8));
      }
      line.reset();
      overlong = false;
    } else if (!overlong) {
      line.write(b);
      if (line.size() > MAX_LINE) {
        overlong = true;
        line.reset();
      }
    }
  }

  void inspect(String message) {
    JsonNode node;
    try {
      node = EventCodec.mapper().readTree(message);
    } catch (IOException e) {
      return; // not JSON: the SDK says so to the client
    }
    if (node == null) {
      return;
    }
    String method = node.path("method").asText("");
    if (method.equals("tools/call") && node.has("id")) {
      toolCalls.add(node.get("id").toString());
    } else if (method.equals("notifications/cancelled")) {
      JsonNode id = node.path("params").get("requestId");
      if (id != null && toolCalls.remove(id.toString())) {
        onCancel.run();
      }
    }
  }
}
