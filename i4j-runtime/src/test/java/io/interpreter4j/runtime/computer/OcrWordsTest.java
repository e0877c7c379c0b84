package io.interpreter4j.runtime.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OcrWordsTest {
  private static final String TSV = String.join("\n",
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "1\t1\t0\t0\t0\t0\t0\t0\t1920\t1080\t-1\t",
      "5\t1\t1\t1\t1\t1\t420\t415\t8\t28\t91.2\tl",
      "5\t1\t1\t1\t1\t2\t434\t415\t70\t28\t95.0\tagree",
      "5\t1\t2\t1\t1\t1\t400\t625\t100\t30\t96.1\tSubmit.",
      "5\t1\t3\t1\t1\t1\t10\t10\t50\t20\t90.0\tagree");

  @Test
  void findsWordsOfOneLineInOrderIgnoringCasePunctuationAndLettersOcrConfuses() {
    OcrWords words = OcrWords.parseTsv(TSV);
    assertEquals(4, words.words().size());
    OcrWords.Match agree = words.first("I agree").orElseThrow();
    assertEquals(new OcrWords.Match(420, 415, 84, 28), agree);
    assertEquals(462, agree.centerX());
    OcrWords.Match submit = words.first("submit").orElseThrow();
    assertEquals(450, submit.centerX());
    assertEquals(640, submit.centerY());
  }

  @Test
  void matchesAreOrderedTopToBottomAndAMissingTextHasNone() {
    OcrWords words = OcrWords.parseTsv(TSV);
    assertEquals(2, words.find("agree").size());
    assertEquals(10, words.find("agree").get(0).top());
    assertTrue(words.first("Cancel").isEmpty());
    assertTrue(words.first("  ").isEmpty());
  }
}
