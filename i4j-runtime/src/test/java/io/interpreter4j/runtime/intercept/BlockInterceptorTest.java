package io.interpreter4j.runtime.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.LlmChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BlockInterceptorTest {

  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static List<LlmChunk> deltas(String... texts) {
    List<LlmChunk> chunks = new ArrayList<>();
    for (String text : texts) {
      chunks.add(new LlmChunk.TextDelta(text));
    }
    return chunks;
  }

  private static List<Segment> run(Source<LlmChunk, NotUsed> source, Flow<LlmChunk, Segment, NotUsed> flow)
      throws Exception {
    return source.via(flow).runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  @Test
  void scansChunksAndDropsUsage() throws Exception {
    List<LlmChunk> chunks = deltas("Run:\n``", "`py\nprint(1)\n``", "`\nDone.");
    chunks.add(new LlmChunk.Usage(10, 20));

    List<Segment> segments = run(Source.from(chunks), BlockInterceptor.codeBlocks("python", 1));

    assertEquals(List.of(
        new Segment.Text("Run:\n"),
        new Segment.BlockOpen(1, "python", "py", true),
        new Segment.Code(1, "print(1)\n"),
        new Segment.BlockClosed(new CodeBlock(1, "python", "py", "print(1)", true, false)),
        new Segment.Text("Done.")), segments);
  }

  @Test
  void emitsTheUnterminatedBlockWhenUpstreamCompletes() throws Exception {
    List<Segment> segments = run(Source.from(deltas("```bash\necho 1\necho")), BlockInterceptor.codeBlocks("python", 3));

    assertEquals(new Segment.BlockClosed(new CodeBlock(3, "bash", "bash", "echo 1\necho", true, true)),
        segments.get(segments.size() - 1));
  }

  /** First-block mode as the streamer runs it (one fused stage) and as two stages. */
  private static Flow<LlmChunk, Segment, NotUsed> untilFirstBlock(boolean fused) {
    return fused ? BlockInterceptor.codeBlocks("python", 1, true)
        : BlockInterceptor.codeBlocks("python", 1).via(BlockInterceptor.untilFirstBlock());
  }

  @ParameterizedTest(name = "fused: {0}")
  @ValueSource(booleans = {false, true})
  void aFailedUpstreamFlushesNoBlockAndTheFailureReachesTheEnd(boolean fused) throws Exception {
    // Upstream fails only once the block has opened downstream: the failure must not close the block.
    CompletableFuture<LlmChunk> cut = new CompletableFuture<>();
    List<Segment> seen = new CopyOnWriteArrayList<>();
    CompletionStage<List<Segment>> result = Source.from(deltas("Run:\n```python\nprint(str(6*7)"))
        .concat(Source.completionStage(cut))
        .via(untilFirstBlock(fused))
        .map(segment -> {
          seen.add(segment);
          if (segment instanceof Segment.BlockOpen) {
            cut.completeExceptionally(new IllegalStateException("stream cut"));
          }
          return segment;
        })
        .runWith(Sink.seq(), testKit.system());

    ExecutionException e = assertThrows(ExecutionException.class,
        () -> result.toCompletableFuture().get(5, TimeUnit.SECONDS));
    assertEquals("stream cut", e.getCause().getMessage());
    assertEquals(List.of(new Segment.Text("Run:\n"), new Segment.BlockOpen(1, "python", "python", true)), seen);
  }

  @Test
  void eachMaterialisationGetsAFreshScanner() throws Exception {
    Flow<LlmChunk, Segment, NotUsed> flow = BlockInterceptor.codeBlocks("python", 1);
    Source<LlmChunk, NotUsed> source = Source.from(deltas("```\nx\n"));

    assertEquals(run(source, flow), run(source, flow));
    assertEquals(new Segment.BlockOpen(1, "python", "", true), run(source, flow).get(0));
  }

  @ParameterizedTest(name = "fused: {0}")
  @ValueSource(booleans = {false, true})
  void untilFirstBlockCompletesAfterTheFirstBlockAndCancelsUpstream(boolean fused) throws Exception {
    // Source.never() keeps upstream open: only a cancel can terminate it.
    Source<LlmChunk, CompletionStage<Done>> upstream = Source.from(
            deltas("a\n```python\n1\n", "```\nb\n", "```bash\n2\n```\n"))
        .concat(Source.never())
        .watchTermination(Keep.right());

    Pair<CompletionStage<Done>, CompletionStage<List<Segment>>> result = upstream
        .via(untilFirstBlock(fused))
        .toMat(Sink.seq(), Keep.both())
        .run(testKit.system());

    List<Segment> segments = result.second().toCompletableFuture().get(5, TimeUnit.SECONDS);
    assertEquals(List.of(
        new Segment.Text("a\n"),
        new Segment.BlockOpen(1, "python", "python", true),
        new Segment.Code(1, "1\n"),
        new Segment.BlockClosed(new CodeBlock(1, "python", "python", "1", true, false))), segments);
    assertEquals(Done.getInstance(), result.first().toCompletableFuture().get(5, TimeUnit.SECONDS));
  }

  @ParameterizedTest(name = "fused: {0}")
  @ValueSource(booleans = {false, true})
  void untilFirstBlockPassesEverythingWhenThereIsNoBlock(boolean fused) throws Exception {
    List<Segment> segments = Source.from(deltas("just ", "prose\n```text\nout\n```\n"))
        .via(untilFirstBlock(fused))
        .runWith(Sink.seq(), testKit.system())
        .toCompletableFuture().get(5, TimeUnit.SECONDS);

    StringBuilder text = new StringBuilder();
    segments.forEach(s -> text.append(((Segment.Text) s).text()));
    assertEquals("just prose\n```text\nout\n```\n", text.toString());
    assertTrue(segments.stream().allMatch(s -> s instanceof Segment.Text));
  }
}
