package io.interpreter4j.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.util.List;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;

/** JSON bodies in and out of the API, with Jackson; a body that is not what the endpoint takes is a 400. */
final class Json {

  private Json() {}

  static ObjectNode object() {
    return EventCodec.mapper().createObjectNode();
  }

  static HttpResponse response(StatusCode status, JsonNode body) {
    return HttpResponse.create().withStatus(status)
        .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, write(body)));
  }

  static HttpResponse error(StatusCode status, String error, String detail, List<HttpHeader> headers) {
    ObjectNode body = object();
    body.put("error", error);
    body.put("detail", detail);
    return response(status, body).addHeaders(headers);
  }

  static String write(JsonNode node) {
    try {
      return EventCodec.mapper().writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /** The request body as a JSON object; anything else is a 400 that says what was wrong. */
  static ObjectNode parseObject(String body) {
    if (body == null || body.isBlank()) {
      throw ApiError.badRequest("the request body is empty; send a JSON object");
    }
    JsonNode node;
    try {
      node = EventCodec.mapper().readTree(body);
    } catch (JsonProcessingException e) {
      throw ApiError.badRequest("the request body is not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw ApiError.badRequest("the request body must be a JSON object");
    }
    return (ObjectNode) node;
  }

  /** A string field: null when absent or null; a 400 when of another type. */
  static String optionalText(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw ApiError.badRequest("\"" + field + "\" must be a string");
    }
    return v.asText();
  }

  /** A non-blank string field, else a 400. */
  static String requiredText(ObjectNode body, String field) {
    String v = optionalText(body, field);
    if (v == null || v.isBlank()) {
      throw ApiError.badRequest("\"" + field + "\" is required and must not be blank");
    }
    return v;
  }

  static Boolean optionalBoolean(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isBoolean()) {
      throw ApiError.badRequest("\"" + field + "\" must be true or false");
    }
    return v.asBoolean();
  }

  static Integer optionalInt(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw ApiError.badRequest("\"" + field + "\" must be an integer");
    }
    return v.asInt();
  }
}
