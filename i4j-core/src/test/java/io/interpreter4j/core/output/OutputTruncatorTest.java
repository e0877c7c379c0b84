package io.interpreter4j.core.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OutputTruncatorTest {

  @Test
  void shortTextIsReturnedAsIs() {
    String text = "hello\nworld\n";
    assertSame(text, OutputTruncator.truncate(text, 12, "/tmp/x"));
    assertEquals("", OutputTruncator.truncate("", 0, null));
  }

  @Test
  void longTextKeepsHeadAndTailAroundAMarkerNamingTotalAndPath() {
    String text = "a".repeat(50) + "b".repeat(50) + "c".repeat(50);
    String cut = OutputTruncator.truncate(text, 20, "/abs/out.txt");
    String marker = "\n... [output truncated: 150 characters in total; the full output is in /abs/out.txt] ...\n";
    assertEquals("a".repeat(10) + marker + "c".repeat(10), cut);
    assertTrue(cut.length() <= 20 + marker.length());
  }

  @Test
  void oddMaxGivesTheExtraCharacterToTheTail() {
    String cut = OutputTruncator.truncate("0123456789", 5, null);
    assertEquals("01" + OutputTruncator.marker(10, null) + "789", cut);
    assertFalse(cut.contains("full output is in"));
  }

  @Test
  void neverSplitsASurrogatePair() {
    String smile = "\uD83D\uDE00";
    String text = "ab" + smile + "x".repeat(20) + smile + "yz";
    String cut = OutputTruncator.truncate(text, 6, null);
    // head "ab\uD83D" loses the lone high surrogate; tail "\uDE00yz" loses the lone low surrogate
    assertEquals("ab" + OutputTruncator.marker(text.length(), null) + "yz", cut);
  }
}
