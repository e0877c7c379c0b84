package io.interpreter4j.server.http;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.AttributeKey;
import org.apache.pekko.http.javadsl.model.HttpProtocols;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.SharedKillSwitch;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Notices when the client of a connection has gone, so its event streams end at once. Pekko HTTP learns that a
 * client closed its connection only when a write to it fails, and an idle event stream writes nothing but a
 * keep-alive every so often: a client that left stayed counted (and subscribed) for one or two keep-alive intervals,
 * forever with a long one. The requests of a connection end when its client closes the connection; then every event
 * stream of that connection is ended through the connection's kill switch. A request that asks for the connection
 * to close after it ({@code Connection: close}, HTTP/1.0) also ends the requests; for its stream the keep-alive
 * stays the only way to notice.
 */
public final class ConnectionWatch {
  private static final AttributeKey<SharedKillSwitch> CLIENT_GONE =
      AttributeKey.create("i4j-client-gone", SharedKillSwitch.class);

  private ConnectionWatch() {}

  /** The handler of every connection, with each request told how to notice that its client has gone. */
  public static Flow<HttpRequest, HttpResponse, NotUsed> around(Flow<HttpRequest, HttpResponse, NotUsed> handler) {
    return Flow.<HttpRequest, HttpResponse, NotUsed>fromMaterializer((materializer, attributes) -> {
      SharedKillSwitch gone = KillSwitches.shared("i4j-client-gone");
      AtomicBoolean lastAsksToClose = new AtomicBoolean();
      return Flow.of(HttpRequest.class)
          .map(request -> {
            lastAsksToClose.set(asksToClose(request));
            return request.addAttribute(CLIENT_GONE, gone);
          })
          .watchTermination((mat, done) -> {
            done.whenComplete((d, failure) -> {
              if (!lastAsksToClose.get()) {
                gone.shutdown();
              }
            });
            return mat;
          })
          .via(handler);
    }).mapMaterializedValue(ignored -> NotUsed.getInstance());
  }

  /** {@code stream}, ended when the client that sent {@code request} has gone. */
  static <T> Source<T, NotUsed> untilClientGone(HttpRequest request, Source<T, NotUsed> stream) {
    return request.getAttribute(CLIENT_GONE).map(gone -> stream.via(gone.flow())).orElse(stream);
  }

  /** Whether the connection closes after this request's response (then its end says nothing about the client). */
  static boolean asksToClose(HttpRequest request) {
    String connection = request.getHeader("Connection").map(h -> h.value().toLowerCase(Locale.ROOT)).orElse("");
    if (request.protocol().equals(HttpProtocols.HTTP_1_0)) {
      return !connection.contains("keep-alive");
    }
    return connection.contains("close");
  }
}
