package io.interpreter4j.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EditDistanceTest {
  @Test
  void countsInsertionsDeletionsAndSubstitutions() {
    assertEquals(0, EditDistance.between("model", "model"));
    assertEquals(3, EditDistance.between("kitten", "sitting"));
    assertEquals(2, EditDistance.between("executoin", "execution"), "a swap is two edits");
    assertEquals(5, EditDistance.between("", "model"));
  }
}
