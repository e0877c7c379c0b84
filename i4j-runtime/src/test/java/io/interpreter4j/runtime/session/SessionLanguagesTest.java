package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.repl.InstalledLanguages;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions and the languages found at start: blocks in any installed language run, languages added in the
 * configuration the actor system was started with run under their aliases, and a language that is not installed is
 * explained to the model with the list of those that are.
 */
class SessionLanguagesTest {
  private static final Duration TURN = Duration.ofSeconds(60);
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private SessionHarness harness;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create(ConfigFactory.parseString("""
        interpreter4j.languages {
          perl { command = ["perl", "{file}"], aliases = ["pl"], extension = ".pl" }
          ghost { command = ["i4j-no-such-interpreter", "{file}"] }
        }
        """).withFallback(ConfigFactory.load()));
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() throws Exception {
    harness = new SessionHarness(testKit, tmp.resolve("data"), Files.createDirectories(tmp.resolve("work")));
  }

  @Test
  void javascriptBlocksRunInOneNodeProcess() throws Exception {
    InstalledLanguages.assume(LanguageRegistry.of(testKit.system().settings().config()), "javascript");
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```js\nconst answer = 41\n```"),
        turn("Block 1 \\(javascript\\) finished with exit code 0", "```javascript\nanswer + 1\n```"),
        turn("Block 2 \\(javascript\\) finished with exit code 0\\.\\nOutput:\\n```output\\n42\\n", "It is 42."))),
        Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("compute", TURN).status().wire(), s.types());
  }

  @Test
  void aConfiguredLanguageRunsUnderItsAlias() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```pl\nprint 6 * 7, \"\\n\";\n```"),
        turn("exit code 0\\.\\nOutput:\\n```output\\n42\\n", "Perl says 42."))), Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("compute", TURN).status().wire(), s.types());
    assertTrue(Files.exists(harness.dataDir.resolve("sessions").resolve(s.id).resolve("code").resolve("block-1.pl")));
  }

  @Test
  void aLanguageThatIsNotInstalledIsExplainedWithTheOnesThatAre() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```ghost\nboo\n```"),
        turn("language 'ghost' is not available here\\. Available languages: python \\d.*, bash \\d.*perl",
            "I'll use python."))),
        Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("hi", TURN).status().wire(), s.types());
    assertTrue(s.payloads(EventPayload.ExecStarted.class).isEmpty());
  }

  @Test
  void htmlIsSavedNotRun() throws Exception {
    var s = harness.start(cassette(cassetteJson(
        turn(null, "```html\n<h1>Hi</h1>\n```"),
        turn("Block 1 \\(html\\) finished with exit code 0\\.\\n(.|\\n)*Saved the page to .*html/block-1\\.html",
            "Saved."))),
        Approver.NOBODY, Map.of());
    assertEquals("done", s.turn("make a page", TURN).status().wire(), s.types());
  }
}
