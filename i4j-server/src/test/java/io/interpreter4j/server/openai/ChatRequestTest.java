package io.interpreter4j.server.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.model.ChatMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatRequestTest {

  private static ChatRequest parse(String json) throws Exception {
    return ChatRequest.parse(EventCodec.mapper().readTree(json));
  }

  private static String refused(String json) {
    return assertThrows(IllegalArgumentException.class, () -> parse(json)).getMessage();
  }

  @Test
  void theLastUserMessageIsTheTurnAndTheOthersSeedTheConversation() throws Exception {
    ChatRequest r = parse("""
        {"model": "i4j", "stream": true, "stream_options": {"include_usage": true}, "user": "u1",
         "messages": [{"role": "system", "content": "Be brief."}, {"role": "developer", "content": "Use bash."},
                      {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"},
                      {"role": "user", "content": [{"type": "text", "text": "list"}, {"type": "text", "text": "files"}]}]}
        """);
    assertEquals("list\nfiles", r.prompt());
    assertEquals(List.of(ChatMessage.user("hi"), ChatMessage.assistant("hello")), r.earlier());
    assertEquals("Be brief.\n\nUse bash.", r.instructions());
    assertTrue(r.stream());
    assertTrue(r.includeUsage());
    assertEquals("i4j", r.model());
    assertEquals("u1", r.user());
  }

  @Test
  void leftOutFieldsHaveTheirDefaults() throws Exception {
    ChatRequest r = parse("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
    assertNull(r.model());
    assertNull(r.instructions());
    assertFalse(r.stream());
    assertFalse(r.includeUsage());
  }

  @Test
  void whatCannotBeATurnIsRefusedSayingWhy() {
    assertTrue(refused("{}").contains("\"messages\" is required"));
    assertTrue(refused("{\"messages\": []}").contains("\"messages\" is required"));
    assertTrue(refused("{\"messages\": [{\"role\": \"assistant\", \"content\": \"x\"}]}").contains("last message"));
    assertTrue(refused("{\"messages\": [{\"role\": \"user\", \"content\": \"  \"}]}").contains("blank"));
    assertTrue(refused("{\"messages\": [{\"role\": \"tool\", \"content\": \"x\"}, {\"role\": \"user\", \"content\": "
        + "\"y\"}]}").contains("no tool results"));
    assertTrue(refused("{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"image_url\"}]}]}")
        .contains("only {\"type\": \"text\""));
    assertTrue(refused("{\"stream\": \"yes\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}")
        .contains("\"stream\" must be true or false"));
    assertTrue(refused("{\"model\": 4, \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}")
        .contains("\"model\" must be a string"));
  }
}
