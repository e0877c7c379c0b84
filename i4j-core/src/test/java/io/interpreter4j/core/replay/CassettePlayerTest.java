package io.interpreter4j.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.interpreter4j.core.replay.Cassette.Turn;
import java.util.List;
import org.junit.jupiter.api.Test;

class CassettePlayerTest {

  private static final Cassette CASSETTE = new Cassette("test", List.of(
      Turn.of("first"),
      new Turn("exit code \\d+", "second", 4, 0),
      new Turn("a.b", "third", 4, 0)));

  @Test
  void playsTurnsInOrderWhenExpectationsAreFound() {
    CassettePlayer player = new CassettePlayer(CASSETTE);

    assertEquals("first", player.next("anything").reply());
    assertEquals("second", player.next("the code ran, exit code 0, fine").reply());
    assertEquals("third", player.next("a\nb").reply(), "DOTALL lets . match a newline");
    assertEquals(3, player.turnsPlayed());
  }

  @Test
  void mismatchNamesTheTurnTheRegexAndTheMessage() {
    CassettePlayer player = new CassettePlayer(CASSETTE);
    player.next("hi");

    ReplayException e = assertThrows(ReplayException.class, () -> player.next("it crashed"));

    assertEquals("cassette mismatch at turn 2: /exit code \\d+/ not found in: it crashed", e.getMessage());
  }

  @Test
  void mismatchQuotesTheFirst200Characters() {
    CassettePlayer player = new CassettePlayer(CASSETTE);
    player.next("hi");
    String longMessage = "x".repeat(200) + "y".repeat(100);

    ReplayException e = assertThrows(ReplayException.class, () -> player.next(longMessage));

    assertEquals("cassette mismatch at turn 2: /exit code \\d+/ not found in: " + "x".repeat(200), e.getMessage());
  }

  @Test
  void exhaustedAfterTheLastTurn() {
    CassettePlayer player = new CassettePlayer(new Cassette("test", List.of(Turn.of("a"), Turn.of("b"))));
    player.next("1");
    player.next("2");

    ReplayException e = assertThrows(ReplayException.class, () -> player.next("3"));

    assertEquals("cassette exhausted after 2 turns", e.getMessage());
  }

  @Test
  void eachPlayerStartsAtTheFirstTurn() {
    CassettePlayer one = new CassettePlayer(CASSETTE);
    one.next("x");
    CassettePlayer two = new CassettePlayer(CASSETTE);

    assertEquals("first", two.next("x").reply());
  }

  @Test
  void chunksSplitTheReplyByCodePoints() {
    assertEquals(List.of("abcd", "efgh", "ij"), CassettePlayer.chunks(Turn.of("abcdefghij")));
    assertEquals(List.of("a", "b", "c"), CassettePlayer.chunks(new Turn(null, "abc", 1, 0)));
    assertEquals(List.of("abc"), CassettePlayer.chunks(new Turn(null, "abc", 10, 0)));
    assertEquals(List.of(), CassettePlayer.chunks(Turn.of("")));
    String emoji = "\uD83D\uDE00";
    assertEquals(List.of(emoji + emoji, emoji + "a"), CassettePlayer.chunks(new Turn(null, emoji + emoji + emoji + "a", 2, 0)));
  }

  @Test
  void expectImagesMismatchIsAClearError() {
    CassettePlayer player = new CassettePlayer(new Cassette("test", List.of(
        new Turn(null, "look", 4, 0, 1), new Turn(null, "again", 4, 0, 2))));

    assertEquals("look", player.next("Block 1 (python) finished", 1).reply());
    ReplayException e = assertThrows(ReplayException.class, () -> player.next("Block 2 (python) finished", 0));

    assertEquals("cassette mismatch at turn 2: expected 2 image(s), got 0", e.getMessage());
  }

  @Test
  void aTurnWithoutExpectImagesAcceptsAnyNumber() {
    CassettePlayer player = new CassettePlayer(CASSETTE);

    assertEquals("first", player.next("hi", 3).reply());
  }
}
