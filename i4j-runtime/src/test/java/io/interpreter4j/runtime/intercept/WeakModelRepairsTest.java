package io.interpreter4j.runtime.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** What weak models write, through the repair stage and the block interceptor, as the streamer runs them. */
class WeakModelRepairsTest {

  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The reply in pieces of {@code size} characters, with usage at the end, through both stages. */
  private static List<Segment> segments(String reply, int size) throws Exception {
    List<LlmChunk> chunks = new ArrayList<>();
    for (int i = 0; i < reply.length(); i += size) {
      chunks.add(new LlmChunk.TextDelta(reply.substring(i, Math.min(reply.length(), i + size))));
    }
    chunks.add(new LlmChunk.Usage(1, 2));
    return Source.from(chunks)
        .via(WeakModelRepairs.wrappedCode())
        .via(BlockInterceptor.codeBlocks("python", 1))
        .runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  private static List<CodeBlock> blocks(List<Segment> segments) {
    return segments.stream().filter(s -> s instanceof Segment.BlockClosed)
        .map(s -> ((Segment.BlockClosed) s).block()).toList();
  }

  private static String text(List<Segment> segments) {
    return segments.stream().filter(s -> s instanceof Segment.Text).map(s -> ((Segment.Text) s).text())
        .collect(Collectors.joining());
  }

  @Test
  void aWrapperHeldBackWhenUpstreamFailsComesOutAsNothing() throws Exception {
    // Complete JSON, held back for what may follow; then the stream is cut: no block may come of it.
    CompletableFuture<LlmChunk> cut = new CompletableFuture<>();
    List<Segment> seen = new CopyOnWriteArrayList<>();
    CompletionStage<List<Segment>> result = Source.<LlmChunk>single(
            new LlmChunk.TextDelta("{\"language\": \"bash\", \"code\": \"ls -a\"}"))
        .concat(Source.completionStage(cut))
        .map(chunk -> {
          cut.completeExceptionally(new IllegalStateException("stream cut"));
          return chunk;
        })
        .via(WeakModelRepairs.wrappedCode())
        .via(BlockInterceptor.codeBlocks("python", 1))
        .via(BlockInterceptor.untilFirstBlock())
        .map(segment -> {
          seen.add(segment);
          return segment;
        })
        .runWith(Sink.seq(), testKit.system());

    ExecutionException e = assertThrows(ExecutionException.class,
        () -> result.toCompletableFuture().get(5, TimeUnit.SECONDS));
    assertEquals("stream cut", e.getCause().getMessage());
    assertEquals(List.of(), blocks(seen));
  }

  @Test
  void codeWrappedAsJsonRunsAsABlock() throws Exception {
    for (int size = 1; size <= 9; size++) {
      List<Segment> segments = segments("Let me check.\n{\"language\": \"bash\", \"code\": \"ls -a\\nwc -l x\"}\n",
          size);
      assertEquals(List.of(new CodeBlock(1, "bash", "bash", "ls -a\nwc -l x", true, false)), blocks(segments));
      assertEquals("Let me check.\n", text(segments));
    }
  }

  @Test
  void textAndMarkdownBlocksAreShownNotRun() throws Exception {
    String reply = "The file says:\n```text\nrm -rf /\n```\nand the notes:\n```markdown\n# Title\n```\nDone.";
    List<Segment> segments = segments(reply, 4);
    assertEquals(List.of(), blocks(segments));
    assertEquals(reply, text(segments));
  }

  @Test
  void anUnknownLanguageIsARunnableBlockForTheSessionToAnswer() throws Exception {
    // The session answers it with PromptBuilder.unknownLanguage (see SessionTest).
    List<Segment> segments = segments("{\"language\": \"javascript\", \"code\": \"console.log(1)\"}", 5);
    assertEquals(List.of(new CodeBlock(1, "javascript", "javascript", "console.log(1)", true, false)),
        blocks(segments));
  }
}
