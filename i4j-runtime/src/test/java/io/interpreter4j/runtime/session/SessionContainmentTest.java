package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.config.Settings.ApprovalMode;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.testing.OutsideTmp;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.RequiredBwrap;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default containment in real sessions with real bwrap: code that runs without asking is sandboxed, code a person
 * approves is not, and a session switched to auto moves into the sandbox. The folders lie outside /tmp, where the
 * sandbox can see them (read-only), as a user's would.
 */
class SessionContainmentTest {
  private static final Duration TURN = Duration.ofSeconds(60);
  private static ActorTestKit testKit;

  @TempDir(factory = OutsideTmp.class) Path root;
  private SessionHarness harness;
  private Path outside;
  private Path key;
  private Containment containment;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() throws Exception {
    RequiredBwrap.sandbox(true);
    Path work = Files.createDirectories(root.resolve("work"));
    outside = Files.createDirectories(root.resolve("outside"));
    key = Files.writeString(Files.createDirectories(root.resolve("home/.ssh")).resolve("id_ed25519"),
        "PRIVATE-KEY-MATERIAL\n");
    harness = new SessionHarness(testKit, root.resolve("data"), work);
    containment = Containment.of(SandboxSettings.DEFAULT,
        MaskedPaths.of(List.of(root.resolve("home/.ssh")), List.of()));
  }

  /** A bash block that tries the three things, each reported on a line of its own. */
  private String probeBlock(String name) {
    return "```bash\n"
        + "echo escaped > " + outside.resolve(name) + " && echo \"" + name + ": outside written\"\n"
        + "echo kept > " + name + ".txt && echo \"" + name + ": inside written\"\n"
        + "cat " + key + " >/dev/null 2>&1 && echo \"" + name + ": key read\" || echo \"" + name + ": key hidden\"\n"
        + "true\n```";
  }

  private SessionHarness.Running start(String json, Approver approver, String mode) {
    return harness.start(SessionIds.next(), cassette(json), approver, Map.of("interpreter4j.approval.mode", mode),
        spec -> spec.withContainment(containment));
  }

  private List<String> systemPrompt(SessionHarness.Running s) {
    TestProbe<Session.History> probe = testKit.createTestProbe();
    s.ref.tell(new Session.GetHistory(probe.ref()));
    return List.of(probe.receiveMessage(Duration.ofSeconds(10)).messages().get(0).content());
  }

  @Test
  void codeThatRunsWithoutAskingWritesOnlyInTheWorkdirAndCannotReadMaskedSecrets() throws Exception {
    var s = start(cassetteJson(turn(null, probeBlock("auto")), turn(null, "Done.")), Approver.NOBODY, "auto");
    assertEquals("done", s.turn("go", TURN).status().wire());
    String out = s.output();
    assertFalse(out.contains("outside written"), out);
    assertTrue(out.contains("Read-only file system"), out);
    assertFalse(Files.exists(outside.resolve("auto")));
    assertTrue(out.contains("auto: inside written"), out);
    assertEquals("kept\n", Files.readString(harness.workdir.resolve("auto.txt")));
    assertTrue(out.contains("auto: key hidden"), out);
    assertTrue(systemPrompt(s).get(0).contains("Your code runs in a bubblewrap sandbox"), "the model is told");
  }

  @Test
  void aSandboxedSessionStartsItsPythonAtCreationAndItsFirstPythonBlockRunsInIt() throws Exception {
    // the block renames its own process (prctl PR_SET_NAME): the host sees the name on the python it found early
    String block = "```python\nimport ctypes\nprint(ctypes.CDLL(None).prctl(15, b'i4j-early-ok', 0, 0, 0))\n```";
    var s = start(cassetteJson(turn(null, block), turn(null, "Done.")), Approver.NOBODY, "auto");
    ProcessHandle early = driverIn(harness.workdir); // before any message
    assertEquals("done", s.turn("go", TURN).status().wire());
    assertTrue(s.output().contains("0"), s.output());
    assertEquals("i4j-early-ok", Files.readString(Path.of("/proc/" + early.pid() + "/comm")).strip());
  }

  /**
   * The REPL driver's python ({@code -u}, unlike the sandbox's one-off probes) right below a bwrap that binds
   * {@code dir} writable.
   */
  private static ProcessHandle driverIn(Path dir) throws Exception {
    Path real = dir.toRealPath();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
        String line = p.info().commandLine().orElse("");
        // python itself (its executable), not bwrap's child before its exec, whose command line has python's too
        if (p.info().command().orElse("").contains("python") && line.contains(" -u ") && p.parent()
            .flatMap(parent -> parent.info().commandLine()).orElse("").contains("--bind " + real + " " + real)) {
          return p;
        }
      }
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
    }
    throw new AssertionError("no python started in " + dir + ": " + ProcessHandle.current().descendants()
        .map(p -> p.pid() + " " + p.info().commandLine().orElse("?").replaceAll("(?s)(.{120}).*", "$1")).toList());
  }

  @Test
  void codeAPersonApprovesRunsUnconfined() throws Exception {
    Approver yes = (session, block) -> CompletableFuture.completedFuture(Approver.Answer.yes());
    var s = start(cassetteJson(turn(null, probeBlock("ask")), turn(null, "Done.")), yes, "ask");
    assertEquals("done", s.turn("go", TURN).status().wire());
    String out = s.output();
    assertTrue(out.contains("ask: outside written"), out);
    assertEquals("escaped\n", Files.readString(outside.resolve("ask")));
    assertTrue(out.contains("ask: key read"), out);
    assertFalse(systemPrompt(s).get(0).contains("sandbox"));
  }

  @Test
  void switchingToAutoRestartsTheReplsInsideTheSandboxAndTellsTheModel() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Approver yes = (session, block) -> {
      asked.incrementAndGet();
      return CompletableFuture.completedFuture(Approver.Answer.yes());
    };
    var s = start(cassetteJson(
        turn(null, "```python\nx = 41\n```"), turn(null, "Set."),
        turn(null, "```python\nprint(x + 1)\n```"), turn(null, "Gone."),
        turn(null, probeBlock("switched")), turn(null, "Done."),
        turn(null, probeBlock("back")), turn(null, "Done again.")), yes, "ask");
    assertEquals("done", s.turn("set x", TURN).status().wire());
    assertEquals(1, asked.get());

    TestProbe<Session.ModeSet> probe = testKit.createTestProbe();
    s.ref.tell(new Session.SetApprovalMode(ApprovalMode.AUTO, probe.ref()));
    assertEquals(new Session.ModeSet(ApprovalMode.AUTO, "bwrap", true, false), probe.receiveMessage(TURN));
    assertTrue(systemPrompt(s).get(0).contains("Auto-run was switched on during this conversation. Your code runs in "
        + "a bubblewrap sandbox"), systemPrompt(s).get(0));

    s.turn("print x", TURN);
    assertTrue(s.output().contains("NameError"), "the state was reset: " + s.output());
    s.turn("probe", TURN);
    assertEquals(1, asked.get(), "auto-run: nobody asked");
    assertFalse(Files.exists(outside.resolve("switched")));
    assertTrue(s.output().contains("switched: key hidden"), s.output());

    // back to ask: a person approves again, and the code stays in the sandbox
    s.ref.tell(new Session.SetApprovalMode(ApprovalMode.ASK, probe.ref()));
    assertEquals(new Session.ModeSet(ApprovalMode.ASK, "bwrap", false, false), probe.receiveMessage(TURN));
    s.turn("probe again", TURN);
    assertEquals(2, asked.get());
    assertFalse(Files.exists(outside.resolve("back")));
  }

  @Test
  void aSwitchDuringATurnWaitsForItToEnd() throws Exception {
    CompletableFuture<Approver.Answer> answer = new CompletableFuture<>();
    AtomicInteger asked = new AtomicInteger();
    Approver later = (session, block) -> {
      asked.incrementAndGet();
      return answer;
    };
    var s = start(cassetteJson(turn(null, probeBlock("during")), turn(null, "Done."),
        turn(null, probeBlock("after")), turn(null, "Done.")), later, "ask");
    s.ref.tell(new Session.UserMessage("go"));
    s.awaitType("approval_requested", TURN);
    TestProbe<Session.ModeSet> probe = testKit.createTestProbe();
    s.ref.tell(new Session.SetApprovalMode(ApprovalMode.AUTO, probe.ref()));
    assertEquals(new Session.ModeSet(ApprovalMode.AUTO, "bwrap", false, true), probe.receiveMessage(TURN));
    answer.complete(Approver.Answer.yes());
    assertEquals("done", s.awaitTurn(TURN).status().wire());
    assertEquals("escaped\n", Files.readString(outside.resolve("during")), "the running turn kept its sandbox");

    s.turn("again", TURN);
    assertEquals(1, asked.get(), "the next turn auto-runs");
    assertFalse(Files.exists(outside.resolve("after")), "in the sandbox");
    assertTrue(s.output().contains("after: inside written"), s.output());
  }
}
