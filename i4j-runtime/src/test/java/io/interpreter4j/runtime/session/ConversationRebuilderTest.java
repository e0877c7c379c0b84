package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.runtime.approval.Approver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The conversation rebuilt from a real session's journal is the conversation that session had. */
class ConversationRebuilderTest {
  private static final Duration TURN = Duration.ofSeconds(30);
  private static final int MAX_OUTPUT = 300;
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
    harness = new SessionHarness(testKit, tmp.resolve("data"), Files.createDirectories(tmp.resolve("work")));
  }

  private List<ChatMessage> history(SessionHarness.Running s) {
    TestProbe<Session.History> probe = testKit.createTestProbe();
    s.ref.tell(new Session.GetHistory(probe.ref()));
    List<ChatMessage> all = probe.expectMessageClass(Session.History.class, Duration.ofSeconds(5)).messages();
    return all.subList(1, all.size());
  }

  private List<ChatMessage> rebuilt(SessionHarness.Running s) throws Exception {
    Path journal = harness.dataDir.resolve("sessions").resolve(s.id).resolve("events.jsonl");
    List<Event> events = Files.readAllLines(journal).stream().map(EventCodec::fromJson).toList();
    return ConversationRebuilder.rebuild(events, MAX_OUTPUT).messages();
  }

  /** The history without the "Note: ..." lines of block results (the REPL worker's notices). */
  private static List<ChatMessage> withoutNotices(List<ChatMessage> history) {
    return history.stream()
        .map(m -> new ChatMessage(m.role(), m.content().replaceAll("(?m)^Note: .*\n", ""), m.images()))
        .toList();
  }

  @Test
  void blocksResultsAndLongOutputs() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "Let me look.\n\n```python\nprint('x' * 1000)\nprint('the end')\n```"),
        turn(null, "```bash\necho out; echo err >&2; exit 3\n```"),
        turn(null, "```cobol\nDISPLAY 'HI'.\n```"),
        turn(null, "Done: **three** things."),
        turn(null, "Second turn."))),
        Approver.NOBODY, Map.of("interpreter4j.execution.max-output", MAX_OUTPUT,
            "interpreter4j.healing.max-consecutive-failures", 5));
    s.turn("do three things", TURN);
    s.turn("and now?", TURN);
    List<ChatMessage> history = history(s);
    assertTrue(history.get(2).content().contains("[output truncated: "), history.get(2).content());
    assertEquals(withoutNotices(history), rebuilt(s));
  }

  @Test
  void aBlockWithoutAnOutputFileIsRebuiltFromItsOutputEvents() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\necho fileless-out; echo fileless-err >&2\n```"),
        turn("fileless-out", "Both lines came back."))),
        Approver.NOBODY, Map.of());
    s.turn("print two lines", TURN);
    Path journal = harness.dataDir.resolve("sessions").resolve(s.id).resolve("events.jsonl");
    EventPayload.ExecFinished finished = Files.readAllLines(journal).stream().map(EventCodec::fromJson)
        .map(Event::payload).filter(EventPayload.ExecFinished.class::isInstance)
        .map(EventPayload.ExecFinished.class::cast).findFirst().orElseThrow();
    assertNull(finished.output_file(), "the whole output is in the output events");
    assertFalse(Files.exists(harness.dataDir.resolve("sessions").resolve(s.id).resolve("outputs")));
    List<ChatMessage> history = history(s);
    assertTrue(history.get(2).content().contains("fileless-out") && history.get(2).content().contains("fileless-err"),
        history.get(2).content());
    assertEquals(withoutNotices(history), rebuilt(s));
  }

  @Test
  void theImagesABlockShowedAreLinesOfItsResult() throws Exception {
    // the python3 on the PATH writes a 3x2 PNG with the standard library and shows it twice
    String block = "import struct, zlib\n"
        + "def chunk(kind, data):\n"
        + "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))\n"
        + "rows = b''.join(b'\\x00' + b'\\xff\\x00\\x00' * 3 for _ in range(2))\n"
        + "open('red.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 3, 2, 8, 2,"
        + " 0, 0, 0)) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))\n"
        + "print('drawn')\n"
        + "display('red.png')\n"
        + "display(open('red.png', 'rb').read())\n";
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```python\n" + block + "```"),
        turn("\\[image 3x2 PNG: ", "A red picture."))),
        Approver.NOBODY, Map.of());
    s.turn("draw", TURN);
    List<ChatMessage> history = history(s);
    Path outputs = harness.dataDir.resolve("sessions").resolve(s.id).resolve("outputs").toAbsolutePath();
    String result = history.get(2).content();
    assertTrue(result.endsWith("```output\ndrawn\n```\n[image 3x2 PNG: " + outputs.resolve("block-1-1.png")
        + "]\n[image 3x2 PNG: " + outputs.resolve("block-1-2.png") + "]"), result);
    assertEquals("A red picture.", history.get(3).content(), "the replay model found the line it expects");
    assertEquals(List.of(new ImageRef(outputs.resolve("block-1-1.png").toString(), "image/png", 3, 2),
        new ImageRef(outputs.resolve("block-1-2.png").toString(), "image/png", 3, 2)), history.get(2).images());
    assertEquals(withoutNotices(history), rebuilt(s), "the rebuilt conversation carries the images too");

    Files.delete(outputs.resolve("block-1-1.png"));
    ChatMessage resumed = rebuilt(s).get(2);
    assertEquals(result, resumed.content(), "a file gone since: its line stays");
    assertEquals(List.of(history.get(2).images().get(1)), resumed.images(), "and only the files still there go along");
  }

  @Test
  void declinesAndInterruptions() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```bash\ntouch nope\n```"), turn(null, "OK, not then."),
        turn(null, "```bash\necho started; sleep 1000\n```"),
        turn(null, "Fine."))),
        SessionHarness.NO, Map.of("interpreter4j.approval.mode", "ask"));
    s.turn("touch it", TURN);
    s.ref.tell(new Session.SetApprovalMode(io.interpreter4j.core.config.Settings.ApprovalMode.AUTO));
    s.ref.tell(new Session.UserMessage("sleep"));
    s.awaitType("output", TURN);
    s.ref.tell(Session.Interrupt.INSTANCE);
    s.awaitTurn(TURN);
    s.turn("never mind", TURN);
    assertEquals(withoutNotices(history(s)), rebuilt(s), "all but the worker's notices, which are not journaled");
  }

  @Test
  void undoAndResetAreFollowed() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "One."), turn(null, "Two."), turn(null, "Three."), turn(null, "Four."))),
        Approver.NOBODY, Map.of());
    s.turn("one", TURN);
    s.turn("two", TURN);
    TestProbe<Session.Changed> probe = testKit.createTestProbe();
    s.ref.tell(new Session.Undo(probe.ref()));
    probe.expectMessageClass(Session.Changed.class);
    s.turn("three", TURN);
    assertEquals(withoutNotices(history(s)), rebuilt(s));
    s.ref.tell(new Session.Reset(probe.ref()));
    probe.expectMessageClass(Session.Changed.class);
    s.turn("four", TURN);
    assertEquals(List.of(ChatMessage.user("four"), ChatMessage.assistant("Four.")), rebuilt(s));
    assertEquals(withoutNotices(history(s)), rebuilt(s));
  }
}
