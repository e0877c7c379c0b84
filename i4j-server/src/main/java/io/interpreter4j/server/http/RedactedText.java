package io.interpreter4j.server.http;

import io.interpreter4j.core.safety.SecretRedactor;
import io.interpreter4j.core.safety.StreamRedactor;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.pekko.NotUsed;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.util.ByteString;

/**
 * UTF-8 text streamed with its secrets redacted: the bytes are decoded across chunk boundaries (a character split
 * between two reads is carried over; invalid bytes become U+FFFD) and redacted by a {@link StreamRedactor}, so
 * output files from before redaction was written to disk, or from a process that knew other secrets, are served
 * as the events show them.
 */
final class RedactedText {

  private RedactedText() {}

  /** The stage: UTF-8 bytes in, the same text redacted out. */
  static Flow<ByteString, ByteString, NotUsed> flow(SecretRedactor secrets) {
    return Flow.of(ByteString.class)
        .statefulMap(() -> new State(secrets),
            (state, bytes) -> Pair.create(state, ByteString.fromString(state.redactor.feed(state.decode(bytes, false)),
                StandardCharsets.UTF_8)),
            state -> Optional.of(ByteString.fromString(state.redactor.feed(state.decode(ByteString.emptyByteString(),
                true)) + state.redactor.finish(), StandardCharsets.UTF_8)))
        .filter(bytes -> !bytes.isEmpty())
        .named("redacted-text");
  }

  /** One stream's decoder (with the bytes of an unfinished character) and redactor. */
  private static final class State {
    final StreamRedactor redactor;
    final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    ByteBuffer carry = ByteBuffer.allocate(0);

    State(SecretRedactor secrets) {
      this.redactor = new StreamRedactor(secrets);
    }

    String decode(ByteString bytes, boolean last) {
      ByteBuffer in = ByteBuffer.allocate(carry.remaining() + bytes.size());
      in.put(carry).put(bytes.asByteBuffer()).flip();
      CharBuffer out = CharBuffer.allocate(in.remaining() + 4);
      decoder.decode(in, out, last);
      if (last) {
        decoder.flush(out);
      }
      carry = in.slice();
      return out.flip().toString();
    }
  }
}
