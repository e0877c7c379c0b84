package io.interpreter4j.providers.anthropic;

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
import io.interpreter4j.providers.sse.SseParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnthropicWireTest {

  @Test
  void requestBodyLiftsTheSystemPromptAndMergesTurns() throws Exception {
    JsonNode body = new ObjectMapper().readTree(AnthropicWire.requestBody("claude-sonnet-4-5", 4096, List.of(
        ChatMessage.system("rules"), ChatMessage.user("one"), ChatMessage.user("two"), ChatMessage.assistant("  "),
        ChatMessage.system("more rules"), ChatMessage.assistant("reply  \n"))));
    assertEquals("rules\n\nmore rules", body.get("system").asText());
    assertEquals(4096, body.get("max_tokens").asInt());
    assertTrue(body.get("stream").asBoolean());
    JsonNode messages = body.get("messages");
    assertEquals(2, messages.size());
    assertEquals("one\n\ntwo", messages.get(0).get("content").asText());
    assertEquals("assistant", messages.get(1).get("role").asText());
    assertEquals("reply", messages.get(1).get("content").asText());
  }

  @Test
  void requestBodyOpensWithTheUserAndRefusesAnEmptyConversation() throws Exception {
    JsonNode body = new ObjectMapper().readTree(AnthropicWire.requestBody("claude-x", 10,
        List.of(ChatMessage.assistant("I was saying"), ChatMessage.user("go on"))));
    assertEquals("user", body.get("messages").get(0).get("role").asText());
    assertFalse(body.has("system"));
    assertThrows(ModelException.class, () -> AnthropicWire.requestBody("claude-x", 10, List.of(ChatMessage.system("s"))));
  }

  @Test
  void decodesAWholeReply() {
    AnthropicWire.Decoder decoder = new AnthropicWire.Decoder("http://x/v1");
    List<LlmChunk> chunks = new ArrayList<>();
    for (SseEvent e : new SseParser(1 << 20).feed(AnthropicProviderTest.messageStream("\n", "Hel", "lo"))) {
      assertFalse(decoder.finished());
      chunks.addAll(decoder.decode(e));
    }
    assertEquals(List.of(new LlmChunk.TextDelta("Hel"), new LlmChunk.TextDelta("lo"), new LlmChunk.Usage(25, 15)),
        chunks);
    assertTrue(decoder.finished());
    assertTrue(decoder.complete());
    assertEquals("end_turn", decoder.stopReason());
    assertEquals(Map.of(1, "{\"code\": \"ls\"}"), decoder.toolInputs());
  }

  @Test
  void cachedInputTokensCountAsInput() {
    AnthropicWire.Decoder decoder = new AnthropicWire.Decoder("http://x/v1");
    decoder.decode(new SseEvent("message_start", "{\"type\":\"message_start\",\"message\":{\"usage\":"
        + "{\"input_tokens\":5,\"cache_read_input_tokens\":100,\"cache_creation_input_tokens\":20,\"output_tokens\":1}}}",
        ""));
    assertEquals(List.of(new LlmChunk.Usage(125, 7)), decoder.decode(new SseEvent("message_delta",
        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":7}}", "")));
  }

  @Test
  void errorEventsFailRetryableOnlyWhenTheServerIsAtFault() {
    AnthropicWire.Decoder decoder = new AnthropicWire.Decoder("http://x/v1");
    ModelException overloaded = assertThrows(ModelException.class, () -> decoder.decode(new SseEvent("error",
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}", "")));
    assertTrue(overloaded.retryable());
    assertEquals("http://x/v1 reported overloaded_error: Overloaded", overloaded.getMessage());
    ModelException invalid = assertThrows(ModelException.class, () -> decoder.decode(new SseEvent("error",
        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long\"}}", "")));
    assertFalse(invalid.retryable());
  }

  @Test
  void pingsAndUnknownEventsAreIgnoredAndGarbageFails() {
    AnthropicWire.Decoder decoder = new AnthropicWire.Decoder("http://x/v1");
    assertEquals(List.of(), decoder.decode(new SseEvent("ping", "{\"type\":\"ping\"}", "")));
    assertEquals(List.of(), decoder.decode(new SseEvent("new_thing", "{\"type\":\"new_thing\"}", "")));
    assertFalse(decoder.complete());
    ModelException e = assertThrows(ModelException.class, () -> decoder.decode(new SseEvent("content_block_delta",
        "{not json", "")));
    assertFalse(e.retryable());
  }

  @Test
  void malformedEventIsAClearNonRetryableFailure() {
    AnthropicWire.Decoder decoder = new AnthropicWire.Decoder("http://x/v1");
    ModelException notJson = assertThrows(ModelException.class,
        () -> decoder.decode(new SseEvent("content_block_delta", "{\"delta\": [tru", null)));
    assertFalse(notJson.retryable());
    assertEquals("malformed content_block_delta event from http://x/v1 (not JSON): {\"delta\": [tru",
        notJson.getMessage());
    ModelException notObject = assertThrows(ModelException.class,
        () -> decoder.decode(new SseEvent("message_start", "[1]", null)));
    assertEquals("malformed message_start event from http://x/v1 (not a JSON object): [1]", notObject.getMessage());
  }
}
