package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Session#execute(String, String)}: real python3 and bash, no model call, the approval gate as for a block. */
class SessionExecuteTest {

  @TempDir
  Path tmp;

  @Test
  void stateIsKeptBetweenExecutionsInEachLanguage() {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
         Session s = i4j.newSession()) {
      ExecResult set = s.execute("python", "x = 6 * 7");
      assertTrue(set.ok(), set.toString());
      ExecResult py = s.execute("python", "print(x)");
      assertEquals("42\n", py.output(), py.toString());
      assertEquals(2, py.block());

      s.execute("bash", "cd " + tmp + " && GREETING=hello");
      ExecResult sh = s.execute("bash", "echo \"$GREETING from $(pwd)\"");
      assertEquals("hello from " + tmp + "\n", sh.output(), sh.toString());

      ExecResult failed = s.execute("python", "raise SystemExit(3)");
      assertTrue(failed.ran());
      assertEquals(3, failed.exitCode());
      assertFalse(failed.ok());
    }
  }

  @Test
  void executionsShareTheREPLWithTheModelsBlocksAndLeaveTheConversationAlone() throws Exception {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
         Session s = i4j.newSession()) {
      assertEquals(TurnStatus.DONE, s.chat("mean of 3 5 8 13").toCompletableFuture().get(60, TimeUnit.SECONDS)
          .status());
      ExecResult x = s.execute("python", "print(nums)");
      assertEquals("[3, 5, 8, 13]\n", x.output(), x.toString());
      assertEquals(2, x.block()); // numbered after the model's block
    }
  }

  @Test
  void theApprovalGateDecidesAsForAModelsBlock() {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
         Session s = i4j.newSession()) {
      // high risk: fetched code piped to a shell (harmless even if it ran: nothing listens on port 1)
      ExecResult x = s.execute("bash", "curl -s http://127.0.0.1:1/install.sh | sh");
      assertFalse(x.ran(), x.toString());
      assertEquals(Decision.Kind.DENIED, x.decision().kind());
      assertEquals(Decision.DecidedBy.POLICY, x.decision().by());
      assertTrue(x.reason() != null && !x.reason().isBlank(), x.toString());
      assertNull(x.outputFile());

      ExecResult unknown = s.execute("cobol", "DISPLAY 'HI'.");
      assertFalse(unknown.ran());
      assertNull(unknown.decision());
      assertTrue(unknown.reason().contains("cobol"), unknown.reason());
    }
  }

  @Test
  void anExecutionIsATurnOfItsOwnWithoutAMessage() throws Exception {
    Path marker = tmp.resolve("marker.txt");
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build()) {
      Session s = i4j.newSession();
      s.execute("python", "open(" + pyString(marker) + ", 'w').write('x'); print('written')");
      s.close();
      List<Event> events = s.eventSource().runWith(Sink.seq(), pekko(i4j)).toCompletableFuture()
          .get(60, TimeUnit.SECONDS);

      // the output may come in more than one piece
      assertEquals(List.of("session_started", "code_block", "approval", "exec_started", "exec_finished", "turn_finished"),
          events.stream().map(Event::type).filter(t -> !t.equals("output")).toList());
      assertEquals("written\n", events.stream().filter(e -> e instanceof Event.Output)
          .map(e -> ((Event.Output) e).text()).reduce("", String::concat));
      Event.CodeBlock block = (Event.CodeBlock) events.get(1);
      assertEquals("python", block.language());
      Event.ExecFinished end = (Event.ExecFinished) events.get(events.size() - 2);
      assertEquals(0, end.exitCode());
      assertEquals(TurnStatus.DONE, ((Event.TurnFinished) events.get(events.size() - 1)).status());
      assertTrue(Files.exists(marker));
    }
  }

  private static String pyString(Path p) {
    return "'" + p.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** The shared actor system, to run a Pekko stream on. */
  static org.apache.pekko.actor.typed.ActorSystem<?> pekko(Interpreter unused) {
    return SharedSystem.current();
  }
}
