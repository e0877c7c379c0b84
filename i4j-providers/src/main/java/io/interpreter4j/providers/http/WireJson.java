package io.interpreter4j.providers.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Writes the JSON request bodies of the wire formats. */
public final class WireJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private WireJson() {}

  /** {@code root} as compact JSON. */
  public static String write(JsonNode root) {
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings always serialises", e);
    }
  }
}
