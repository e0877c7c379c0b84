package io.interpreter4j.providers.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingProviderTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ModelRequest REQUEST = new ModelRequest("m", List.of(ChatMessage.user("hi")));

  @TempDir
  Path dir;

  @AfterAll
  static void shutdown() {
    TESTKIT.shutdownTestKit();
  }

  /** Serves scripted replies in order. */
  private static ModelProvider scripted(List<Source<LlmChunk, NotUsed>> replies) {
    Deque<Source<LlmChunk, NotUsed>> queue = new ArrayDeque<>(replies);
    return new ModelProvider() {
      @Override
      public String name() {
        return "scripted";
      }

      @Override
      public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
        return queue.removeFirst();
      }
    };
  }

  private static Source<LlmChunk, NotUsed> reply(String... pieces) {
    return Source.from(Stream.of(pieces).map(p -> (LlmChunk) new LlmChunk.TextDelta(p)).toList())
        .concat(Source.single(new LlmChunk.Usage(3, 4)));
  }

  private static List<LlmChunk> run(Source<LlmChunk, ?> source) throws Exception {
    return source.runWith(Sink.seq(), SYSTEM).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void writesEachCompletedReplyToTheCassette() throws Exception {
    Path file = dir.resolve("sub/session.json");
    RecordingProvider recorder = new RecordingProvider(scripted(List.of(
        reply("```python\n", "print(1)\n```"), reply("All ", "done."))), file);

    run(recorder.stream(REQUEST));
    assertEquals(1, Cassette.load(file).turns().size(), "on file before the stream completed");
    run(recorder.stream(REQUEST));

    JsonNode json = new ObjectMapper().readTree(file.toFile());
    assertEquals(2, json.get("turns").size());
    JsonNode first = json.get("turns").get(0);
    assertEquals("```python\nprint(1)\n```", first.get("reply").asText());
    assertEquals(4, first.get("chunk_chars").asInt());
    assertEquals(0, first.get("delay_ms").asInt());
    assertFalse(first.has("expect"));
    assertEquals("All done.", json.get("turns").get(1).get("reply").asText());
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertEquals(List.of(file), files.toList(), "no temporary file left behind");
    }
  }

  @Test
  void aCancelledReplyIsRecordedAsFarAsItWasRead() throws Exception {
    Path file = dir.resolve("cancelled.json");
    RecordingProvider recorder = new RecordingProvider(scripted(List.of(reply("kept", " never read"))), file);

    run(recorder.stream(REQUEST).take(1));

    TESTKIT.createTestProbe().awaitAssert(Duration.ofSeconds(10), () -> {
      assertEquals(List.of(new Cassette.Turn(null, "kept", 4, 0)), Cassette.load(file).turns());
      return null;
    });
  }

  @Test
  void aFailedReplyIsNotRecorded() throws Exception {
    Path file = dir.resolve("failed.json");
    RecordingProvider recorder = new RecordingProvider(scripted(List.of(
        reply("partial").concat(Source.failed(new ModelException("reset", true))), reply("retried"))), file);

    assertThrows(ExecutionException.class, () -> run(recorder.stream(REQUEST)));
    run(recorder.stream(REQUEST));

    assertEquals(List.of(new Cassette.Turn(null, "retried", 4, 0)), Cassette.load(file).turns());
  }

  @Test
  void aReplyToAMessageWithImagesIsRecordedWithExpectImages() throws Exception {
    Path file = dir.resolve("images.json");
    RecordingProvider recorder = new RecordingProvider(scripted(List.of(reply("Plotting."), reply("A curve."))), file);
    ImageRef plot = new ImageRef("/s/outputs/block-1-1.png",
        "image/png", 640, 480);

    run(recorder.stream(REQUEST));
    run(recorder.stream(new ModelRequest("m", List.of(ChatMessage.user("hi"), ChatMessage.assistant("Plotting."),
        ChatMessage.user("Block 1 (python) finished with exit code 0.", List.of(plot, plot))))));

    List<Cassette.Turn> turns = Cassette.load(file).turns();
    assertEquals(null, turns.get(0).expectImages(), "no images, no expectation");
    assertEquals(2, turns.get(1).expectImages());
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    assertFalse(json.path("turns").get(0).has("expect_images"));
    assertEquals(2, json.path("turns").get(1).path("expect_images").asInt());
  }
}
