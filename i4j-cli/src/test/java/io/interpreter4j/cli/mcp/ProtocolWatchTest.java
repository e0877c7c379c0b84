package io.interpreter4j.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProtocolWatchTest {

  @Test
  void aCancelOfAToolCallRunsTheHandlerOthersDoNotAndTheBytesPassUnchanged() throws Exception {
    String messages = String.join("\n",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"execute\"}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":8}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"8\",\"method\":\"tools/list\"}",
        "not json at all",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}", "");
    byte[] bytes = messages.getBytes(StandardCharsets.UTF_8);
    AtomicInteger cancels = new AtomicInteger();
    ProtocolWatch watch = new ProtocolWatch(new ByteArrayInputStream(bytes), cancels::incrementAndGet);
    byte[] read = watch.readAllBytes();
    assertArrayEquals(bytes, read);
    assertEquals(1, cancels.get(), "only the cancel of tool call 7, once");
    assertTrue(watch.closed().isDone(), "the end of the client's stream is seen");
  }
}
