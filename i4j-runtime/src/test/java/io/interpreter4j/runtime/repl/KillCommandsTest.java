package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.repl.KillCommands.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Requests that wait together go out as few kill commands, in the order they came; and they reach real processes. */
class KillCommandsTest {

  @Test
  void runsOfOneSignalShareACommandInOrder() {
    List<Request> requests = List.of(new Request("INT", List.of("-10")), new Request("INT", List.of("-11")),
        new Request("KILL", List.of("-10")), new Request("KILL", List.of("-12", "13")), new Request("INT",
            List.of("-14")));
    assertEquals(List.of(
        List.of("kill", "-s", "INT", "--", "-10", "-11"),
        List.of("kill", "-s", "KILL", "--", "-10", "-12", "13"),
        List.of("kill", "-s", "INT", "--", "-14")), KillCommands.commands(requests));
  }

  @Test
  void aTargetTwiceInARunIsNamedOnceAndLongRunsAreSplit() {
    List<Request> requests = new ArrayList<>();
    requests.add(new Request("KILL", List.of("-5", "-5")));
    for (int i = 0; i < KillCommands.TARGETS_PER_COMMAND; i++) {
      requests.add(new Request("KILL", List.of(Integer.toString(1000 + i))));
    }
    List<List<String>> commands = KillCommands.commands(requests);
    assertEquals(2, commands.size());
    assertEquals(4 + KillCommands.TARGETS_PER_COMMAND, commands.get(0).size());
    assertEquals(List.of("kill", "-s", "KILL", "--", "1999"), commands.get(1));
    assertEquals("-5", commands.get(0).get(4));
    assertTrue(commands.get(0).lastIndexOf("-5") == 4, "named once");
  }

  @Test
  void killsRealProcessesSentTogether() throws Exception {
    List<Process> sleeps = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sleeps.add(new ProcessBuilder("sleep", "60").start());
    }
    for (Process p : sleeps) {
      KillCommands.send("KILL", List.of(Long.toString(p.pid())));
    }
    for (Process p : sleeps) {
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "killed");
      assertEquals(137, p.exitValue(), "by SIGKILL");
    }
  }
}
