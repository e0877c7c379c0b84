package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MarkerScannerTest {

  private static final String MARKER = "0123456789abcdef0123456789abcdef";
  private static final String END = "\u0002" + MARKER + " 7 stdin\n";

  @Test
  void markersAreFreshThirtyTwoHexCharacters() {
    String a = MarkerScanner.newMarker();
    assertTrue(a.matches("[0-9a-f]{32}"));
    assertNotEquals(a, MarkerScanner.newMarker());
  }

  @Test
  void userTextBeforeTheEndLineIsPassedThroughAndTheStatusRead() {
    MarkerScanner scanner = new MarkerScanner(MARKER);
    assertEquals("hello\n", scanner.feed("hello\n"));
    assertEquals("no newline", scanner.feed("no newline" + END));
    assertTrue(scanner.complete());
    assertEquals(7, scanner.status());
    assertTrue(scanner.flagged("stdin"));
    assertFalse(scanner.flagged("other"));
  }

  @Test
  void anEndLineSplitAtEveryPossiblePointGivesTheSameText() {
    String stream = "out\u0002put" + "\u0002" + "0123" + "tail" + END;
    String user = "out\u0002put\u00020123tail";
    for (int cut1 = 0; cut1 <= stream.length(); cut1++) {
      for (int cut2 = cut1; cut2 <= stream.length(); cut2++) {
        MarkerScanner scanner = new MarkerScanner(MARKER);
        String seen = scanner.feed(stream.substring(0, cut1)) + scanner.feed(stream.substring(cut1, cut2))
            + scanner.feed(stream.substring(cut2));
        assertEquals(user, seen, "cut at " + cut1 + "," + cut2);
        assertTrue(scanner.complete());
        assertEquals(7, scanner.status());
      }
    }
  }

  @Test
  void onlyAPossibleMarkerStartIsHeldBackAndReleasedAtEndOfStream() {
    MarkerScanner scanner = new MarkerScanner(MARKER);
    assertEquals("progress 10%", scanner.feed("progress 10%"));
    assertEquals("x", scanner.feed("x\u00020123"));
    assertEquals("\u00020123 not it", scanner.feed(" not it"));
    assertEquals("", scanner.feed("\u0002"));
    assertEquals("\u0002", scanner.drain());
    assertFalse(scanner.complete());
    assertEquals(-1, scanner.status());
  }

  @Test
  void aGuessedOrOldMarkerDoesNotEndTheBlock() {
    MarkerScanner scanner = new MarkerScanner(MARKER);
    String fake = "\u0002" + "f".repeat(32) + " 0 -\n";
    assertEquals(fake, scanner.feed(fake));
    assertFalse(scanner.complete());
  }

  @Test
  void strayOutputAfterTheEndLineIsDropped() {
    MarkerScanner scanner = new MarkerScanner(MARKER);
    assertEquals("a", scanner.feed("a" + END + "late"));
    assertEquals("", scanner.feed("later"));
    assertEquals("", scanner.drain());
  }

  @Test
  void imageLinesAreTakenOutOfTheTextHoweverTheStreamIsCut() {
    String image = "\u0002" + MARKER + ":image display iVBORw0K\n";
    String stream = "before\n" + image + "after\n" + image.replace("display", "matplotlib") + END;
    for (int cut = 0; cut <= stream.length(); cut++) {
      MarkerScanner scanner = new MarkerScanner(MARKER);
      java.util.List<String> seen = new java.util.ArrayList<>();
      feedAll(scanner, stream.substring(0, cut), seen);
      feedAll(scanner, stream.substring(cut), seen);
      assertEquals("before\n[display iVBORw0K]after\n[matplotlib iVBORw0K]", String.join("", seen), "cut at " + cut);
      assertEquals(7, scanner.status());
    }
  }

  @Test
  void anImageLineTooLongToHoldIsSkippedAndCounted() {
    MarkerScanner scanner = new MarkerScanner(MARKER);
    assertEquals("", scanner.feed("\u0002" + MARKER + ":image display "));
    String piece = "A".repeat(1024 * 1024);
    for (int i = 0; i <= MarkerScanner.MAX_IMAGE_LINE / piece.length(); i++) {
      assertEquals("", scanner.feed(piece));
    }
    assertEquals("", scanner.feed("AAAA\nnext\n" + END));
    assertEquals(java.util.List.of(), scanner.takeImages());
    assertEquals(1, scanner.takeDropped());
    assertEquals("next\n", scanner.feed(""));
    assertTrue(scanner.complete());
  }

  @Test
  void htmlLinesAndTheDriversCountOfDroppedImagesAreTakenOutOfTheText() {
    MarkerScanner scanner = new MarkerScanner(MARKER);
    String stream = "a\n\u0002" + MARKER + ":html PHA+aGk8L3A+\nb\n\u0002" + MARKER + ":dropped 3\nc\n"
        + "\u0002" + MARKER + ":dropped x\n" + END;
    assertEquals("a\n", scanner.feed(stream));
    assertEquals(java.util.List.of(new MarkerScanner.HtmlLine("PHA+aGk8L3A+")), scanner.takeHtml());
    assertEquals("b\n", scanner.feed(""));
    assertEquals(3, scanner.takeDropped());
    assertEquals("c\n", scanner.feed(""));
    assertEquals(1, scanner.takeDropped()); // a count that does not parse still says something was dropped
    assertEquals("", scanner.feed(""));
    assertTrue(scanner.complete());
    assertEquals(java.util.List.of(), scanner.takeHtml());
  }

  /** Feeds a chunk as BlockRun does, noting text and images in the order they come out. */
  private static void feedAll(MarkerScanner scanner, String chunk, java.util.List<String> seen) {
    String text = scanner.feed(chunk);
    while (true) {
      seen.add(text);
      java.util.List<MarkerScanner.ImageLine> images = scanner.takeImages();
      if (images.isEmpty()) {
        return;
      }
      images.forEach(i -> seen.add("[" + i.source() + " " + i.base64() + "]"));
      text = scanner.feed("");
    }
  }
}
