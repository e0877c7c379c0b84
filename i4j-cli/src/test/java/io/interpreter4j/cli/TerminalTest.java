package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.RequiredTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive CLI in a real terminal: tmux runs a shell, the test starts {@code i4j} from the test classpath
 * with a replay cassette, types as a person would and waits for the screen to show what it should.
 */
class TerminalTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** The chat's prompt, waiting for input at the end of the screen. */
  private static final String PROMPT = "^❯\\z";
  private static final String SHELL_PROMPT = "^\\$\\z";

  @TempDir Path tmp;
  private Path work;
  private Tmux tmux;
  private final Map<String, String> env = new HashMap<>();

  /** Checked once; each test then skips (or fails) with the reason, which a class-level skip would not show. */
  private static final boolean TMUX = Tmux.installed();

  @BeforeEach
  void setUp() throws Exception {
    RequiredTool.assume(TMUX, "tmux (the terminal tests drive the CLI through it)", "apt-get install tmux");
    work = Files.createDirectories(tmp.resolve("work"));
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Path launcher = bin.resolve("i4j");
    Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
        + "' -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName() + " \"$@\"\n");
    assertTrue(launcher.toFile().setExecutable(true));
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("I4J_HOME", tmp.resolve("data").toString());
    env.put("XDG_CONFIG_HOME", tmp.resolve("config").toString());
    env.put("PS1", "$ ");
    env.put("TERM", "xterm-256color");
  }

  private void startTerminal() throws Exception {
    Map<String, String> all = new HashMap<>(env);
    tmux = Tmux.start(work, all);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (tmux != null) {
      tmux.close();
    }
  }

  private Path cassette(String name, String... turns) throws Exception {
    StringBuilder sb = new StringBuilder("{\"turns\": [");
    for (int i = 0; i < turns.length; i++) {
      sb.append(i == 0 ? "" : ",").append(turns[i]);
    }
    Path file = tmp.resolve(name);
    Files.writeString(file, sb.append("]}").toString());
    return file;
  }

  private static String turn(String expect, String reply) {
    var node = EventCodec.mapper().createObjectNode();
    if (expect != null) {
      node.put("expect", expect);
    }
    node.put("reply", reply);
    node.put("chunk_chars", 4);
    return node.toString();
  }

  /** Starts the chat and waits for its prompt. */
  private void chat(Path cassette, String... flags) throws Exception {
    startTerminal();
    tmux.line("i4j -m replay:" + cassette + " " + String.join(" ", flags));
    tmux.await(PROMPT, WAIT);
  }

  private void exitChat() throws Exception {
    tmux.await(PROMPT, WAIT);
    tmux.key("C-d");
    tmux.await(SHELL_PROMPT, WAIT);
  }

  @Test
  void aBlockIsShownFramedAndRunsAfterYes() throws Exception {
    Path c = cassette("c.json",
        turn("say hello", "Checking the shell.\n\n```bash\necho hello-from-bash\nls | wc -l\n```\n"),
        turn("Block 1 \\(bash\\) finished with exit code 0\\.", "It printed **hello** and a count."));
    chat(c);
    tmux.line("say hello");
    String screen = tmux.await("Run block 1 \\(bash\\)\\? \\[y\\]es / \\[n\\]o / \\[e\\]dit:\\z", WAIT);
    assertTrue(screen.contains("╭─ bash · block 1 ─"), screen);
    assertTrue(screen.contains("│ echo hello-from-bash\n│ ls | wc -l\n╰───"), screen);
    tmux.line("y");
    screen = tmux.await("It printed hello and a count\\.", WAIT);
    assertTrue(screen.contains("\n  hello-from-bash\n  0\n✓ exit 0 · "), screen);
    exitChat();
  }

  @Test
  void aBlockApprovedInTheDashboardClosesTheTerminalsQuestion() throws Exception {
    Path c = cassette("c.json",
        turn("approve it in the browser", "```bash\necho approved-in-the-dashboard\n```"),
        turn("exit code 0", "Approved from the dashboard."));
    String token = "terminal-test-token-0123456789";
    env.put("I4J_TOKEN", token);
    chat(c, "--dashboard", "--port", "0");
    java.util.regex.Matcher url = java.util.regex.Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:\\d+)/")
        .matcher(tmux.screen());
    assertTrue(url.find(), tmux.screen());
    tmux.line("approve it in the browser");
    tmux.await("Run block 1 \\(bash\\)\\? \\[y\\]es / \\[n\\]o / \\[e\\]dit:\\z", WAIT);

    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    JsonNode sessions = EventCodec.mapper().readTree(http.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(url.group(1) + "/api/sessions")).header("Authorization", "Bearer " + token).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).body());
    String id = sessions.path("sessions").path(0).path("id").asText();
    var approved = http.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(url.group(1) + "/api/sessions/" + id + "/blocks/1/approval"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"decision\": \"approve\"}")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, approved.statusCode(), approved.body());

    String screen = tmux.await("Approved from the dashboard\\.", WAIT);
    assertTrue(screen.contains("[e]dit: \n(block 1 was approved in the dashboard; the prompt is closed)\n"),
        screen);
    assertTrue(screen.contains("\n  approved-in-the-dashboard\n✓ exit 0 · "), screen);
    exitChat();
  }

  @Test
  void aRiskyBlockIsAskedAboutEvenUnderAutoRunWithItsFlags() throws Exception {
    Path c = cassette("c.json",
        turn(null, "Cleaning up.\n\n```bash\nsudo rm -rf /var/tmp/i4j-test-nothing-here\n```"),
        turn("declined to run block 1", "Understood, nothing deleted."));
    chat(c, "-y");
    tmux.line("clean up");
    String screen = tmux.await("Run block 1 \\(bash\\)\\? \\[y\\]es / \\[n\\]o / \\[e\\]dit:\\z", WAIT);
    assertTrue(screen.contains("│ sudo rm -rf /var/tmp/i4j-test-nothing-here\n╰"), screen);
    assertTrue(screen.matches("(?s).*\n⚠ risk: high\n  • \\S+ \\(high\\) .*"), screen);
    tmux.line("n");
    tmux.await("^Understood, nothing deleted\\.$", WAIT);
    exitChat();
  }

  @Test
  void noDeclinesTheBlockAndTellsTheModel() throws Exception {
    Path c = cassette("c.json",
        turn(null, "```bash\ntouch declined-file\n```"),
        turn("The user declined to run block 1", "OK, I left it alone."));
    chat(c);
    tmux.line("make a file");
    tmux.await("Run block 1 \\(bash\\)\\?", WAIT);
    tmux.line("n");
    String screen = tmux.await("OK, I left it alone\\.", WAIT);
    assertTrue(screen.contains("⊘ denied by user"), screen);
    assertFalse(Files.exists(work.resolve("declined-file")));
    exitChat();
  }

  @Test
  void editOpensTheEditorAndRunsTheEditedCode() throws Exception {
    Path editor = tmp.resolve("editor.sh");
    Files.writeString(editor, "#!/bin/sh\nsed -i 's/original/edited-by-editor/' \"$1\"\n");
    assertTrue(editor.toFile().setExecutable(true));
    env.put("EDITOR", editor.toString());
    Path c = cassette("c.json",
        turn(null, "```bash\necho original\n```"),
        turn("edited-by-editor", "The edited code ran."));
    chat(c);
    tmux.line("echo something");
    tmux.await("Run block 1 \\(bash\\)\\?", WAIT);
    tmux.line("e");
    String screen = tmux.await("The edited code ran\\.", WAIT);
    assertTrue(screen.contains("╭─ edited"), screen);
    assertTrue(screen.contains("│ echo edited-by-editor"), screen);
    assertTrue(screen.contains("\n  edited-by-editor\n✓ exit 0"), screen);
    exitChat();
  }

  @Test
  void ctrlCStopsARunningBlockAndTheSessionGoesOn() throws Exception {
    Path c = cassette("c.json",
        turn(null, "```bash\necho started; sleep 1000\n```"),
        turn("\\n\\nare you there\\?$", "```bash\necho still-here\n```"),
        turn("exit code 0", "Yes, still here."));
    chat(c, "-y");
    tmux.line("sleep a while");
    tmux.await("^  started$", WAIT);
    tmux.key("C-c");
    String screen = tmux.await("turn ended: interrupted", WAIT);
    assertTrue(screen.contains("✗ exit 130"), screen);
    tmux.await(PROMPT, WAIT);
    tmux.line("are you there?");
    screen = tmux.await("Yes, still here\\.", WAIT);
    assertTrue(screen.contains("\n  still-here\n✓ exit 0"), screen);
    exitChat();
  }

  @Test
  void undoResetSaveAndLoad() throws Exception {
    Path c = cassette("c.json",
        turn("^first$", "One."), turn("^second$", "Two."), turn("^third$", "Three."), turn("^fourth$", "Four."));
    chat(c);
    tmux.line("first");
    tmux.await("^One\\.$", WAIT);
    tmux.line("second");
    tmux.await("^Two\\.$", WAIT);
    tmux.line("%undo");
    tmux.await("✓ removed your last message: \"second\" and everything after it", WAIT);
    tmux.line("%save a.json");
    tmux.await("✓ saved 2 messages to .*a\\.json", WAIT);
    assertEquals(List.of("user:first", "assistant:One."), saved(work.resolve("a.json")));

    tmux.line("%reset");
    tmux.await("✓ new conversation; the REPL processes were restarted", WAIT);
    tmux.line("third");
    tmux.await("^Three\\.$", WAIT);
    tmux.line("%save b.json");
    tmux.await("✓ saved 2 messages to .*b\\.json", WAIT);
    assertEquals(List.of("user:third", "assistant:Three."), saved(work.resolve("b.json")));

    tmux.line("%load a.json");
    tmux.await("✓ loaded 2 messages from .*a\\.json", WAIT);
    tmux.line("fourth");
    tmux.await("^Four\\.$", WAIT);
    tmux.line("%save c.json");
    tmux.await("saved 4 messages to .*c\\.json", WAIT);
    assertEquals(List.of("user:first", "assistant:One.", "user:fourth", "assistant:Four."),
        saved(work.resolve("c.json")));
    exitChat();
  }

  private static List<String> saved(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    for (JsonNode m : EventCodec.mapper().readTree(Files.readString(file)).get("messages")) {
      out.add(m.get("role").asText() + ":" + m.get("content").asText());
    }
    return out;
  }

  @Test
  void otherCommandsAnswer() throws Exception {
    Path c = cassette("c.json", turn("line one\\nline two", "Got two lines."));
    chat(c);
    tmux.line("%help");
    tmux.await("%jupyter \\[FILE\\]\\s+export the conversation as a Jupyter notebook", WAIT);
    tmux.type("%verb");
    tmux.key("Tab");
    tmux.await("^❯ %verbose\\z", WAIT);
    tmux.line(" on");
    tmux.await("✓ verbose is on", WAIT);
    tmux.line("%undoo");
    tmux.await("! unknown command %undoo; did you mean %undo\\? %help lists the commands", WAIT);
    tmux.line("%% echo from-the-shell; echo to-stderr >&2; exit 3");
    String screen = tmux.await("✗ exit 3", WAIT);
    assertTrue(screen.contains("\n  from-the-shell\n"), screen);
    assertTrue(screen.contains("\n  to-stderr\n"), screen);
    tmux.line("\"\"\"");
    tmux.line("line one");
    tmux.line("line two");
    tmux.line("\"\"\"");
    tmux.await("^Got two lines\\.$", WAIT);
    tmux.line("%tokens");
    tmux.await("^Context  [0-9,]+ tokens \\(system prompt [0-9,]+, 2 messages\\)", WAIT);
    tmux.await("^Cost     \\$0 \\(a local or replayed model\\)", WAIT);
    tmux.line("%info");
    tmux.await("^languages python [0-9.]+, bash", WAIT);
    tmux.line("%auto_run on");
    tmux.await("✓ auto-run is on", WAIT);
    tmux.line("%markdown");
    tmux.await("✓ exported 1 turn to .*conversation-.*\\.md", WAIT);
    tmux.line("%jupyter notes.ipynb");
    tmux.await("✓ exported 1 turn to .*notes\\.ipynb", WAIT);
    assertEquals(4, EventCodec.mapper().readTree(Files.readString(work.resolve("notes.ipynb"))).get("nbformat")
        .asInt());
    try (var files = Files.list(work)) {
      Path md = files.filter(f -> f.getFileName().toString().endsWith(".md")).findFirst().orElseThrow();
      assertTrue(Files.readString(md).contains("> **You:** line one\n> line two"), Files.readString(md));
    }
    exitChat();
  }

  @Test
  void resumeContinuesTheLastConversation() throws Exception {
    Path first = cassette("first.json",
        turn("^remember 42$", "```python\nremembered = 42\n```"), turn("exit code 0", "Noted: 42."));
    chat(first, "-y");
    tmux.line("remember 42");
    tmux.await("^Noted: 42\\.$", WAIT);
    exitChat();

    assertTrue(Files.readString(tmp.resolve("data/history")).contains("remember 42"), "history is kept on disk");
    tmux.line("i4j sessions");
    tmux.await("^ID\\s+STARTED\\s+STATUS\\s+TURNS\\s+TITLE\\n\\S+\\s+\\S+ \\S+\\s+done\\s+1\\s+remember 42$", WAIT);

    Path second = cassette("second.json", turn("^what was it\\?$", "It was 42."));
    tmux.line("i4j resume -m replay:" + second);
    String screen = tmux.await("✓ resumed session \\S+ \\(4 messages\\); the REPL state of its blocks was not kept",
        WAIT);
    int resumedAt = screen.lastIndexOf("$ i4j resume");
    String recap = screen.substring(resumedAt);
    assertTrue(recap.contains("❯ remember 42"), recap);
    assertTrue(recap.contains("│ remembered = 42"), recap);
    assertTrue(recap.contains("Noted: 42."), recap);
    tmux.await(PROMPT, WAIT);
    tmux.key("Up");
    tmux.await("^❯ remember 42\\z", WAIT);
    tmux.key("C-u");
    tmux.await(PROMPT, WAIT);
    tmux.line("what was it?");
    tmux.await("^It was 42\\.$", WAIT);
    tmux.line("%save resumed.json");
    tmux.await("saved 6 messages", WAIT);
    List<String> messages = saved(work.resolve("resumed.json"));
    assertEquals("user:remember 42", messages.get(0));
    assertTrue(messages.get(2).startsWith("user:Block 1 (python) finished with exit code 0."), messages.get(2));
    assertEquals("user:what was it?", messages.get(4));
    exitChat();

    tmux.line("i4j show --plain | head -3");
    tmux.await("^session started · model replay:|^> what was it\\?|resumed from session", WAIT);
  }

  @Test
  void aMessageTypedBeforeTheSessionHasStartedIsSentOnceItHas() throws Exception {
    // The session's start waits for its python's version (the system prompt's host facts; asked once by the language
    // probe, at most 3 s, and once by the host probe, at most 5 s). A python behind a gate holds it there while the
    // prompt is already up; it marks each call the gate let through, so a start that gave up waiting shows.
    Path gate = tmp.resolve("gate");
    Path through = tmp.resolve("through");
    Path python = tmp.resolve("bin").resolve("python-behind-a-gate");
    Files.writeString(python, "#!/bin/sh\nwhile [ ! -e '" + gate + "' ]; do sleep 0.05; done\ntouch '" + through
        + "'\nexec python3 \"$@\"\n");
    assertTrue(python.toFile().setExecutable(true));
    env.put("I4J_PYTHON", python.toString());
    Path c = cassette("c.json", turn("^typed before the session started$", "The message arrived whole."));
    chat(c);
    tmux.line("typed before the session started");
    tmux.await("^❯ typed before the session started$", WAIT);
    Files.writeString(gate, "");
    String screen = tmux.await("^The message arrived whole\\.$", WAIT);
    assertTrue(Files.exists(through), "the session started before the gate opened (its probes gave up waiting), so "
        + "the message was not typed before it had started:\n" + screen);
    exitChat();
  }

  @Test
  void aSessionThatFailsToStartAfterThePromptSaysWhyAndExits2() throws Exception {
    startTerminal();
    tmux.line("i4j -m replay:" + tmp.resolve("missing.json") + "; echo \"exit=$?\"");
    String screen = tmux.await("^exit=2$", WAIT);
    assertTrue(screen.contains("\ni4j: cassette not found: " + tmp.resolve("missing.json")
        + " (give -m replay:PATH to an existing JSON file)\n"), screen);
  }

  @Test
  void aKilledChatGivesTheTerminalBack() throws Exception {
    Path c = cassette("c.json", turn(null, "Hi."));
    chat(c);
    ProcessHandle i4j = ProcessHandle.of(tmux.shellPid()).orElseThrow().children().findFirst().orElseThrow();
    assertTrue(i4j.destroy(), "SIGTERM to the chat waiting at its prompt (the terminal in raw mode)");
    tmux.await(SHELL_PROMPT, WAIT);
    tmux.line("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo");
    tmux.await("^icanon echo $", WAIT);
  }

  @Test
  void aTaskCanBePipedToRun() throws Exception {
    Path c = cassette("c.json",
        turn("^TASK from a pipe$", "```bash\necho piped-ok\n```"), turn("exit code 0", "Done."));
    startTerminal();
    tmux.line("echo \"TASK from a pipe\" | i4j run -y -m replay:" + c + " -; echo \"exit=$?\"");
    String screen = tmux.await("^exit=0$", WAIT);
    assertTrue(screen.contains("── running block 1 (bash) ──\npiped-ok\n── exit 0"), screen);
  }

  @Test
  void noColorGivesPlainText() throws Exception {
    env.put("NO_COLOR", "1");
    Path c = cassette("c.json", turn(null, "Plain:\n\n```bash\necho plain-out\n```"), turn(null, "Done."));
    startTerminal();
    tmux.line("i4j -y -m replay:" + c);
    tmux.await("^>\\z", WAIT);
    tmux.line("go");
    String screen = tmux.await("^Done\\.$", WAIT);
    assertTrue(screen.contains("```bash\necho plain-out\n```\n  [approved by auto]\n── running block 1 (bash) ──\n"
        + "plain-out\n── exit 0"), screen);
    assertFalse(screen.contains("╭"), screen);
    tmux.await("^>\\z", WAIT);
    tmux.key("C-d");
    tmux.await(SHELL_PROMPT, WAIT);
  }
}
