package io.interpreter4j.runtime.repl;

import static io.interpreter4j.runtime.repl.ReplWorkerTest.collect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.repl.ReplWorkerTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each driver does beyond the shared guarantees (those are in {@link LanguageConformanceTest}): how values are
 * shown, how errors read, what persists. Each class needs its interpreter ({@link InstalledLanguages}).
 */
class LanguageWorkersTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path sessionDir;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  ActorRef<ReplWorker.Command> worker(String language) {
    LanguageRegistry registry = LanguageRegistry.of(com.typesafe.config.ConfigFactory.load());
    InstalledLanguages.assume(registry, language);
    return testKit.spawn(registry.worker(ReplConfig.defaults(language, sessionDir, sessionDir)));
  }

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code) {
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, LONG, probe.getRef()));
    return collect(probe, block, new ArrayList<>());
  }

  @Nested
  class Javascript {

    @Test
    void declarationsCanBeRepeatedAndPersistWithAndWithoutTopLevelAwait() {
      var worker = worker("javascript");
      assertEquals(0, run(worker, 1, "const fs = require('fs')\nlet n = 40\nclass Box { get() { return 1 } }")
          .exitCode());
      Run again = run(worker, 2, "const fs = require('fs')\nclass Box { get() { return 2 } }\nn + new Box().get()");
      assertEquals(0, again.exitCode(), again.toString());
      assertEquals("42\n", again.stdout());

      Run awaited = run(worker, 3, String.join("\n",
          "const { a, b: [c] } = await Promise.resolve({ a: 1, b: [2] })",
          "function twice(x) { return 2 * x }",
          "const later = await new Promise((resolve) => setTimeout(() => resolve('done'), 20))",
          "later"));
      assertEquals(0, awaited.exitCode(), awaited.toString());
      assertEquals("'done'\n", awaited.stdout());
      assertEquals("1 2 8\n", run(worker, 4, "console.log(a, c, twice(4))").stdout());
    }

    @Test
    void staticImportsWorkAndATrailingValueIsInspected() {
      var worker = worker("javascript");
      Run run = run(worker, 1, "import { join } from 'node:path'\nimport os from 'os'\n"
          + "({ path: join('a', 'b'), cpus: typeof os.cpus })");
      assertEquals(0, run.exitCode(), run.toString());
      assertEquals("{ path: 'a/b', cpus: 'function' }\n", run.stdout());
      // a handle started for its side effect is not dumped
      Run timer = run(worker, 2, "setTimeout(() => console.log('fired'), 10)");
      assertEquals("fired\n", timer.stdout());
    }

    @Test
    void theBlockWaitsForWhatItStartedAsNodeWouldBeforeExiting() {
      var worker = worker("javascript");
      Run run = run(worker, 1, String.join("\n",
          "const http = require('http')",
          "const server = http.createServer((req, res) => res.end('pong')).listen(0, () => {",
          "  http.get('http://127.0.0.1:' + server.address().port, (res) => {",
          "    res.on('data', (d) => console.log(String(d)))",
          "    res.on('end', () => server.close())",
          "  })",
          "})"));
      assertEquals(0, run.exitCode(), run.toString());
      assertEquals("pong\n", run.stdout());
    }

    @Test
    void errorsGiveOneWithTheirStackAndNoDriverFrames() {
      var worker = worker("javascript");
      Run thrown = run(worker, 1, "function deep() {\n  throw new TypeError('bad input')\n}\ndeep()");
      assertEquals(1, thrown.exitCode());
      assertTrue(thrown.stderr().contains("TypeError: bad input"), thrown.stderr());
      assertTrue(thrown.stderr().contains("block-1.js:2"), thrown.stderr());
      assertFalse(thrown.stderr().contains("[eval]"), thrown.stderr());
      assertFalse(thrown.stderr().contains("node:vm"), thrown.stderr());

      Run rejected = run(worker, 2, "Promise.reject(new Error('nobody caught me'))\n'sync part done'");
      assertEquals(1, rejected.exitCode(), rejected.toString());
      assertTrue(rejected.stderr().contains("nobody caught me"), rejected.stderr());

      Run syntax = run(worker, 3, "let x = ;");
      assertEquals(1, syntax.exitCode());
      assertTrue(syntax.stderr().contains("SyntaxError"), syntax.stderr());

      Run exit = run(worker, 4, "globalThis.kept = 'yes'\nprocess.exit(3)");
      assertEquals(3, exit.exitCode());
      assertNull(exit.result().notice());
      assertEquals("yes\n", run(worker, 5, "console.log(kept)").stdout());
      assertEquals(2, run(worker, 6, "process.exitCode = 2").exitCode());
      assertEquals(0, run(worker, 7, "1").exitCode());
    }
  }

  @Nested
  class Ruby {

    @Test
    void localsMethodsAndClassesPersistAndTheLastValueIsShown() {
      var worker = worker("ruby");
      assertEquals(0, run(worker, 1, "x = 40\ndef add(a, b) = a + b\nclass Pair; def sum = 2; end").exitCode());
      assertEquals("42\n", run(worker, 2, "add(x, Pair.new.sum)").stdout());
      assertEquals("printed\n", run(worker, 3, "puts 'printed'").stdout()); // puts's nil is not shown
      assertEquals("", run(worker, 4, "y = 5").stdout()); // nor an assignment
      assertEquals("[1, 2]\n", run(worker, 5, "[1, 2]").stdout());
    }

    @Test
    void anExceptionGivesOneWithABacktraceIntoTheBlock() {
      var worker = worker("ruby");
      Run run = run(worker, 1, "def inner\n  raise ArgumentError, 'no good'\nend\ninner");
      assertEquals(1, run.exitCode());
      assertTrue(run.stderr().contains("no good (ArgumentError)"), run.stderr());
      assertTrue(run.stderr().contains("block-1.rb:2"), run.stderr());
      assertFalse(run.stderr().contains("-e:"), run.stderr());
      Run syntax = run(worker, 2, "def (");
      assertEquals(1, syntax.exitCode());
      assertTrue(syntax.stderr().contains("SyntaxError"), syntax.stderr());
    }
  }

  @Nested
  class R {

    @Test
    void visibleValuesPrintAndFunctionsPersist() {
      var worker = worker("r");
      assertEquals(0, run(worker, 1, "square <- function(v) v * v\nx <- 6").exitCode());
      Run run = run(worker, 2, "square(x) + 6\ninvisible(7)");
      assertEquals("[1] 42\n", run.stdout());
    }

    @Test
    void errorsReadAsInRAndWarningsGoToStderr() {
      var worker = worker("r");
      Run error = run(worker, 1, "f <- function() stop('went wrong')\ncat('before\\n')\nf()\ncat('never\\n')");
      assertEquals(1, error.exitCode());
      assertEquals("before\n", error.stdout());
      assertTrue(error.stderr().contains("Error in f() : went wrong"), error.stderr());

      Run warning = run(worker, 2, "as.integer('x')");
      assertEquals(0, warning.exitCode());
      assertEquals("[1] NA\n", warning.stdout());
      assertTrue(warning.stderr().contains("Warning: NAs introduced by coercion"), warning.stderr());

      Run parse = run(worker, 3, "x x");
      assertEquals(1, parse.exitCode());
      assertTrue(parse.stderr().contains("unexpected symbol"), parse.stderr());
    }

    @Test
    void quitEndsRWithItsStatusAndTheNextBlockHasANewOne() {
      var worker = worker("r");
      Run quit = run(worker, 1, "kept <- 1\nquit(status = 4)");
      assertEquals(4, quit.exitCode());
      assertTrue(quit.notice().contains("exited with code 4"), quit.notice());
      assertEquals("[1] FALSE\n", run(worker, 2, "exists('kept')").stdout());
    }

    @Test
    void anInterruptAtAnyMomentOfABlockEndsTheBlockNeverR() throws InterruptedException {
      var worker = worker("r");
      String pid = run(worker, 1, "kept <- 41\ncat(Sys.getpid())").stdout();
      // each interrupt lands somewhere between the command's arrival and the end marker: before the code (while the
      // plot device opens), in it, or as the block ends. The block ends 0 or 130; R and its state stay.
      for (int block = 2; block < 42; block++) {
        TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
        worker.tell(new ReplWorker.Execute(block, "invisible(kept)", LONG, probe.getRef()));
        worker.tell(ReplWorker.Interrupt.INSTANCE);
        Run run = collect(probe, block, new ArrayList<>());
        assertTrue(run.exitCode() == 0 || run.exitCode() == 130, "block " + block + ": " + run);
        String notice = run.notice() == null ? "" : run.notice();
        assertFalse(notice.contains("state was lost") || notice.contains("new process"), "block " + block + ": " + run);
        // the worker sends SIGINT through a kill process: give a signal that comes after its block ended time to land
        // here, not on the next block (which would be right to report it: the test could not tell)
        Thread.sleep(100);
      }
      // a signal that came later than the pause still ends the next block with 130, rightly: then ask again
      Run after = run(worker, 42, "cat(Sys.getpid(), kept + 1)");
      for (int block = 43; after.exitCode() == 130 && block < 46; block++) {
        after = run(worker, block, "cat(Sys.getpid(), kept + 1)");
      }
      assertEquals(pid + " 42", after.stdout(), after.toString());
    }
  }

  @Nested
  class Java {

    @Test
    void variablesMethodsClassesAndImportsPersist() {
      var worker = worker("java");
      assertEquals(0, run(worker, 1, String.join("\n",
          "import java.util.stream.*;",
          "int base = 40;",
          "int plus(int a, int b) { return a + b; }",
          "record Point(int x, int y) {}")).exitCode());
      Run run = run(worker, 2, "var p = new Point(1, 1);\nIntStream.of(plus(base, p.x()), p.y()).sum()");
      assertEquals(0, run.exitCode(), run.toString());
      assertEquals("42\n", run.stdout());
    }

    @Test
    void compileErrorsAndExceptionsPointAtTheBlocksLines() {
      var worker = worker("java");
      Run compile = run(worker, 1, "int ok = 1;\nString s = 42;");
      assertEquals(1, compile.exitCode());
      assertTrue(compile.stderr().contains("block-1.jsh:2: error: incompatible types"), compile.stderr());

      Run thrown = run(worker, 2, "void check(int v) {\n  if (v > 0) throw new IllegalStateException(\"too big\");\n}"
          + "\ncheck(5);");
      assertEquals(1, thrown.exitCode());
      assertTrue(thrown.stderr().contains("java.lang.IllegalStateException: too big"), thrown.stderr());
      assertTrue(thrown.stderr().contains("check(block-2.jsh:2)"), thrown.stderr());
    }
  }

  @Nested
  class Html {

    @Test
    void aPageIsSavedNotRunAndReadBackAsText() throws Exception {
      var worker = worker("html");
      String page = "<html><head><title>Report</title><script>document.addEventListener('DOMContentLoaded', () =>"
          + " document.body.insertAdjacentHTML('beforeend', '<p>added by script</p>'))</script></head>"
          + "<body><h1>Sales &amp; costs</h1><p>All good.</p></body></html>";
      Run run = run(worker, 1, page);
      assertEquals(0, run.exitCode(), run.toString());
      Path saved = sessionDir.resolve("html").resolve("block-1.html").toAbsolutePath();
      assertEquals(page, Files.readString(saved));
      assertTrue(run.stdout().contains("Saved the page to " + saved), run.stdout());
      // where a headless browser renders the page, the model reads its text, the script's additions included
      RequiredTool.assume(PerBlockDialect.browser() != null, "a headless Chromium or Chrome to render html blocks",
          "apt-get install chromium");
      assertTrue(run.stdout().contains("Title: Report"), run.stdout());
      assertTrue(run.stdout().contains("Sales & costs"), run.stdout());
      assertTrue(run.stdout().contains("added by script"), run.stdout());
    }
  }
}
