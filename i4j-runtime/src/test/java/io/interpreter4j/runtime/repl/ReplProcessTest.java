package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The reader's UTF-8 boundary: a read that ends inside a character keeps that character for the next read. */
class ReplProcessTest {

  @Test
  void aCharacterCutByTheEndOfAReadIsHeldBack() {
    byte[] text = "a\u00e9\u20ac\ud83d\ude00".getBytes(StandardCharsets.UTF_8); // 1 + 2 + 3 + 4 bytes
    assertEquals(10, text.length);
    int[] expected = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10}; // whole characters in the first n bytes
    for (int n = 0; n <= text.length; n++) {
      assertEquals(expected[n], ReplProcess.wholeCharacters(text, n), "first " + n + " bytes");
    }
  }

  @Test
  void invalidBytesAreNotHeldBackForever() {
    byte[] stray = {'x', (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80};
    assertEquals(5, ReplProcess.wholeCharacters(stray, 5), "continuation bytes with no start go out as they are");
    assertEquals(2, ReplProcess.wholeCharacters(new byte[] {'x', 'y'}, 2));
  }
}
