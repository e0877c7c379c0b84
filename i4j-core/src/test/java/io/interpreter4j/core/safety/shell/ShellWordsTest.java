package io.interpreter4j.core.safety.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wrapper skipping that the danger analysis and the approval rules' command split share. */
class ShellWordsTest {

  /** The word the first word of {@code line}, a wrapper, runs; "" when there is none. */
  private static String wrapped(String line) {
    List<Word> words = ShellLexer.parse(line).get(0).words();
    String base = words.get(0).text();
    int idx = ShellWords.afterWrapper(words, 0, base, ShellWords.WRAPPERS.get(base));
    return idx < words.size() ? words.get(idx).text() : "";
  }

  @Test
  void skipsOptionsAndTheValuesOfThoseThatTakeOne() {
    assertEquals("rm", wrapped("sudo -u root -E rm -rf /"));
    assertEquals("make", wrapped("nice -n 10 make"));
    assertEquals("echo", wrapped("xargs -n1 echo"));
  }

  @Test
  void stopsAfterDoubleDash() {
    assertEquals("-weird", wrapped("sudo -- -weird"));
  }

  @Test
  void skipsTimeoutsDuration() {
    assertEquals("sleep", wrapped("timeout -s KILL 5 sleep 10"));
    assertEquals("", wrapped("timeout 5"));
  }

  @Test
  void aLoneDashIsTheCommandNotAnOption() {
    assertEquals("-", wrapped("nohup - x"));
    assertEquals("", wrapped("nohup"));
  }
}
