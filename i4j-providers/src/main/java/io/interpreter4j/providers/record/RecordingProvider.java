package io.interpreter4j.providers.record;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.resilience.RetryAwareProvider;
import io.interpreter4j.providers.resilience.RetryInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Source;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a real session for offline replay: each reply the session received, in order, goes into a cassette
 * ({@link Cassette}) that is rewritten whole and atomically after each reply. A turn whose request ended with a
 * message carrying images gets {@code expect_images} with their number, so the replay checks they are there. A reply counts when its stream
 * completes or is cancelled by the caller (the interceptor stops the model after a code block, and the replay
 * must stop at the same place); a failed stream is not recorded, since the caller retries it. The file starts
 * empty: an existing cassette at that path is replaced.
 */
public final class RecordingProvider implements RetryAwareProvider {

  /** How the replay model streams a recorded reply back. */
  public static final int CHUNK_CHARS = Cassette.DEFAULT_CHUNK_CHARS;
  public static final int DELAY_MS = 0;

  private static final Logger LOG = LoggerFactory.getLogger(RecordingProvider.class);

  private final ModelProvider inner;
  private final Path cassetteFile;
  private final List<Cassette.Turn> turns = new ArrayList<>();

  public RecordingProvider(ModelProvider inner, Path cassetteFile) {
    this.inner = inner;
    this.cassetteFile = cassetteFile;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    return recorded(inner.stream(request), request.lastMessageImages());
  }

  @Override
  public Source<LlmChunk, NotUsed> streamWithRetries(ModelRequest request, Consumer<RetryInfo> onRetry) {
    return recorded(RetryAwareProvider.streamWithRetries(inner, request, onRetry), request.lastMessageImages());
  }

  /** The replies recorded so far. */
  public synchronized List<Cassette.Turn> turns() {
    return List.copyOf(turns);
  }

  private Source<LlmChunk, NotUsed> recorded(Source<LlmChunk, NotUsed> reply, int images) {
    return Source.fromMaterializer((mat, attributes) -> {
      StringBuilder text = new StringBuilder();
      AtomicBoolean recorded = new AtomicBoolean();
      return reply
          .map(chunk -> {
            if (chunk instanceof LlmChunk.TextDelta delta) {
              text.append(delta.text());
            }
            return chunk;
          })
          // A completed reply is on file before the caller sees the end of the stream...
          .concatLazy(Source.lazySource(() -> {
            if (recorded.compareAndSet(false, true)) {
              append(text.toString(), images);
            }
            return Source.<LlmChunk>empty();
          }))
          // ...a cancelled one as soon as the cancellation has gone through; a failed one never.
          .watchTermination((notUsed, done) -> {
            done.thenRun(() -> {
              if (recorded.compareAndSet(false, true)) {
                append(text.toString(), images);
              }
            });
            return NotUsed.notUsed();
          });
    }).mapMaterializedValue(m -> NotUsed.notUsed());
  }

  private synchronized void append(String reply, int images) {
    turns.add(new Cassette.Turn(null, reply, CHUNK_CHARS, DELAY_MS, images > 0 ? images : null));
    try {
      writeAtomically(new Cassette(cassetteFile.toString(), turns).toJson(), cassetteFile);
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("could not write the cassette {}: {}", cassetteFile, e.toString());
    }
  }

  /** Writes {@code json} to a temporary file beside {@code file}, then moves it over: readers never see half. */
  private static void writeAtomically(byte[] json, Path file) throws IOException {
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
    try {
      Files.write(temp, json);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
