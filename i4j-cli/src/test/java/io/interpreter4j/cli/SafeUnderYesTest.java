package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.OutsideTmp;
import io.interpreter4j.core.testing.RequiredTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containment by default, as a user meets it: {@code i4j run -y}, {@code i4j batch -y} and {@code i4j doctor} as
 * real child processes with real bwrap, a home folder of their own (HOME) holding a private key, and folders outside
 * /tmp, where the sandbox can see them (read-only), as it would a user's.
 */
class SafeUnderYesTest {

  @TempDir(factory = OutsideTmp.class) Path root;
  private Path work;
  private Path home;
  private Path outside;

  @BeforeEach
  void setUp() throws Exception {
    RequiredTool.assume(bwrapWorks(), "a bwrap that can create a sandbox", "apt-get install bubblewrap");
    work = Files.createDirectories(root.resolve("work"));
    home = Files.createDirectories(root.resolve("home"));
    outside = Files.createDirectories(root.resolve("outside"));
    Files.writeString(Files.createDirectories(home.resolve(".ssh")).resolve("id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
    Files.writeString(home.resolve("notes.txt"), "visible notes\n");
  }

  static boolean bwrapWorks() throws Exception {
    try {
      Process p = new ProcessBuilder("bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true")
          .redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** A bash block that tries a write outside, a write inside, the key, and a file of the home; a line for each. */
  private Path probeCassette(String name) throws IOException {
    String block = "echo escaped > " + outside.resolve(name) + " && echo \\\"outside written\\\"\\n"
        + "echo kept > " + name + ".txt && echo \\\"inside written\\\"\\n"
        + "cat \\\"$HOME/.ssh/id_ed25519\\\" 2>/dev/null || echo \\\"key hidden\\\"\\n"
        + "cat \\\"$HOME/notes.txt\\\"\\ntrue";
    Path file = root.resolve(name + ".json");
    Files.writeString(file, "{\"turns\": [{\"reply\": \"```bash\\n" + block + "\\n```\"}, {\"reply\": \"Done.\"}]}");
    return file;
  }

  private CliProcess.Result run(String stdin, Map<String, String> env, String... args) throws Exception {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putIfAbsent("HOME", home.toString());
    return CliProcess.finish(CliProcess.start(work, root.resolve("data"), root.resolve("config"), all, args), stdin,
        Duration.ofSeconds(120));
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }

  /**
   * A PATH whose first bwrap fails the way bwrap fails inside a container that forbids user namespaces: the
   * platform's sandbox is installed but cannot run here.
   */
  private String pathWithRefusingBwrap() throws IOException {
    Path bin = Files.createDirectories(root.resolve("refusing-bin"));
    Path bwrap = Files.writeString(bin.resolve("bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new "
        + "namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n");
    bwrap.toFile().setExecutable(true);
    return bin + ":" + System.getenv("PATH");
  }

  @Test
  void underYesWithoutSandboxFlagsCodeWritesOnlyInTheWorkdirAndCannotReadTheKey() throws Exception {
    CliProcess.Result r = run(null, Map.of(), "run", "-y", "--json", "-m", "replay:" + probeCassette("auto"), "probe");
    assertEquals(0, r.exit(), r.stderr());
    String out = r.output();
    assertFalse(out.contains("outside written"), out);
    assertTrue(out.contains("Read-only file system"), out);
    assertFalse(Files.exists(outside.resolve("auto")));
    assertTrue(out.contains("inside written"), out);
    assertEquals("kept\n", Files.readString(work.resolve("auto.txt")));
    assertTrue(out.contains("key hidden") && !out.contains("PRIVATE-KEY-MATERIAL"), out);
    assertTrue(out.contains("visible notes"), "the rest of the home is readable: " + out);
    assertFalse(r.stderr().contains("unconfined"), r.stderr());
  }

  @Test
  void sandboxNoneSaysOnceThatAutoRunCodeRunsUnconfinedAndItDoes() throws Exception {
    CliProcess.Result r = run(null, Map.of(), "run", "-y", "--sandbox=none", "--json", "-m",
        "replay:" + probeCassette("none"), "probe");
    assertEquals(0, r.exit(), r.stderr());
    assertEquals(1, count(r.stderr(), "runs unconfined"), r.stderr());
    assertTrue(r.stderr().contains("i4j: the sandbox is off (--sandbox=none or interpreter4j.sandbox.kind = none)"),
        r.stderr());
    assertTrue(r.output().contains("outside written"), r.output());
    assertEquals("escaped\n", Files.readString(outside.resolve("none")));
    assertTrue(r.output().contains("PRIVATE-KEY-MATERIAL"), r.output());
  }

  @Test
  void whereBwrapIsRefusedItSaysSoOnceAndGoesOnWithTheDangerAnalysisAlone() throws Exception {
    CliProcess.Result r = run(null, Map.of("PATH", pathWithRefusingBwrap()), "run", "-y", "--json", "-m",
        "replay:" + probeCassette("refused"), "probe");
    assertEquals(0, r.exit(), r.stderr());
    assertEquals(1, count(r.stderr(), "runs unconfined"), r.stderr());
    assertTrue(r.stderr().contains("i4j: no sandbox can run here (bwrap cannot create a sandbox here (bwrap: No "
        + "permissions to create new namespace"), r.stderr());
    assertTrue(r.output().contains("outside written"), r.output());

    // a sandbox asked for by name is an error instead
    CliProcess.Result named = run(null, Map.of("PATH", pathWithRefusingBwrap()), "run", "-y", "--sandbox=bwrap", "-m",
        "replay:" + probeCassette("named"), "probe");
    assertEquals(2, named.exit(), named.stderr());
    assertTrue(named.stderr().contains("i4j: bwrap cannot create a sandbox here"), named.stderr());
    assertFalse(Files.exists(outside.resolve("named")));
  }

  @Test
  void codeAPersonApprovesRunsUnconfinedByDefault() throws Exception {
    CliProcess.Result r = run("y\n", Map.of(), "run", "-m", "replay:" + probeCassette("ask"), "probe");
    assertEquals(0, r.exit(), r.stdout() + r.stderr());
    assertTrue(r.stdout().contains("outside written"), r.stdout());
    assertEquals("escaped\n", Files.readString(outside.resolve("ask")));
    assertFalse(r.stderr().contains("unconfined"), "nothing auto-runs, nothing to say: " + r.stderr());
  }

  @Test
  void batchTasksUnderYesRunSandboxed() throws Exception {
    Path tasks = Files.writeString(root.resolve("tasks.jsonl"), "{\"id\": \"t1\", \"prompt\": \"probe\"}\n");
    CliProcess.Result r = run(null, Map.of(), "batch", tasks.toString(), "-y", "--parallel", "1", "--out",
        root.resolve("results.jsonl").toString(), "-m", "replay:" + probeCassette("batch"));
    assertEquals(0, r.exit(), r.stdout() + r.stderr());
    assertTrue(Files.exists(work.resolve("batch.txt")), "the task's block ran");
    assertFalse(Files.exists(outside.resolve("batch")), "in the sandbox");
    assertFalse(r.stderr().contains("unconfined"), r.stderr());

    CliProcess.Result none = run(null, Map.of(), "batch", tasks.toString(), "-y", "--sandbox=none", "--out",
        root.resolve("results-none.jsonl").toString(), "-m", "replay:" + probeCassette("batch-none"));
    assertEquals(0, none.exit(), none.stdout() + none.stderr());
    assertEquals(1, count(none.stderr(), "i4j batch: the sandbox is off"), none.stderr());
    assertTrue(Files.exists(outside.resolve("batch-none")));
  }

  @Test
  void badSandboxFlagsAreUsageErrors() throws Exception {
    CliProcess.Result kind = run(null, Map.of(), "run", "-y", "--sandbox=jail", "x");
    assertEquals(2, kind.exit());
    assertTrue(kind.stderr().contains("unknown sandbox 'jail': use auto-run, none, bwrap, docker, seatbelt or auto"),
        kind.stderr());
    CliProcess.Result network = run(null, Map.of(), "run", "-y", "--sandbox-network=maybe", "x");
    assertEquals(2, network.exit());
    assertTrue(network.stderr().contains("'maybe' is not on or off"), network.stderr());
  }

  @Test
  void doctorSaysWhatProtectsThisMachine() throws Exception {
    CliProcess.Result text = run(null, Map.of(), "doctor");
    assertEquals(0, text.exit(), text.stderr());
    assertTrue(text.stdout().contains("✓ sandbox            bwrap for code that runs without asking"), text.stdout());
    assertTrue(text.stdout().contains("the probe passed"), text.stdout());
    assertTrue(text.stdout().contains("- approved code      runs unconfined"), text.stdout());
    assertTrue(text.stdout().contains("present here: ~/.ssh"), text.stdout());
    assertTrue(text.stdout().contains("✓ danger analysis"), text.stdout());
    assertTrue(text.stdout().contains("✓ secret redaction"), text.stdout());
    assertTrue(text.stdout().contains("✓ isolated installs"), text.stdout());
    assertTrue(text.stdout().contains("To get the others:"), text.stdout());

    CliProcess.Result json = run(null, Map.of(), "doctor", "--json");
    assertEquals(0, json.exit(), json.stderr());
    JsonNode report = EventCodec.mapper().readTree(json.stdout());
    JsonNode sandbox = report.get("sandbox");
    assertEquals("auto-run", sandbox.get("kind").asText());
    assertEquals("passed", sandbox.get("probe").asText());
    assertEquals("bwrap", sandbox.get("auto_run").asText());
    assertEquals("none", sandbox.get("ask").asText());
    assertTrue(sandbox.get("network").asBoolean());
    assertTrue(sandbox.get("masked_paths").toString().contains("\"~/.aws\""), sandbox.toString());
    assertTrue(sandbox.get("masked_present").toString().contains("\"~/.ssh\""), sandbox.toString());
    assertEquals(9, report.get("protections").size());
  }

  @Test
  void doctorSaysHowToGetWhatIsMissing() throws Exception {
    CliProcess.Result off = run(null, Map.of(), "doctor", "--json", "--sandbox=none", "--sandbox-network=off");
    assertEquals(0, off.exit(), off.stderr());
    JsonNode report = EventCodec.mapper().readTree(off.stdout());
    assertEquals("none", report.get("sandbox").get("auto_run").asText());
    assertEquals("not run", report.get("sandbox").get("probe").asText());
    assertFalse(report.get("sandbox").get("network").asBoolean());
    assertTrue(report.get("advice").toString().contains("drop --sandbox=none"), report.toString());

    CliProcess.Result refused = run(null, Map.of("PATH", pathWithRefusingBwrap()), "doctor");
    assertEquals(0, refused.exit(), refused.stderr());
    assertTrue(refused.stdout().contains("- sandbox            bwrap cannot run here: bwrap cannot create a sandbox "
        + "here (bwrap: No permissions"), refused.stdout());
    assertTrue(refused.stdout().contains("  - get the bwrap sandbox working: bwrap cannot create a sandbox here"),
        refused.stdout());
  }
}
