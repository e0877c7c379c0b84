package io.interpreter4j.runtime.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.core.replay.Cassette.Turn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayModelProviderTest {

  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static ModelRequest ask(String text) {
    return new ModelRequest("replay", List.of(ChatMessage.system("sys!"), ChatMessage.user(text)));
  }

  private static List<LlmChunk> run(Source<LlmChunk, NotUsed> source) throws Exception {
    return source.runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  private static ModelException failure(Source<LlmChunk, NotUsed> source) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> run(source));
    return assertInstanceOf(ModelException.class, e.getCause());
  }

  private static ReplayModelProvider provider(Turn... turns) {
    return new ReplayModelProvider("replay:test", new Cassette("test", List.of(turns)));
  }

  @Test
  void loadsAFileAndIsNamedAfterThePathAsGiven(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hello.json");
    Files.writeString(file, "{\"turns\": [{\"reply\": \"Hello, world!\"}]}");

    ReplayModelProvider model = ReplayModelProvider.load(file);

    assertEquals("replay:" + file, model.name());
    assertEquals(List.of(
        new LlmChunk.TextDelta("Hell"), new LlmChunk.TextDelta("o, w"), new LlmChunk.TextDelta("orld"),
        new LlmChunk.TextDelta("!"), new LlmChunk.Usage(3, 4)), run(model.stream(ask("hi there"))));
  }

  @Test
  void streamsTurnsInOrderWithTheirChunkSizeAndDelay() throws Exception {
    ReplayModelProvider model = provider(new Turn(null, "abc", 2, 0), new Turn("ran", "ok", 1, 5));

    assertEquals(List.of(new LlmChunk.TextDelta("ab"), new LlmChunk.TextDelta("c"), new LlmChunk.Usage(2, 1)),
        run(model.stream(ask("go"))));
    assertEquals(List.of(new LlmChunk.TextDelta("o"), new LlmChunk.TextDelta("k"), new LlmChunk.Usage(3, 1)),
        run(model.stream(ask("it ran"))));
  }

  @Test
  void takesATurnOnlyWhenMaterialised() throws Exception {
    ReplayModelProvider model = provider(Turn.of("one"), Turn.of("two"));
    model.stream(ask("unused"));

    assertEquals(new LlmChunk.TextDelta("one"), run(model.stream(ask("x"))).get(0));
  }

  @Test
  void mismatchFailsTheStreamWithoutRetry() {
    ReplayModelProvider model = provider(new Turn("exit code \\d+", "never", 4, 0));

    ModelException e = failure(model.stream(ask("it crashed")));

    assertEquals("cassette mismatch at turn 1: /exit code \\d+/ not found in: it crashed", e.getMessage());
    assertFalse(e.retryable());
  }

  @Test
  void exhaustedFailsTheStreamWithoutRetry() throws Exception {
    ReplayModelProvider model = provider(Turn.of("only"));
    run(model.stream(ask("1")));

    ModelException e = failure(model.stream(ask("2")));

    assertEquals("cassette exhausted after 1 turns", e.getMessage());
    assertFalse(e.retryable());
  }

  @Test
  void cancellingStopsTheReplayAndTheNextCallTakesTheNextTurn() throws Exception {
    // With an hour between chunks the stream only completes in time if take(1) cancels the replay.
    ReplayModelProvider model = provider(new Turn(null, "abc", 1, 3_600_000), Turn.of("next"));

    assertEquals(List.of(new LlmChunk.TextDelta("a")), run(model.stream(ask("x")).take(1)));
    assertEquals(new LlmChunk.TextDelta("next"), run(model.stream(ask("y"))).get(0));
  }

  @Test
  void aNewSessionReplaysFromTheFirstTurn() throws Exception {
    ReplayModelProvider first = provider(Turn.of("one"), Turn.of("two"));
    run(first.stream(ask("x")));

    ReplayModelProvider second = first.forNewSession();

    assertEquals("replay:test", second.name());
    assertEquals(new LlmChunk.TextDelta("one"), run(second.stream(ask("x"))).get(0));
    assertEquals(new LlmChunk.TextDelta("two"), run(first.stream(ask("x"))).get(0));
  }

  @Test
  void expectImagesCountsTheImagesOfTheLastMessage() throws Exception {
    ImageRef plot = new ImageRef("/s/outputs/block-1-1.png",
        "image/png", 640, 480);
    ModelRequest withImage = new ModelRequest("replay", List.of(ChatMessage.system("sys!"),
        ChatMessage.user("Block 1 (python) finished with exit code 0.", List.of(plot))));
    Turn wantsOne = new Turn(null, "I see it.", 4, 0, 1);

    assertEquals("I see it.", text(run(provider(wantsOne).stream(withImage))));
    assertEquals("cassette mismatch at turn 1: expected 1 image(s), got 0",
        failure(provider(wantsOne).stream(ask("no picture"))).getMessage());
    ReplayModelProvider blind = new ReplayModelProvider("replay:test", new Cassette("test", List.of(wantsOne)), false);
    assertEquals("cassette mismatch at turn 1: expected 1 image(s), got 0", failure(blind.stream(withImage)).getMessage());
    assertFalse(failure(blind.forNewSession().stream(withImage)).retryable());
  }

  private static String text(List<LlmChunk> chunks) {
    StringBuilder sb = new StringBuilder();
    chunks.stream().filter(c -> c instanceof LlmChunk.TextDelta).forEach(c -> sb.append(((LlmChunk.TextDelta) c).text()));
    return sb.toString();
  }
}
