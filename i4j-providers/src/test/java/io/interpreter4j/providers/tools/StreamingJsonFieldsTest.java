package io.interpreter4j.providers.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamingJsonFieldsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Arguments with every kind of escape, a non-BMP character escaped as a surrogate pair, and skipped values. */
  private static final String ARGUMENTS = "{ \"n\": -1.5e3, \"nested\": {\"code\": \"not this\", \"a\": [1, \"}\", {}]},"
      + " \"language\" : \"python\", \"ok\": true, \"code\": \"print(\\\"a\\\\tb\\\")\\nx = '\\u00e9\\ud83c\\udf0d'"
      + "\\r\\n\\/\\b\\f\\t end\", \"none\": null }";

  /** The decoded text of each string field, and whether the object completed, feeding {@code pieces}. */
  private static Map<String, String> decode(List<String> pieces, StreamingJsonFields parser, List<String> ends) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String piece : pieces) {
      for (StreamingJsonFields.Event e : parser.feed(piece)) {
        if (e instanceof StreamingJsonFields.FieldText t) {
          assertFalse(t.text().isEmpty());
          assertFalse(Character.isHighSurrogate(t.text().charAt(t.text().length() - 1)), "half a character reported");
          fields.merge(t.field(), t.text(), String::concat);
        } else if (e instanceof StreamingJsonFields.FieldEnd f) {
          ends.add(f.field());
        } else {
          ends.add("}");
        }
      }
    }
    return fields;
  }

  @Test
  void decodesStringFieldsAtEverySplitPoint() throws Exception {
    String code = JSON.readTree(ARGUMENTS).get("code").asText();
    for (int i = 0; i <= ARGUMENTS.length(); i++) {
      for (int j = i; j <= ARGUMENTS.length(); j += 7) {
        StreamingJsonFields parser = new StreamingJsonFields();
        List<String> ends = new ArrayList<>();
        Map<String, String> fields = decode(List.of(ARGUMENTS.substring(0, i), ARGUMENTS.substring(i, j),
            ARGUMENTS.substring(j)), parser, ends);

        assertEquals(Map.of("language", "python", "code", code), fields, "split at " + i + ", " + j);
        assertEquals(List.of("language", "code", "}"), ends);
        assertTrue(parser.complete());
      }
    }
  }

  @Test
  void decodesCharacterByCharacter() throws Exception {
    List<String> pieces = ARGUMENTS.chars().mapToObj(c -> String.valueOf((char) c)).toList();
    StreamingJsonFields parser = new StreamingJsonFields();
    Map<String, String> fields = decode(pieces, parser, new ArrayList<>());
    assertEquals(JSON.readTree(ARGUMENTS).get("code").asText(), fields.get("code"));
    assertTrue(parser.complete());
  }

  @Test
  void reportsCodeBeforeTheObjectIsComplete() {
    StreamingJsonFields parser = new StreamingJsonFields();
    assertEquals(List.of(new StreamingJsonFields.FieldText("code", "import os\n")),
        parser.feed("{\"code\": \"import os\\n"));
    assertEquals(List.of(new StreamingJsonFields.FieldText("code", "print")), parser.feed("print"));
    assertFalse(parser.complete());
  }

  @Test
  void notAnObjectIsInvalid() {
    StreamingJsonFields parser = new StreamingJsonFields();
    assertEquals(List.of(), parser.feed("print(1)"));
    assertTrue(parser.invalid());
    StreamingJsonFields broken = new StreamingJsonFields();
    broken.feed("{\"code\" \"x\"}");
    assertTrue(broken.invalid());
    assertFalse(broken.complete());
  }

  @Test
  void anEmptyObjectCompletes() {
    StreamingJsonFields parser = new StreamingJsonFields();
    assertEquals(List.of(new StreamingJsonFields.ObjectEnd()), parser.feed(" {} "));
    assertTrue(parser.complete());
  }
}
