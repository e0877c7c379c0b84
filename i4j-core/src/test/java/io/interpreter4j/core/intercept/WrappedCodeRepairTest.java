package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WrappedCodeRepairTest {

  /** A weak model's reply and what the interceptor should read instead. */
  private record Case(String reply, String repaired) {}

  private static final List<Case> REPAIRED = List.of(
      new Case("{\"language\": \"python\", \"code\": \"print(1)\"}", "```python\nprint(1)\n```\n"),
      new Case("Sure, here it is:\n  {\"code\": \"ls -la\\n\", \"language\": \"bash\"}\n\n",
          "Sure, here it is:\n```bash\nls -la\n```\n"),
      new Case("functions.execute({\"language\": \"python\", \"code\": \"import os\\nprint(os.getcwd())\"})",
          "```python\nimport os\nprint(os.getcwd())\n```\n"),
      new Case("execute(language=\"python\", code=\"print(\\\"hi (there\\\")\\nx = 1\")\n",
          "```python\nprint(\"hi (there\")\nx = 1\n```\n"),
      new Case("Running it.\nexecute(language='bash', code='''echo \"a\"\necho 'b' )\n''')",
          "Running it.\n```bash\necho \"a\"\necho 'b' )\n```\n"),
      new Case("functions.execute(\"python\", r\"print('\\d')\")", "```python\nprint('\\d')\n```\n"),
      new Case("functions.python({\"code\": \"print(6)\"})", "```python\nprint(6)\n```\n"),
      new Case("{\"name\": \"execute\", \"arguments\": {\"language\": \"python\", \"code\": \"print(2)\"}}",
          "```python\nprint(2)\n```\n"),
      new Case("{\"name\": \"execute\", \"parameters\": \"{\\\"language\\\": \\\"python\\\", \\\"code\\\": "
          + "\\\"print(3)\\\"}\"}", "```python\nprint(3)\n```\n"),
      new Case("{\"type\": \"function\", \"function\": {\"name\": \"execute\", \"arguments\": "
          + "{\"language\": \"bash\", \"code\": \"pwd\"}}}", "```bash\npwd\n```\n"),
      new Case("<tool_call>\n{\"name\": \"execute\", \"arguments\": {\"language\": \"python\", \"code\": \"print(4)\"}}"
          + "\n</tool_call>", "```python\nprint(4)\n```\n"),
      new Case("<tool_call>\n{\"name\": \"execute\", \"arguments\": {\"language\": \"python\", \"code\": \"print(4)\"}}",
          "```python\nprint(4)\n```\n"),
      new Case("I'll run:\n```json\n{\"language\": \"python\", \"code\": \"print(5)\"}\n```\n",
          "I'll run:\n```python\nprint(5)\n```\n"),
      new Case("{\"language\": \"python\", \"code\": \"s = '''\\n```\\n'''\"}", "````python\ns = '''\n```\n'''\n````\n"),
      new Case("{\"language\": \"javascript\", \"code\": \"console.log(1)\"}", "```javascript\nconsole.log(1)\n```\n"));

  private static final List<String> UNCHANGED = List.of(
      "Hello {world}\nfor x in y: print(x)\n",
      "{\"name\": \"Bob\", \"age\": 3}",
      "{\"user\": 1, \"code\": \"x\"}",
      "{\"language\": \"python\", \"code\": \"x\"}\nThat is the format the tool takes.",
      "```python\n{\"language\": \"python\", \"code\": \"x\"}\n```\n",
      "~~~\nfunctions.execute({\"code\": \"x\"})\n~~~\n",
      "functions.py is a file\nexecute(the plan)\nexecution starts now\n",
      "```json\n[1, 2]\n```\n",
      "```json\n{\"name\": \"Bob\"}\n```\nDone.",
      "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": 1}}\n</tool_call>",
      "{ broken",
      "",
      "   \n\t\n");

  private static String repair(String... pieces) {
    WrappedCodeRepair repair = new WrappedCodeRepair();
    StringBuilder out = new StringBuilder();
    for (String piece : pieces) {
      out.append(repair.feed(piece));
    }
    return out.append(repair.finish()).toString();
  }

  private static void assertAtEverySplit(String reply, String expected) {
    for (int i = 0; i <= reply.length(); i++) {
      for (int j = i; j <= reply.length(); j += 3) {
        assertEquals(expected, repair(reply.substring(0, i), reply.substring(i, j), reply.substring(j)),
            "split at " + i + ", " + j + " of " + reply);
      }
    }
  }

  @Test
  void wrappedCodeBecomesAFencedBlockWhereverTheReplyIsSplit() {
    for (Case c : REPAIRED) {
      assertAtEverySplit(c.reply(), c.repaired());
    }
  }

  @Test
  void everythingElsePassesUnchangedWhereverTheReplyIsSplit() {
    for (String reply : UNCHANGED) {
      assertAtEverySplit(reply, reply);
    }
  }

  @Test
  void repairedBlocksAreRunnableForTheScanner() {
    FenceScanner scanner = new FenceScanner("python", 1);
    List<Segment> segments = new java.util.ArrayList<>(scanner.feed(repair(REPAIRED.get(4).reply())));
    segments.addAll(scanner.finish());
    CodeBlock block = segments.stream().filter(s -> s instanceof Segment.BlockClosed)
        .map(s -> ((Segment.BlockClosed) s).block()).findFirst().orElseThrow();
    assertEquals("bash", block.language());
    assertEquals("echo \"a\"\necho 'b' )", block.code());
  }

  @Test
  void proseIsNotHeldBack() {
    String prose = "Here is my plan.\nFirst I list the files, then I count them.\n\n- one\n- two\n";
    WrappedCodeRepair repair = new WrappedCodeRepair();
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < prose.length(); i++) {
      out.append(repair.feed(prose.substring(i, i + 1)));
      assertEquals(prose.substring(0, i + 1), out.toString());
    }
  }

  @Test
  void onlyWhatCouldStillBeAWrapperIsHeld() {
    WrappedCodeRepair repair = new WrappedCodeRepair();
    assertEquals("Text\n", repair.feed("Text\nfunc"));
    assertEquals("functional code\n", repair.feed("tional code\n"));
    assertEquals("", repair.feed("{\"language\": \"python\", \"code\": \"print(1)\"}"));
    assertEquals("```python\nprint(1)\n```\n", repair.finish());
  }

  @Test
  void aCandidateLargerThanTheLimitPassesAsItIs() {
    String huge = "{\"code\": \"" + "x".repeat(WrappedCodeRepair.MAX_HELD) + "\"}";
    WrappedCodeRepair repair = new WrappedCodeRepair();
    String out = repair.feed(huge) + repair.finish();
    assertEquals(huge, out);
    assertTrue(out.startsWith("{"));
  }
}
