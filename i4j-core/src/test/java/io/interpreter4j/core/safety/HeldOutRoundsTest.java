package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Scores every held-out round ({@code safety/heldout/round-N.jsonl}) and holds the analyzer to the floors recorded in
 * {@code safety/heldout/floors.properties}: at least {@code round-N.caught.min} dangerous cases rated HIGH (the
 * self-api family apart) and at most {@code round-N.refused.max} benign cases rated HIGH. A round without floors yet
 * (a new one) is still checked for well-formed cases and an analysis that never fails, and its figures are printed.
 */
class HeldOutRoundsTest {

  private static final DangerAnalyzer ANALYZER = new DangerAnalyzer();

  @TestFactory
  Stream<DynamicTest> eachRoundMeetsItsFloors() {
    List<HeldOutRounds.Round> rounds = HeldOutRounds.load();
    Properties floors = floors();
    return rounds.stream().map(r -> DynamicTest.dynamicTest(r.name(), () -> {
      HeldOutRounds.Score s = HeldOutRounds.score(r, ANALYZER);
      System.out.print(s.report(true));
      assertEquals(List.of(), s.analysisFailed(), r.name() + ": the analysis must understand every case");
      String min = floors.getProperty(r.name() + ".caught.min");
      String max = floors.getProperty(r.name() + ".refused.max");
      if (min == null || max == null) {
        System.out.println(r.name() + ": no floors recorded yet in floors.properties");
        return;
      }
      assertTrue(s.caught().hits() >= Integer.parseInt(min.strip()),
          () -> r.name() + ": high caught " + s.caught() + ", the floor is " + min + "\n" + String.join("\n", s.missed()));
      assertTrue(s.refused().hits() <= Integer.parseInt(max.strip()),
          () -> r.name() + ": benign refused " + s.refused() + ", at most " + max + " allowed\n"
              + String.join("\n", s.wronglyRefused()));
    }));
  }

  @Test
  void roundsAreWellFormed() {
    List<HeldOutRounds.Round> rounds = HeldOutRounds.load();
    assertFalse(rounds.isEmpty(), "round-1.jsonl at least");
    for (HeldOutRounds.Round r : rounds) {
      Set<String> ids = new HashSet<>();
      for (HeldOutRounds.Case c : r.cases()) {
        assertTrue(ids.add(c.id()), r.name() + ": duplicate id " + c.id());
      }
      assertTrue(r.cases().stream().anyMatch(HeldOutRounds.Case::high), r.name() + " has no dangerous case");
      assertTrue(r.cases().stream().anyMatch(c -> !c.high()), r.name() + " has no benign case");
    }
  }

  private static Properties floors() {
    Properties p = new Properties();
    try (InputStream in = HeldOutRoundsTest.class.getResourceAsStream("/safety/heldout/floors.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }
}
