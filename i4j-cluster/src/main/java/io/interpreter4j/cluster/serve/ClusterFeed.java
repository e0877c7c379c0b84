package io.interpreter4j.cluster.serve;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.CacheControl;
import org.apache.pekko.http.javadsl.model.headers.CacheDirectives;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Framing;
import org.apache.pekko.stream.javadsl.FramingTruncation;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * The cluster's live feed ({@code GET /api/events} on any node): this node's feed of all its sessions' events merged
 * with the same feed of every other node, read over HTTP, as Server-Sent Events (one {@code data:} frame per event,
 * no id: the feed mixes sessions). Another node's frames are cut at their blank line and passed on whole, its
 * keep-alive comments left out. The merged feed ends, and the client reconnects (then it follows the nodes there
 * are), when any part ends (a node gone, a client too slow for a node's bounded feed) or the set of nodes changes.
 */
final class ClusterFeed {
  private static final ByteString END_OF_FRAME = ByteString.fromString("\n\n");
  /** The largest event frame passed on; a longer one ends that node's part (the client reconnects). */
  static final int MAX_FRAME = 4 * 1024 * 1024;
  /** How often the set of nodes is compared with the one the feed was opened with. */
  static final Duration CHECK_NODES = Duration.ofSeconds(2);
  private static final ByteString KEEP_ALIVE = ByteString.fromString(": keep-alive\n\n");

  private ClusterFeed() {}

  /** Whole frames of an event stream's bytes, keep-alive comments left out. */
  static Flow<ByteString, ByteString, NotUsed> frames() {
    return Flow.<ByteString>create()
        .via(Framing.delimiter(END_OF_FRAME, MAX_FRAME, FramingTruncation.ALLOW))
        .filter(frame -> !frame.isEmpty() && frame.head() != ':')
        .map(frame -> frame.concat(END_OF_FRAME))
        .named("sse-frames");
  }

  /** Another node's feed: its frames, ending quietly when it cannot be reached or its stream fails. */
  static Source<ByteString, NotUsed> remote(CompletionStage<HttpResponse> response, ActorSystem<?> system) {
    return Source.completionStageSource(response.thenApply(r -> {
          if (r.status().intValue() != 200) {
            r.discardEntityBytes(system);
            return Source.<ByteString>empty();
          }
          return r.entity().getDataBytes().mapMaterializedValue(m -> NotUsed.getInstance());
        }))
        .via(frames())
        .recoverWithRetries(1, Throwable.class, Source::empty)
        .mapMaterializedValue(m -> NotUsed.getInstance());
  }

  /** {@code local} and {@code others} merged; ends with the first that ends, or when {@code sameNodes} turns false. */
  static Source<ByteString, NotUsed> merge(Source<ByteString, NotUsed> local, List<Source<ByteString, NotUsed>> others,
                                           BooleanSupplier sameNodes) {
    Source<ByteString, NotUsed> merged = local;
    for (Source<ByteString, NotUsed> other : others) {
      merged = merged.merge(other, true);
    }
    Source<ByteString, NotUsed> watch = Source.tick(CHECK_NODES, CHECK_NODES, ByteString.emptyByteString())
        .takeWhile(tick -> sameNodes.getAsBoolean())
        .filter(tick -> false)
        .mapMaterializedValue(c -> NotUsed.getInstance());
    return merged.merge(watch, true);
  }

  /** The feed as an event-stream response, with a keep-alive comment after each silent {@code keepAlive}. */
  static HttpResponse response(Source<ByteString, NotUsed> frames, Duration keepAlive) {
    return HttpResponse.create()
        .withEntity(HttpEntities.create(MediaTypes.TEXT_EVENT_STREAM.toContentType(),
            frames.keepAlive(keepAlive, () -> KEEP_ALIVE)))
        .addHeaders(List.of(CacheControl.create(CacheDirectives.NO_CACHE), RawHeader.create("X-Accel-Buffering",
            "no")));
  }
}
