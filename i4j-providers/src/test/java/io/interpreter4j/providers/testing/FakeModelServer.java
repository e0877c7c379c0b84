package io.interpreter4j.providers.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model server on 127.0.0.1:0 written on a raw {@link ServerSocket}, so that a test controls every TCP write:
 * HTTP chunks cut anywhere, flushes between byte pieces, stalls, resets. The n-th request is served by the n-th
 * handler (the last one serves the rest); each connection carries one request and is closed after it.
 */
public final class FakeModelServer implements AutoCloseable {

  /** Serves one request. */
  @FunctionalInterface
  public interface Handler {
    void handle(Exchange exchange) throws IOException;
  }

  /** A request as received. Header names are lower case. */
  public record Request(String method, String path, Map<String, String> headers, String body) {}

  private final ServerSocket server;
  private final List<Handler> handlers;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger served = new AtomicInteger();
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fake-model-server");
    t.setDaemon(true);
    return t;
  });

  private FakeModelServer(List<Handler> handlers) throws IOException {
    this.handlers = List.copyOf(handlers);
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    pool.execute(this::acceptLoop);
  }

  public static FakeModelServer start(Handler... handlers) throws IOException {
    return new FakeModelServer(List.of(handlers));
  }

  public int port() {
    return server.getLocalPort();
  }

  /** {@code http://127.0.0.1:PORT/v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port() + "/v1";
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() throws IOException {
    server.close();
    pool.shutdownNow();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        pool.execute(() -> serve(socket));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(20_000);
      Request request = readRequest(socket.getInputStream());
      if (request == null) {
        return;
      }
      requests.add(request);
      int n = served.getAndIncrement();
      Handler handler = handlers.get(Math.min(n, handlers.size() - 1));
      handler.handle(new Exchange(socket, request));
    } catch (IOException ignored) {
      // the client went away; the test asserts on what it saw
    }
  }

  private static Request readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
      }
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    return new Request(requestLine[0], requestLine[1], headers, new String(body, StandardCharsets.UTF_8));
  }

  /** One request and the means to answer it byte by byte. */
  public static final class Exchange {
    private final Socket socket;
    private final OutputStream out;
    private final Request request;

    Exchange(Socket socket, Request request) throws IOException {
      this.socket = socket;
      this.out = socket.getOutputStream();
      this.request = request;
    }

    public Request request() {
      return request;
    }

    /** Status line and headers of a chunked {@code text/event-stream} response. */
    public Exchange startEventStream() throws IOException {
      return startChunked(200, "text/event-stream", Map.of());
    }

    public Exchange startChunked(int status, String contentType, Map<String, String> headers) throws IOException {
      StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n")
          .append("Content-Type: ").append(contentType).append("\r\n")
          .append("Transfer-Encoding: chunked\r\nConnection: close\r\n");
      headers.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
      write(sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      return this;
    }

    /** Sends {@code text} as one HTTP chunk, flushed. */
    public Exchange chunk(String text) throws IOException {
      byte[] data = text.getBytes(StandardCharsets.UTF_8);
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      b.writeBytes((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      b.writeBytes(data);
      b.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      write(b.toByteArray());
      return this;
    }

    /** Sends {@code text} as HTTP chunks of {@code size} bytes each, flushed one by one: SSE frames cut anywhere. */
    public Exchange chunksOf(int size, String text) throws IOException {
      byte[] data = text.getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < data.length; i += size) {
        int len = Math.min(size, data.length - i);
        write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        // The chunk's own bytes go in two TCP writes too.
        int half = len / 2;
        write(java.util.Arrays.copyOfRange(data, i, i + half));
        write(java.util.Arrays.copyOfRange(data, i + half, i + len));
        write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
      return this;
    }

    /**
     * Status line and headers of an event stream with neither a length nor chunked encoding: the body ends when the
     * server closes the connection, as servers speaking HTTP/1.0 send it. Write its bytes with {@link #raw}.
     */
    public Exchange startCloseDelimitedEventStream() throws IOException {
      write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      return this;
    }

    /** Sends {@code text} as it is, flushed (the body of a close-delimited response). */
    public Exchange raw(String text) throws IOException {
      write(text.getBytes(StandardCharsets.UTF_8));
      return this;
    }

    /**
     * Closes the connection cleanly (FIN) wherever the response is: without the last chunk, a chunked body is cut;
     * a close-delimited body ends here.
     */
    public void close() throws IOException {
      socket.shutdownOutput();
      socket.close();
    }

    /** The last chunk: the body ends cleanly. */
    public void end() throws IOException {
      write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A complete response with a fixed-length body. */
    public void respond(int status, String contentType, String body, Map<String, String> headers) throws IOException {
      byte[] data = body.getBytes(StandardCharsets.UTF_8);
      StringBuilder sb = new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n")
          .append("Content-Type: ").append(contentType).append("\r\n")
          .append("Content-Length: ").append(data.length).append("\r\nConnection: close\r\n");
      headers.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
      write(sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      write(data);
    }

    /** Closes the connection with a TCP reset (RST), as a crashed server or proxy does. */
    public void reset() throws IOException {
      socket.setSoLinger(true, 0);
      socket.close();
    }

    /**
     * Sends nothing more and waits for the client to close the connection; true when it did (EOF or reset seen
     * on read) within {@code millis}, false on timeout.
     */
    public boolean awaitClientClose(int millis) throws IOException {
      socket.setSoTimeout(millis);
      try {
        InputStream in = socket.getInputStream();
        while (in.read() >= 0) {
          // discard: the client sends nothing more on a one-request connection
        }
        return true;
      } catch (SocketTimeoutException stillOpen) {
        return false;
      } catch (SocketException reset) {
        return true;
      }
    }

    private void write(byte[] bytes) throws IOException {
      out.write(bytes);
      out.flush();
    }

    private static String reason(int status) {
      return switch (status) {
        case 200 -> "OK";
        case 400 -> "Bad Request";
        case 401 -> "Unauthorized";
        case 404 -> "Not Found";
        case 429 -> "Too Many Requests";
        case 500 -> "Internal Server Error";
        case 529 -> "Overloaded";
        default -> "Status";
      };
    }
  }

  /** SSE frames of an OpenAI-style stream: one {@code data:} event per text piece, then usage and [DONE]. */
  public static String openAiStream(List<String> pieces, String lineEnd, boolean withUsage) {
    StringBuilder sb = new StringBuilder();
    sb.append(": keep-alive").append(lineEnd).append(lineEnd);
    sb.append("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":")
        .append("\"assistant\",\"content\":\"\"},\"finish_reason\":null}],\"usage\":null}").append(lineEnd).append(lineEnd);
    for (String p : pieces) {
      sb.append(openAiDelta(p)).append(lineEnd).append(lineEnd);
    }
    sb.append("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}")
        .append(lineEnd).append(lineEnd);
    if (withUsage) {
      sb.append("data: {\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,")
          .append("\"total_tokens\":17}}").append(lineEnd).append(lineEnd);
    }
    sb.append("data: [DONE]").append(lineEnd).append(lineEnd);
    return sb.toString();
  }

  /** One {@code data:} line carrying a text delta (JSON-escaped). */
  public static String openAiDelta(String text) {
    return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
        + jsonString(text) + "},\"finish_reason\":null}]}";
  }

  public static String jsonString(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
