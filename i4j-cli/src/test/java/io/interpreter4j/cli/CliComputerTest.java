package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code i4j run --os}: a real child process gets its own screen, and the model's python block reaches it. */
class CliComputerTest {

  @TempDir Path root;

  @Test
  void theOsFlagGivesTheSessionAPrivateScreenThatPythonBlocksUse() throws Exception {
    RequiredTool.assume(Subprocess.executable("Xvfb").isPresent(), "Xvfb", "apt-get install xvfb");
    RequiredTool.assume(Subprocess.executable("xdotool").isPresent(), "xdotool", "apt-get install xdotool");
    Path work = Files.createDirectories(root.resolve("work"));
    Path cassette = root.resolve("screen.json");
    Files.writeString(cassette, "{\"turns\": [{\"reply\": \"```python\\nprint(computer.display.size())\\n"
        + "print(computer.mouse.move(10, 20))\\n```\"}, {\"expect\": \"\\\\(1280, 800\\\\)\", \"reply\": \"Done.\"}]}");

    CliProcess.Result r = CliProcess.finish(CliProcess.start(work, root.resolve("data"), root.resolve("config"),
        Map.of("DISPLAY", ""), "run", "-y", "--os", "--json", "-m", "replay:" + cassette, "how large is the screen?"),
        null, Duration.ofSeconds(120));

    assertEquals(0, r.exit(), r.stderr() + r.stdout());
    List<JsonNode> actions = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      if (line.startsWith("{")) {
        JsonNode event = EventCodec.mapper().readTree(line);
        if (event.path("type").asText().equals("computer_action")) {
          actions.add(event);
        }
      }
    }
    assertEquals(List.of("display.size", "mouse.move"), actions.stream().map(a -> a.path("action").asText()).toList(),
        r.stdout());
    assertEquals("1280x800", actions.get(0).path("result").asText());
    assertEquals(List.of(10, 20), List.of(actions.get(1).path("x").asInt(), actions.get(1).path("y").asInt()));
    assertTrue(r.stdout().contains("(1280, 800)"), r.stdout());
  }
}
