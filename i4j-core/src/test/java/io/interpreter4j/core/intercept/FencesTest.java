package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FencesTest {

  @Test
  void infoTagIsTheLanguagesFirstRunOfTagCharacters() {
    assertEquals("python", Fences.infoTag(" python "));
    assertEquals("c++", Fences.infoTag("(c++) please"));
    assertEquals("objective-c", Fences.infoTag("objective-c"));
    assertEquals("", Fences.infoTag(" ({}) "));
  }

  @Test
  void fenceOutlastsTheLongestBacktickRun() {
    assertEquals("```", Fences.fenceFor("no backticks"));
    assertEquals("```", Fences.fenceFor("`a` ``b``"));
    assertEquals("````", Fences.fenceFor("```\nnested\n```"));
    assertEquals("``````", Fences.fenceFor("x`````"));
  }
}
