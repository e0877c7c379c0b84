package io.interpreter4j.cluster.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The cluster's live feed: another node's bytes cut into whole frames, and a merge that ends with any part. */
class ClusterFeedTest {
  private static ActorSystem<Void> system;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "cluster-feed-test");
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @Test
  void framesCutAcrossChunksArePassedOnWholeWithoutKeepAlives() throws Exception {
    List<ByteString> chunks = List.of(ByteString.fromString("data: {\"session\":\"a\",\"ty"),
        ByteString.fromString("pe\":\"user_message\"}\n\n: keep-alive\n\ndata: {\"session\":\"b\"}\n"),
        ByteString.fromString("\ndata: {\"session\":\"c\"}\n\n"));
    List<String> frames = Source.from(chunks).via(ClusterFeed.frames()).map(ByteString::utf8String)
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of("data: {\"session\":\"a\",\"type\":\"user_message\"}\n\n", "data: {\"session\":\"b\"}\n\n",
        "data: {\"session\":\"c\"}\n\n"), frames);
  }

  @Test
  void theMergedFeedEndsWhenAnotherNodesPartEnds() throws Exception {
    Source<ByteString, org.apache.pekko.NotUsed> local = Source.<ByteString>never()
        .mapMaterializedValue(m -> org.apache.pekko.NotUsed.getInstance());
    Source<ByteString, org.apache.pekko.NotUsed> other = Source.single(ByteString.fromString("data: {}\n\n"));
    List<ByteString> seen = ClusterFeed.merge(local, List.of(other), () -> true)
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(ByteString.fromString("data: {}\n\n")), seen);
  }

  @Test
  void theMergedFeedEndsWhenTheNodesChange() throws Exception {
    AtomicBoolean same = new AtomicBoolean(false);
    Source<ByteString, org.apache.pekko.NotUsed> never = Source.<ByteString>never()
        .mapMaterializedValue(m -> org.apache.pekko.NotUsed.getInstance());
    List<ByteString> seen = ClusterFeed.merge(never, List.of(never), same::get)
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(), seen);
  }
}
