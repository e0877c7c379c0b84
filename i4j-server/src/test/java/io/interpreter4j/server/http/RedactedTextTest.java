package io.interpreter4j.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.core.safety.SecretRedactor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bytes cut anywhere (inside a character, inside a secret) come out as the same text, redacted. */
class RedactedTextTest {
  private static ActorSystem<Void> system;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "redacted-text-test");
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  private static String through(byte[] bytes, int chunk) throws Exception {
    List<ByteString> chunks = new ArrayList<>();
    for (int i = 0; i < bytes.length; i += chunk) {
      chunks.add(ByteString.fromArray(bytes, i, Math.min(chunk, bytes.length - i)));
    }
    return Source.from(chunks).via(RedactedText.flow(SecretRedactor.of(List.of("my-db-password"))))
        .runWith(Sink.fold(ByteString.emptyByteString(), ByteString::concat), system)
        .toCompletableFuture().get(10, TimeUnit.SECONDS).utf8String();
  }

  @Test
  void charactersAndSecretsSplitBetweenChunksComeOutWhole() throws Exception {
    String text = "d\u00e9j\u00e0 vu \u2603 \uD83D\uDE80 password=my-db-password\nGITHUB_TOKEN=ghp_"
        + "abcdefghijklmnopqrstuvwxyz0123456789\nthe end";
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    for (int chunk = 1; chunk <= 7; chunk++) {
      assertEquals("d\u00e9j\u00e0 vu \u2603 \uD83D\uDE80 password=[REDACTED]\nGITHUB_TOKEN=[REDACTED]\nthe end",
          through(bytes, chunk), "chunks of " + chunk);
    }
  }

  @Test
  void invalidBytesBecomeReplacementCharacters() throws Exception {
    byte[] bytes = {'a', (byte) 0xff, 'b', (byte) 0xe2, (byte) 0x98};
    assertEquals("a\uFFFDb\uFFFD", through(bytes, 2));
  }
}
