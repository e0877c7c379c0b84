package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.runtime.approval.Approver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session end to end: the replay model, the real interceptor, real python and bash REPL processes. */
class SessionTest {
  private static final Duration TURN = Duration.ofSeconds(30);
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private SessionHarness harness;

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
    Path work = Files.createDirectories(tmp.resolve("work"));
    harness = new SessionHarness(testKit, tmp.resolve("data"), work);
  }

  @Test
  void runsABlockSendsItsOutputBackAndEndsDone() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "Computing.\n\n```python\nprint(6 * 7)\n```\nignored text after the block"),
        turn("Block 1 \\(python\\) finished with exit code 0\\.\\nOutput:\\n```output\\n42\\n", "The answer is 42."))),
        Approver.NOBODY, Map.of());
    EventPayload.TurnFinished done = s.turn("what is 6*7?", TURN);
    assertEquals("done", done.status().wire());
    assertEquals(2, done.iterations());
    assertEquals("session_started,user_message,code_block,assistant_message,approval,exec_started,output,"
        + "exec_finished,assistant_message,turn_finished", s.types().replace("usage,", "").replaceAll("(output,)+", "output,"));
    EventPayload.AssistantMessage first = s.payloads(EventPayload.AssistantMessage.class).get(0);
    assertEquals("Computing.\n\n```python\nprint(6 * 7)\n```\n", first.text(),
        "first-block mode cuts the answer after the block");
    EventPayload.ExecFinished fin = s.payloads(EventPayload.ExecFinished.class).get(0);
    assertEquals(0, fin.exit_code());
    assertNull(fin.output_file(), "the whole output is in the output events: no file");
    assertFalse(Files.exists(harness.dataDir.resolve("sessions").resolve(s.id).resolve("outputs")));
  }

  @Test
  void journalHoldsEveryEventButDeltasInOrder() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho hi\n```"), turn(null, "ok"))), Approver.NOBODY, Map.of());
    s.turn("go", TURN);
    Path journal = harness.dataDir.resolve("sessions").resolve(s.id).resolve("events.jsonl");
    List<Event> journaled = Files.readAllLines(journal).stream().map(EventCodec::fromJson).toList();
    List<Event> shown = s.all.stream().filter(e -> !e.type().equals("assistant_delta")).toList();
    assertEquals(shown, journaled);
    for (int i = 1; i < s.all.size(); i++) {
      assertEquals(s.all.get(i - 1).seq() + 1, s.all.get(i).seq());
    }
  }

  @Test
  void selfHealingFixesAFailedBlockAndEndsDone() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```python\nprint(undefined_name)\n```"),
        turn("exit code 1.*NameError", "Fixing.\n```python\nundefined_name = 5\nprint(undefined_name)\n```"),
        turn("exit code 0.*\\n5\\n", "Fixed: 5."))), Approver.NOBODY, Map.of());
    EventPayload.TurnFinished t = s.turn("print it", TURN);
    assertEquals("done", t.status().wire(), s.types());
    List<EventPayload.ExecFinished> runs = s.payloads(EventPayload.ExecFinished.class);
    assertEquals(1, runs.get(0).exit_code());
    assertEquals(0, runs.get(1).exit_code());
  }

  @Test
  void aBlockThatFailsForeverEndsGaveUpWithinTheBounds() throws Exception {
    StringBuilder turns = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      turns.append(i == 0 ? "" : ",").append(turn(null, "```bash\necho attempt " + i + "; exit_code_" + i + "_missing\n```"));
    }
    var s = harness.start(cassette("{\"turns\": [" + turns + "]}"), Approver.NOBODY,
        Map.of("interpreter4j.healing.max-consecutive-failures", 3));
    EventPayload.TurnFinished t = s.turn("do it", TURN);
    assertEquals("gave_up", t.status().wire());
    assertTrue(t.reason().contains("3 failed blocks in a row"), t.reason());
    assertEquals(3, s.payloads(EventPayload.ExecFinished.class).size());
  }

  @Test
  void theSameErrorTwiceStopsAtOnce() throws Exception {
    String bad = "```python\n1/0\n```";
    var s = harness.start(cassette(cassetteJson(turn(null, bad), turn(null, bad), turn(null, bad))),
        Approver.NOBODY, Map.of());
    EventPayload.TurnFinished t = s.turn("divide", TURN);
    assertEquals("gave_up", t.status().wire());
    assertEquals("the same code failed twice with the same error", t.reason());
  }

  @Test
  void maxIterationsBoundsModelCalls() throws Exception {
    StringBuilder turns = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      turns.append(i == 0 ? "" : ",").append(turn(null, "```bash\necho step " + i + "\n```"));
    }
    var s = harness.start(cassette("{\"turns\": [" + turns + "]}"), Approver.NOBODY,
        Map.of("interpreter4j.healing.max-iterations", 4));
    EventPayload.TurnFinished t = s.turn("loop", TURN);
    assertEquals("gave_up", t.status().wire());
    assertEquals(4, t.iterations());
    assertTrue(t.reason().contains("max-iterations"), t.reason());
  }

  @Test
  void aDeclinedBlockIsReportedToTheModel() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\ntouch should-not-exist\n```"),
        turn("The user declined to run block 1.*not now", "OK, I won't."))),
        SessionHarness.NO, Map.of("interpreter4j.approval.mode", "ask"));
    EventPayload.TurnFinished t = s.turn("touch it", TURN);
    assertEquals("done", t.status().wire(), s.types());
    EventPayload.Approval a = s.payloads(EventPayload.Approval.class).get(0);
    assertEquals("denied", a.decision().wire());
    assertEquals("user", a.by().wire());
    assertFalse(Files.exists(harness.workdir.resolve("should-not-exist")));
    assertTrue(s.payloads(EventPayload.ExecStarted.class).isEmpty());
  }

  @Test
  void aPersonIsAskedOnlyOnceTheBlockAndTheAnswerBeforeItAreOut() throws Exception {
    // the block that ends the model's call goes to the gate as a precheck before its events are journaled: the gate
    // must not ask anyone then
    java.util.concurrent.atomic.AtomicReference<SessionHarness.Running> running =
        new java.util.concurrent.atomic.AtomicReference<>();
    List<String> seenWhenAsked = new java.util.concurrent.CopyOnWriteArrayList<>();
    Approver person = (session, block) -> {
      running.get().all.forEach(e -> seenWhenAsked.add(e.type()));
      return java.util.concurrent.CompletableFuture.completedFuture(Approver.Answer.yes());
    };
    running.set(harness.start(cassette(cassetteJson(
        turn(null, "Listing it.\n\n```bash\necho asked-after\n```\n"),
        turn(null, "It printed asked-after."))), person, Map.of("interpreter4j.approval.mode", "ask")));
    var s = running.get();
    assertEquals("done", s.turn("go", TURN).status().wire(), s.types());
    assertTrue(seenWhenAsked.contains("code_block") && seenWhenAsked.contains("assistant_message"),
        "asked before the block's events were out: " + seenWhenAsked);
    assertTrue(s.output().contains("asked-after"), s.output());
  }

  @Test
  void anAutoApprovedBlocksEventsKeepTheirOrder() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "Running it.\n\n```bash\necho in-order\n```\n"),
        turn(null, "Done."))), Approver.NOBODY, Map.of("interpreter4j.approval.mode", "auto"));
    assertEquals("done", s.turn("go", TURN).status().wire(), s.types());
    List<String> types = s.all.stream().map(e -> e.type()).toList();
    int block = types.indexOf("code_block");
    int message = types.indexOf("assistant_message");
    int approval = types.indexOf("approval");
    int started = types.indexOf("exec_started");
    assertTrue(0 <= block && block < message && message < approval && approval < started, types.toString());
    assertEquals("auto", s.payloads(EventPayload.Approval.class).get(0).by().wire());
  }

  @Test
  void noOneToAskEndsBlocked() throws Exception {
    var s = harness.start(cassette(cassetteJson(turn(null, "```bash\necho hi\n```"))), Approver.NOBODY,
        Map.of("interpreter4j.approval.mode", "ask"));
    assertEquals("blocked", s.turn("hi", TURN).status().wire());
  }

  @Test
  void allBlocksModeRunsEveryBlockInOrderAndStopsAtTheFirstFailure() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho one\n```\n```bash\nfalse\n```\n```bash\necho three\n```\nDone writing."),
        turn("Block 1 .*exit code 0.*Block 2 .*exit code 1", "Block 2 failed; stopping."))),
        Approver.NOBODY, Map.of("interpreter4j.interceptor.mode", "all-blocks"));
    EventPayload.TurnFinished t = s.turn("three steps", TURN);
    assertEquals("done", t.status().wire(), s.types());
    assertEquals(3, s.payloads(EventPayload.CodeBlockEvent.class).size());
    assertEquals(2, s.payloads(EventPayload.ExecFinished.class).size());
    assertFalse(s.output().contains("three"));
  }

  @Test
  void anUnknownLanguageIsExplainedToTheModel() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```cobol\nDISPLAY 'HI'.\n```"),
        turn("language 'cobol' is not available here.*python.*bash", "I'll use python."))),
        Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("hi", TURN).status().wire());
  }

  @Test
  void stateIsKeptAcrossBlocksOfATurnAndAcrossTurns() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```python\ncounter = 41\n```"),
        turn(null, "```bash\ncd /tmp && export GREETING=hello\n```"),
        turn(null, "done"),
        turn(null, "```python\ncounter + 1\n```"),
        turn(null, "```bash\necho \"$GREETING from $(pwd)\"\n```"),
        turn(null, "done"))), Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("set up", TURN).status().wire());
    assertEquals("done", s.turn("use it", TURN).status().wire());
    String out = s.output();
    assertTrue(out.contains("42"), out);
    assertTrue(out.contains("hello from /tmp"), out);
  }

  @Test
  void aCassetteMismatchFailsTheTurnWithItsMessage() throws Exception {
    var s = harness.start(cassette(cassetteJson(turn("never-said", "x"))), Approver.NOBODY, Map.of());
    EventPayload.TurnFinished t = s.turn("hello", TURN);
    assertEquals("failed", t.status().wire());
    assertTrue(t.reason().startsWith("cassette mismatch at turn 1: /never-said/ not found in: hello"), t.reason());
  }

  @Test
  void interruptStopsARunningBlockAndKeepsTheSession() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho started; sleep 1000\n```"),
        turn(null, "```bash\necho still alive\n```"),
        turn(null, "ok"))), Approver.NOBODY, Map.of());
    s.ref.tell(new Session.UserMessage("sleep"));
    s.awaitType("output", TURN);
    s.ref.tell(Session.Interrupt.INSTANCE);
    EventPayload.TurnFinished t = s.awaitTurn(TURN);
    assertEquals("interrupted", t.status().wire());
    EventPayload.ExecFinished f = s.payloads(EventPayload.ExecFinished.class).get(0);
    assertEquals(130, f.exit_code());
    assertTrue(f.interrupted());
    assertEquals("done", s.turn("again", TURN).status().wire());
    assertTrue(s.output().contains("still alive"));
  }

  @Test
  void aSecondMessageDuringATurnIsRefusedWithAClearError() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\nsleep 1000\n```"), turn(null, "ok"))), Approver.NOBODY, Map.of());
    s.ref.tell(new Session.UserMessage("first"));
    s.awaitType("exec_started", TURN);
    s.ref.tell(new Session.UserMessage("second"));
    EventPayload.Error e = (EventPayload.Error) s.awaitType("error", TURN).payload();
    assertTrue(e.message().contains("a turn is still running"));
    s.ref.tell(Session.Interrupt.INSTANCE);
    assertEquals("interrupted", s.awaitTurn(TURN).status().wire());
  }

  @Test
  void aDangerousBlockUnderAutoRunIsDeniedByPolicyAndTheModelIsToldWhy() throws Exception {
    Path home = Files.createDirectories(tmp.resolve("home-must-survive"));
    Files.writeString(home.resolve("precious.txt"), "keep me");
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\nrm -rf ~/*\n```"),
        turn("Block 1 was not executed: blocked by policy: .*home.*; choose a safer way", "I'll stop here."))),
        Approver.NOBODY, Map.of());
    EventPayload.TurnFinished t = s.turn("clean up", TURN);
    assertEquals("done", t.status().wire(), s.types());
    EventPayload.Approval a = s.payloads(EventPayload.Approval.class).get(0);
    assertEquals("denied", a.decision().wire());
    assertEquals("policy", a.by().wire());
    assertEquals("high", a.risk());
    assertFalse(a.flags().isEmpty());
    assertTrue(s.payloads(EventPayload.ExecStarted.class).isEmpty(), "the block must never run");
    assertTrue(Files.exists(home.resolve("precious.txt")));
  }

  @Test
  void anAllowRuleLetsAHighRiskBlockRunUnderAutoRun() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\ngit reset --hard 2>/dev/null; echo ran\n```"), turn(null, "ok"))),
        Approver.NOBODY, Map.of("interpreter4j.approval.rules.allow", List.of("bash:git reset --hard*", "bash:echo *")));
    assertEquals("done", s.turn("reset", TURN).status().wire(), s.types());
    EventPayload.Approval a = s.payloads(EventPayload.Approval.class).get(0);
    assertEquals("approved", a.decision().wire());
    assertEquals("policy", a.by().wire());
    assertTrue(s.output().contains("ran"));
  }

  @Test
  void aDenyRuleBeatsAutoRun() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\ncurl -s http://127.0.0.1:9/ || true\n```"), turn("blocked by policy", "ok"))),
        Approver.NOBODY, Map.of("interpreter4j.approval.rules.deny", List.of("bash:curl *")));
    assertEquals("done", s.turn("fetch", TURN).status().wire(), s.types());
    assertEquals("denied", s.payloads(EventPayload.Approval.class).get(0).decision().wire());
  }

  @Test
  void secretsNeverReachEventsOrTheJournal() throws Exception {
    String key = "sk-proj-" + "Abcdefghijklmnopqrstuvwxyz0123456789";
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho " + key + "\n```"), turn(null, "printed"))), Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("show the key " + key, TURN).status().wire());
    Path journal = harness.dataDir.resolve("sessions").resolve(s.id).resolve("events.jsonl");
    assertFalse(Files.readString(journal).contains(key));
    assertFalse(s.all.stream().map(EventCodec::toJson).anyMatch(json -> json.contains(key)));
    assertTrue(s.output().contains("[REDACTED]"), s.output());
  }

  // ---- conversation edits: %reset, %undo, %load / resume, %auto_run ----

  private Session.Changed edit(SessionHarness.Running s,
                               java.util.function.Function<ActorRef<Session.Changed>, Session.Command> command) {
    TestProbe<Session.Changed> probe = testKit.createTestProbe();
    s.ref.tell(command.apply(probe.ref()));
    return probe.expectMessageClass(Session.Changed.class, Duration.ofSeconds(5));
  }

  private List<ChatMessage> history(SessionHarness.Running s) {
    TestProbe<Session.History> probe = testKit.createTestProbe();
    s.ref.tell(new Session.GetHistory(probe.ref()));
    return probe.expectMessageClass(Session.History.class, Duration.ofSeconds(5)).messages();
  }

  @Test
  void resetStartsANewConversationWithFreshRepls() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```python\nremembered = 41\n```"), turn(null, "Set."),
        turn("again", "```python\nprint(remembered)\n```"), turn("NameError", "It is gone."))),
        Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("remember", TURN).status().wire());
    Session.Changed reset = edit(s, Session.Reset::new);
    assertTrue(reset.done(), reset.message());
    assertEquals(List.of(), reset.messages());
    assertEquals(1, history(s).size(), "only the system prompt is left");
    EventPayload.Conversation event = s.payloads(EventPayload.Conversation.class).get(0);
    assertEquals("reset", event.reason());
    assertEquals("done", s.turn("again", TURN).status().wire());
    assertTrue(s.payloads(EventPayload.ExecFinished.class).get(1).exit_code() != 0, "python was restarted");
    assertEquals(List.of(ChatMessage.Role.SYSTEM, ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT,
        ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT), history(s).stream().map(ChatMessage::role).toList());
  }

  @Test
  void undoRemovesTheLastUserMessageAndEverythingAfterIt() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn("first", "One."), turn("second", "```bash\necho two\n```"), turn("exit code 0", "Two."),
        turn("^third$", "Three."))), Approver.NOBODY, Map.of());
    s.turn("first", TURN);
    s.turn("second", TURN);
    assertEquals(7, history(s).size());
    Session.Changed undone = edit(s, Session.Undo::new);
    assertTrue(undone.done());
    assertEquals("removed your last message: second", undone.message());
    assertEquals(List.of(ChatMessage.user("first"), ChatMessage.assistant("One.")), undone.messages());
    assertEquals("undo", s.payloads(EventPayload.Conversation.class).get(0).reason());
    assertEquals("done", s.turn("third", TURN).status().wire(), "the model sees the conversation without the undone turn");
    assertTrue(edit(s, Session.Undo::new).done());
    assertTrue(edit(s, Session.Undo::new).done());
    Session.Changed nothing = edit(s, Session.Undo::new);
    assertFalse(nothing.done());
    assertEquals("nothing to undo", nothing.message());
    assertEquals(1, history(s).size());
  }

  @Test
  void undoStripsOnlyTheUsersTextFromAMessageSharedWithResults() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho started; sleep 1000\n```"), turn("next", "ok"))), Approver.NOBODY, Map.of());
    s.ref.tell(new Session.UserMessage("sleep"));
    s.awaitType("output", TURN);
    s.ref.tell(Session.Interrupt.INSTANCE);
    s.awaitTurn(TURN);
    s.turn("next", TURN);
    Session.Changed undone = edit(s, Session.Undo::new);
    List<ChatMessage> left = undone.messages();
    assertEquals(3, left.size(), left.toString());
    assertTrue(left.get(2).content().startsWith("Block 1 (bash) was interrupted"), left.get(2).content());
    // the user's paragraph is gone; the result's own words stay (an interrupt that had to kill the shell says a new
    // process "will start for the next block")
    assertFalse(left.get(2).content().endsWith("\n\nnext"), left.get(2).content());
    assertFalse(left.get(2).content().contains("\n\nnext\n"), left.get(2).content());
  }

  @Test
  void restoreReplacesTheConversationAndTellsTheModelWhatWasLost() throws Exception {
    var s = harness.start(cassette(cassetteJson(turn("^go on$", "Going on."))), Approver.NOBODY, Map.of());
    List<ChatMessage> saved = List.of(ChatMessage.system("an old system prompt"), ChatMessage.user("earlier"),
        ChatMessage.assistant("```python\nx = 1\n```"),
        ChatMessage.user("Block 1 (python) finished with exit code 0.\nIt printed no output."),
        ChatMessage.assistant("Done."));
    Session.Changed restored = edit(s, replyTo -> new Session.Restore(saved, "resume", "20260101-000000-abcdef",
        "the REPL state was not kept", replyTo));
    assertTrue(restored.done());
    assertEquals(saved.subList(1, 5), restored.messages());
    List<ChatMessage> history = history(s);
    assertTrue(history.get(0).content().endsWith("# About this conversation\nthe REPL state was not kept\n"));
    assertFalse(history.get(0).content().contains("an old system prompt"));
    EventPayload.Conversation event = s.payloads(EventPayload.Conversation.class).get(0);
    assertEquals("resume", event.reason());
    assertEquals("20260101-000000-abcdef", event.source());
    assertEquals(4, event.messages().size());
    assertEquals("done", s.turn("go on", TURN).status().wire());
    edit(s, Session.Undo::new);
    Session.Changed second = edit(s, Session.Undo::new);
    assertEquals("removed your last message: earlier", second.message(), "restored user messages can be undone");
    assertEquals(List.of(), second.messages());
  }

  @Test
  void editsAreRefusedWhileATurnRuns() throws Exception {
    var s = harness.start(cassette(cassetteJson(turn(null, "```bash\nsleep 1000\n```"))), Approver.NOBODY,
        Map.of());
    s.ref.tell(new Session.UserMessage("sleep"));
    s.awaitType("exec_started", TURN);
    Session.Changed refused = edit(s, Session.Reset::new);
    assertFalse(refused.done());
    assertTrue(refused.message().contains("a turn is still running"), refused.message());
    s.ref.tell(Session.Interrupt.INSTANCE);
    assertEquals("interrupted", s.awaitTurn(TURN).status().wire());
    assertTrue(s.payloads(EventPayload.Conversation.class).isEmpty());
  }

  @Test
  void setApprovalModeSwitchesBetweenAskingAndAutoRun() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho one\n```"), turn("declined", "OK."),
        turn(null, "```bash\necho two\n```"), turn("exit code 0", "Ran."))),
        SessionHarness.NO, Map.of("interpreter4j.approval.mode", "ask"));
    s.turn("first", TURN);
    assertEquals("denied", s.payloads(EventPayload.Approval.class).get(0).decision().wire());
    s.ref.tell(new Session.SetApprovalMode(Settings.ApprovalMode.AUTO));
    s.turn("second", TURN);
    EventPayload.Approval second = s.payloads(EventPayload.Approval.class).get(1);
    assertEquals("approved", second.decision().wire());
    assertEquals("auto", second.by().wire());
  }

  // ---- RunCode with a result: code without the model, through the approval gate, answered exactly once ----

  private static final Map<String, Object> ASK = Map.of("interpreter4j.approval.mode", "ask");

  @Test
  void interruptedWhileAwaitingApprovalItAnswersOnceAndTheNextOneRuns() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Approver firstNeverAnswers = (session, block) -> asked.incrementAndGet() == 1 ? new CompletableFuture<>()
        : CompletableFuture.completedFuture(Approver.Answer.yes());
    var s = harness.start(cassette(cassetteJson(turn(null, "unused"))), firstNeverAnswers, ASK);
    TestProbe<Session.Executed> probe = testKit.createTestProbe();

    s.ref.tell(new Session.RunCode("python", "print('first')", null, probe.getRef()));
    s.awaitType("approval_requested", TURN);
    s.ref.tell(Session.Interrupt.INSTANCE);
    Session.Executed first = probe.expectMessageClass(Session.Executed.class, TURN);
    assertEquals(1, first.block());
    assertNull(first.result());
    assertTrue(first.reason().contains("interrupted"), first.reason());

    s.ref.tell(new Session.RunCode("python", "print('second')", null, probe.getRef()));
    Session.Executed second = probe.expectMessageClass(Session.Executed.class, TURN);
    assertEquals(2, second.block());
    assertEquals(ApprovalDecision.APPROVED, second.decision().decision());
    assertEquals(0, second.result().exitCode());
    assertEquals("second\n", second.result().modelOutput());
    assertTrue(s.types().contains("turn_finished") && !s.types().contains("user_message"), s.types().toString());
  }

  @Test
  void whileAnExecutionRunsAMessageAndAnotherExecutionAreRefused() throws Exception {
    CompletableFuture<Approver.Answer> answer = new CompletableFuture<>();
    var s = harness.start(cassette(cassetteJson(turn(null, "unused"))), (session, block) -> answer, ASK);
    TestProbe<Session.Executed> probe = testKit.createTestProbe();
    TestProbe<Session.TurnStart> starts = testKit.createTestProbe();

    s.ref.tell(new Session.RunCode("bash", "echo one", null, probe.getRef()));
    s.awaitType("approval_requested", TURN);
    s.ref.tell(new Session.UserMessage("hello", starts.getRef()));
    assertEquals(Session.TurnStart.Outcome.BUSY, starts.expectMessageClass(Session.TurnStart.class, TURN).outcome());
    s.ref.tell(new Session.RunCode("bash", "echo two", null, probe.getRef()));
    Session.Executed refused = probe.expectMessageClass(Session.Executed.class, TURN);
    assertEquals(0, refused.block());
    assertTrue(refused.reason().contains("still running"), refused.reason());

    answer.complete(Approver.Answer.no("not now"));
    Session.Executed denied = probe.expectMessageClass(Session.Executed.class, TURN);
    assertEquals(1, denied.block());
    assertEquals(ApprovalDecision.DENIED, denied.decision().decision());
    assertEquals("not now", denied.reason());
  }

  /** A model that would answer, were it called: the assertions show it is not. */
  private static final String NO_MODEL = "{\"turns\": [{\"reply\": \"never asked\"}]}";

  @Test
  void aClientsBlocksRunInTheSessionsInterpreterWhichKeepsItsStateAndTheModelIsNotCalled() throws Exception {
    var s = harness.start(SessionHarness.cassette(NO_MODEL), Approver.NOBODY,
        Map.of("interpreter4j.approval.mode", "auto"));
    TestProbe<Session.TurnStart> started = testKit.createTestProbe();
    s.ref.tell(new Session.RunCode("python", "x = 41", started.ref()));
    assertTrue(started.receiveMessage(TURN).started());
    assertEquals("done", s.awaitTurn(TURN).status().wire());
    s.ref.tell(new Session.RunCode("python", "print(x + 1)\nraise SystemExit(3)", started.ref()));
    assertEquals("done", s.awaitTurn(TURN).status().wire());
    List<EventPayload.ExecFinished> runs = s.payloads(EventPayload.ExecFinished.class);
    assertEquals(3, runs.get(1).exit_code());
    assertTrue(s.payloads(EventPayload.Output.class).stream().anyMatch(o -> o.text().contains("42")));
    assertEquals(List.of(1, 2), s.payloads(EventPayload.CodeBlockEvent.class).stream()
        .map(EventPayload.CodeBlockEvent::block).toList());
    assertTrue(s.payloads(EventPayload.AssistantMessage.class).isEmpty(), "no model call");
  }

  @Test
  void aClientsHighRiskBlockIsRefusedWithTheReasonAndNeverRuns() throws Exception {
    var s = harness.start(SessionHarness.cassette(NO_MODEL), Approver.NOBODY,
        Map.of("interpreter4j.approval.mode", "auto"));
    s.ref.tell(new Session.RunCode("bash", "rm -rf ~", null));
    EventPayload.TurnFinished t = s.awaitTurn(TURN);
    assertEquals("blocked", t.status().wire());
    EventPayload.Approval a = s.payloads(EventPayload.Approval.class).get(0);
    assertEquals("denied", a.decision().wire());
    assertTrue(t.reason().contains(a.reason()), t.reason());
    assertTrue(s.payloads(EventPayload.ExecStarted.class).isEmpty());
  }
}
