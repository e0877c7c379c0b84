package io.interpreter4j.server.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.util.List;

/**
 * The JSON objects of the Chat Completions API that the endpoint answers with: {@code chat.completion.chunk},
 * {@code chat.completion}, the model list and {@code {"error": {"message", "type", "code"}}}. One completion's
 * {@code id}, {@code created} (seconds) and {@code model} are fixed at construction.
 */
public final class CompletionJson {
  private final String id;
  private final long created;
  private final String model;

  public CompletionJson(String id, long created, String model) {
    this.id = id;
    this.created = created;
    this.model = model;
  }

  /** The first chunk: {@code delta: {role: "assistant", content: ""}}. */
  public ObjectNode roleChunk() {
    ObjectNode chunk = chunk();
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.putObject("delta").put("role", "assistant").put("content", "");
    choice.putNull("finish_reason");
    return chunk;
  }

  public ObjectNode contentChunk(String text) {
    ObjectNode chunk = chunk();
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.putObject("delta").put("content", text);
    choice.putNull("finish_reason");
    return chunk;
  }

  /** The last choice chunk: an empty delta and the finish reason. */
  public ObjectNode finishChunk(String finishReason) {
    ObjectNode chunk = chunk();
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.putObject("delta");
    choice.put("finish_reason", finishReason);
    return chunk;
  }

  /** {@code choices: []} and the usage, sent when {@code stream_options.include_usage} asks. */
  public ObjectNode usageChunk(CompletionText.Finished finished) {
    ObjectNode chunk = chunk();
    chunk.putArray("choices");
    chunk.set("usage", usage(finished));
    return chunk;
  }

  /** The whole answer of a {@code stream: false} request. */
  public ObjectNode completion(String content, CompletionText.Finished finished) {
    ObjectNode c = header("chat.completion");
    ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
    ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    message.put("content", content);
    message.putNull("refusal");
    choice.putNull("logprobs");
    choice.put("finish_reason", finished.finishReason());
    c.set("usage", usage(finished));
    return c;
  }

  /** {@code {"error": {"message", "type", "code"}}}. */
  public static ObjectNode error(String message, String type, String code) {
    ObjectNode body = EventCodec.mapper().createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("message", message);
    error.put("type", type);
    error.put("code", code);
    return body;
  }

  /** {@code GET /v1/models}. */
  public static ObjectNode models(List<String> ids, long created) {
    ObjectNode list = EventCodec.mapper().createObjectNode();
    list.put("object", "list");
    var data = list.putArray("data");
    for (String id : ids) {
      data.addObject().put("id", id).put("object", "model").put("created", created).put("owned_by", "interpreter4j");
    }
    return list;
  }

  private ObjectNode chunk() {
    return header("chat.completion.chunk");
  }

  private ObjectNode header(String object) {
    ObjectNode n = EventCodec.mapper().createObjectNode();
    n.put("id", id);
    n.put("object", object);
    n.put("created", created);
    n.put("model", model);
    return n;
  }

  private static ObjectNode usage(CompletionText.Finished f) {
    ObjectNode u = EventCodec.mapper().createObjectNode();
    u.put("prompt_tokens", f.promptTokens());
    u.put("completion_tokens", f.completionTokens());
    u.put("total_tokens", f.promptTokens() + f.completionTokens());
    return u;
  }
}
