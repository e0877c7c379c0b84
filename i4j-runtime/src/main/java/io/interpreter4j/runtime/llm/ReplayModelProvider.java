package io.interpreter4j.runtime.llm;

import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.core.replay.Cassette.Turn;
import io.interpreter4j.core.replay.CassettePlayer;
import io.interpreter4j.core.replay.ReplayException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.ThrottleMode;
import org.apache.pekko.stream.javadsl.Source;

/**
 * A model that replays a {@link Cassette}: the engine of tests and offline demos. An instance is one session's
 * model: it holds its own {@link CassettePlayer}, so each call takes the next turn. A fresh instance (from
 * {@link #load} or {@link #forNewSession}) replays from turn 1. It counts as a model with vision unless made
 * without ({@code --vision off}): a turn's {@code expect_images} is checked against the images the last message
 * carries, or against 0 without vision.
 */
public final class ReplayModelProvider implements ModelProvider {

  private final String name;
  private final Cassette cassette;
  private final CassettePlayer player;
  /** Whether some turn paces its chunks (delay_ms): only then does a call need the throttled source. */
  private final boolean paced;
  /** Whether the images of the conversation reach this model (--vision on or auto), so count for expect_images. */
  private final boolean vision;

  public ReplayModelProvider(String name, Cassette cassette) {
    this(name, cassette, true);
  }

  /** @param vision whether the conversation's images reach this model ({@code --vision off}: they do not) */
  public ReplayModelProvider(String name, Cassette cassette, boolean vision) {
    this.name = name;
    this.cassette = cassette;
    this.vision = vision;
    this.player = new CassettePlayer(cassette);
    this.paced = cassette.turns().stream().anyMatch(turn -> turn.delayMs() > 0);
  }

  /**
   * Loads a cassette file; {@link #name()} is {@code "replay:" + cassetteFile} as given.
   *
   * @throws io.interpreter4j.core.replay.CassetteException when the file is missing or malformed
   */
  public static ReplayModelProvider load(Path cassetteFile) {
    return load(cassetteFile, true);
  }

  /** As {@link #load(Path)}, with or without vision. */
  public static ReplayModelProvider load(Path cassetteFile, boolean vision) {
    return new ReplayModelProvider("replay:" + cassetteFile, Cassette.load(cassetteFile), vision);
  }

  /** A provider for another session: same name and parsed cassette, replaying from turn 1. */
  public ReplayModelProvider forNewSession() {
    return new ReplayModelProvider(name, cassette, vision);
  }

  /** Whether the conversation's images reach this model. */
  public boolean vision() {
    return vision;
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * Takes the next turn when materialised, checking its expectation against {@link ModelRequest#lastMessageText()},
   * and streams the reply in the turn's chunks (delay_ms apart), then a rough {@link LlmChunk.Usage}. Going off
   * script fails the stream with a non-retryable {@link ModelException}: a retry would take yet another turn.
   */
  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    if (!paced) {
      // The iterator is made (and the turn taken) when the stream starts: no nested materialisation per call.
      return Source.fromIterator(() -> unpaced(request).iterator()).named("replay-model");
    }
    return Source.fromMaterializer((materializer, attributes) -> replay(request))
        .mapMaterializedValue(ignored -> NotUsed.getInstance())
        .named("replay-model");
  }

  /** A cassette without delays: the next turn's chunks and its usage, or a {@link ModelException}. */
  private List<LlmChunk> unpaced(ModelRequest request) {
    Turn turn = take(request);
    List<String> texts = CassettePlayer.chunks(turn);
    List<LlmChunk> chunks = new ArrayList<>(texts.size() + 1);
    texts.forEach(text -> chunks.add(new LlmChunk.TextDelta(text)));
    chunks.add(usage(request, turn));
    return chunks;
  }

  private Source<LlmChunk, NotUsed> replay(ModelRequest request) {
    Turn turn;
    try {
      turn = take(request);
    } catch (ModelException e) {
      return Source.failed(e);
    }
    Source<LlmChunk, NotUsed> deltas = Source.from(CassettePlayer.chunks(turn)).map(LlmChunk.TextDelta::new);
    if (turn.delayMs() > 0) {
      // A burst of one lets the first chunk out at once and spaces the rest delay_ms apart.
      deltas = deltas.throttle(1, Duration.ofMillis(turn.delayMs()), 1, ThrottleMode.shaping());
    }
    return deltas.concat(Source.single(usage(request, turn)));
  }

  private Turn take(ModelRequest request) {
    try {
      return player.next(request.lastMessageText(), vision ? request.lastMessageImages() : 0);
    } catch (ReplayException e) {
      throw new ModelException(e.getMessage(), false);
    }
  }

  private LlmChunk usage(ModelRequest request, Turn turn) {
    return new LlmChunk.Usage(roughTokens(inputChars(request)), roughTokens(turn.reply().length()));
  }

  private long inputChars(ModelRequest request) {
    long chars = 0;
    for (ChatMessage message : request.messages()) {
      chars += message.content().length();
      if (vision) {
        chars += message.images().stream().mapToLong(image -> 4L * image.tokens()).sum();
      }
    }
    return chars;
  }

  /** About four characters per token, as the providers' rules of thumb say. */
  private static long roughTokens(long chars) {
    return (chars + 3) / 4;
  }
}
