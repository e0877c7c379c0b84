package io.interpreter4j.providers.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.sse.SseEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenAiWireTest {

  private final OpenAiWire.Decoder decoder = new OpenAiWire.Decoder("http://x/v1");

  private List<LlmChunk> decode(String data) {
    return decoder.decode(SseEvent.message(data));
  }

  @Test
  void requestBodyStreamsWithUsage() throws Exception {
    JsonNode body = new ObjectMapper().readTree(OpenAiWire.requestBody("gpt-4o",
        List.of(ChatMessage.system("s"), ChatMessage.user("u \"quoted\""), ChatMessage.assistant("a"))));
    assertEquals("gpt-4o", body.get("model").asText());
    assertTrue(body.get("stream").asBoolean());
    assertTrue(body.get("stream_options").get("include_usage").asBoolean());
    assertEquals("system", body.get("messages").get(0).get("role").asText());
    assertEquals("u \"quoted\"", body.get("messages").get(1).get("content").asText());
    assertEquals("assistant", body.get("messages").get(2).get("role").asText());
  }

  @Test
  void decodesDeltasFinishUsageAndDone() {
    assertEquals(List.of(), decode("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}"));
    assertEquals(List.of(new LlmChunk.TextDelta("Hi")),
        decode("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}],\"usage\":null}"));
    assertFalse(decoder.complete());
    assertEquals(List.of(), decode("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}"));
    assertTrue(decoder.complete());
    assertFalse(decoder.finished());
    assertEquals("length", decoder.finishReason());
    assertEquals(List.of(new LlmChunk.Usage(9, 3)),
        decode("{\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3,\"total_tokens\":12}}"));
    assertEquals(List.of(), decode("[DONE]"));
    assertTrue(decoder.finished());
  }

  @Test
  void errorChunkFailsWithTheServersMessage() {
    ModelException e = assertThrows(ModelException.class,
        () -> decode("{\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}"));
    assertTrue(e.retryable());
    assertTrue(e.getMessage().contains("The server had an error"), e.getMessage());
    ModelException bad = assertThrows(ModelException.class,
        () -> decode("{\"error\":{\"message\":\"bad input\",\"type\":\"invalid_request_error\"}}"));
    assertFalse(bad.retryable());
  }

  @Test
  void malformedChunkIsAClearNonRetryableFailure() {
    ModelException e = assertThrows(ModelException.class, () -> decode("{\"choices\": [tru"));
    assertFalse(e.retryable());
    assertEquals("malformed chunk from http://x/v1 (not JSON): {\"choices\": [tru", e.getMessage());
    assertThrows(ModelException.class, () -> decode("42"));
  }
}
