package io.interpreter4j.runtime.computer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * The python API's way to the session's {@link ComputerRouter}: a Unix domain socket in a private folder (mode
 * 0700) that only this session's processes are told about ({@code I4J_COMPUTER_SOCKET}), bound into the sandbox
 * alone. One call per connection: a line of JSON {@code {"target", "action", "args"}} in, a line of JSON
 * {@code {"ok", "text", "png", "url"}} out ({@code png}: base64 of a screenshot, or null). A request longer than
 * {@value #MAX_REQUEST} bytes is refused. At most {@value #WORKERS} calls are served at once and {@value #QUEUED}
 * wait; more are refused with the reason.
 */
public final class ComputerChannel implements AutoCloseable {

  static final int MAX_REQUEST = 1024 * 1024;
  static final int WORKERS = 2;
  static final int QUEUED = 16;
  /** Longer than the router's own timeout, so its answer always comes first. */
  static final Duration ASK_TIMEOUT = ComputerRouter.ACTION_TIMEOUT.plusMinutes(1);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path folder;
  private final Path socket;
  private final ServerSocketChannel server;
  private final ActorRef<ComputerRouter.Command> router;
  private final Scheduler scheduler;
  private final ThreadPoolExecutor calls;
  private final Thread acceptor;
  private volatile boolean closed;

  private ComputerChannel(Path folder, ServerSocketChannel server, ActorRef<ComputerRouter.Command> router,
                          Scheduler scheduler) {
    this.folder = folder;
    this.socket = folder.resolve("channel.sock");
    this.server = server;
    this.router = router;
    this.scheduler = scheduler;
    this.calls = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED),
        r -> daemon(r, "i4j-computer-call"));
    this.calls.allowCoreThreadTimeOut(true);
    this.acceptor = daemon(this::accept, "i4j-computer-channel");
  }

  /** Opens a channel in a new private folder under {@code /tmp} (short: a socket path has at most 107 bytes). */
  public static ComputerChannel open(ActorRef<ComputerRouter.Command> router, Scheduler scheduler) {
    try {
      Path folder = Files.createTempDirectory(Path.of("/tmp"), "i4j-computer-",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(folder.resolve("channel.sock")));
      ComputerChannel channel = new ComputerChannel(folder, server, router, scheduler);
      channel.acceptor.start();
      return channel;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the computer channel: " + e.getMessage(), e);
    }
  }

  /** The socket's path, for {@code I4J_COMPUTER_SOCKET}. */
  public Path socket() {
    return socket;
  }

  private void accept() {
    while (!closed) {
      SocketChannel client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      try {
        calls.execute(() -> serve(client));
      } catch (RejectedExecutionException e) {
        answer(client, failure("too many computer calls at once; make one call at a time"));
      }
    }
  }

  private void serve(SocketChannel client) {
    ObjectNode reply;
    try {
      reply = call(readLine(client));
    } catch (IllegalArgumentException e) {
      reply = failure(e.getMessage());
    } catch (IOException e) {
      closeQuietly(client);
      return;
    }
    answer(client, reply);
  }

  private ObjectNode call(String line) {
    JsonNode request;
    try {
      request = JSON.readTree(line);
    } catch (IOException e) {
      throw new IllegalArgumentException("the request is not JSON: " + e.getMessage());
    }
    String target = request.path("target").asText("");
    String action = request.path("action").asText("");
    @SuppressWarnings("unchecked")
    Map<String, Object> args = request.has("args") && request.get("args").isObject()
        ? JSON.convertValue(request.get("args"), Map.class) : Map.of();
    ActionOutcome outcome;
    try {
      outcome = AskPattern.<ComputerRouter.Command, ActionOutcome>ask(router,
          replyTo -> new ComputerRouter.Act(target, action, args, replyTo), ASK_TIMEOUT, scheduler)
          .toCompletableFuture().get(ASK_TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      outcome = ActionOutcome.failed("the session did not answer (" + e + "); it may have ended");
    }
    ObjectNode reply = JSON.createObjectNode().put("ok", outcome.ok()).put("text", outcome.text());
    outcome.screenshotPng().ifPresentOrElse(png -> reply.put("png", Base64.getEncoder().encodeToString(png)),
        () -> reply.putNull("png"));
    outcome.url().ifPresentOrElse(url -> reply.put("url", url), () -> reply.putNull("url"));
    return reply;
  }

  private static String readLine(SocketChannel client) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(8192);
    while (true) {
      buffer.clear();
      int n = client.read(buffer);
      if (n < 0) {
        break;
      }
      for (int i = 0; i < n; i++) {
        byte b = buffer.get(i);
        if (b == '\n') {
          return line.toString(StandardCharsets.UTF_8);
        }
        line.write(b);
      }
      if (line.size() > MAX_REQUEST) {
        throw new IllegalArgumentException("the request is longer than " + MAX_REQUEST + " bytes");
      }
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  private static ObjectNode failure(String text) {
    return JSON.createObjectNode().put("ok", false).put("text", text).putNull("png").putNull("url");
  }

  private static void answer(SocketChannel client, ObjectNode reply) {
    try (client) {
      ByteBuffer bytes = ByteBuffer.wrap((reply.toString() + "\n").getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        client.write(bytes);
      }
    } catch (IOException e) {
      // the caller went away (its block was interrupted): nothing to tell
    }
  }

  private static void closeQuietly(SocketChannel client) {
    try {
      client.close();
    } catch (IOException ignored) {
      // already gone
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    calls.shutdownNow();
    try (Stream<Path> files = Files.walk(folder)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a folder left in /tmp, removed at the next boot
    }
  }
}
