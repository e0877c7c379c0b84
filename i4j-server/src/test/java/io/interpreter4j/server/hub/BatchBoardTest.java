package io.interpreter4j.server.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class BatchBoardTest {

  private static ObjectNode progress(int total, int finished) {
    ObjectNode p = JsonNodeFactory.instance.objectNode();
    p.put("total", total);
    p.put("finished", finished);
    return p;
  }

  @Test
  void keepsTheLatestProgressAndEachTasksLatestState() {
    BatchBoard board = new BatchBoard();
    board.progress("b1", "batch one", progress(2, 0));
    board.task("b1", "t1", "running", "s-1", null);
    board.task("b1", "t1", "done", "s-1", null);
    board.task("b1", "t2", "timeout", "s-2", "timed out after 3 s");
    board.progress("b1", "batch one", progress(2, 2));
    JsonNode b = board.toJson().get("batches").get(0);
    assertEquals("b1", b.get("id").asText());
    assertEquals("batch one", b.get("name").asText());
    assertEquals(2, b.get("finished").asInt());
    assertEquals(2, b.get("tasks").size());
    assertEquals("done", b.get("tasks").get(0).get("status").asText());
    assertEquals("s-2", b.get("tasks").get(1).get("session").asText());
  }

  @Test
  void holdsABoundedNumberOfBatches() {
    BatchBoard board = new BatchBoard();
    for (int i = 0; i < 40; i++) {
      board.progress("b" + i, "n", progress(1, 0));
      board.task("b" + i, "t", "running", "s", null);
    }
    JsonNode batches = board.toJson().get("batches");
    assertEquals(16, batches.size());
    assertEquals("b24", batches.get(0).get("id").asText());
  }
}
