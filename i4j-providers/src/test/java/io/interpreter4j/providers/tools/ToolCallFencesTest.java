package io.interpreter4j.providers.tools;

import static io.interpreter4j.providers.tools.ToolCallFences.FENCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.ModelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallFencesTest {

  /** Code with quotes, backslashes, a markdown fence of its own, tabs and non-ASCII text. */
  static final String CODE = "s = \"a\\\\b\"\nprint(s, 'é', \"\\t\")\nreadme = '''\n```\nnot the end\n```\n'''\n";
  static final String ARGUMENTS = "{\"language\": \"python\", \"code\": " + json(CODE) + "}";

  static String json(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c < 128 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
      }
    }
    return sb.append('"').toString();
  }

  private final List<ExecuteCall> completed = new ArrayList<>();

  private ToolCallFences fences() {
    return new ToolCallFences(completed::add, "call_");
  }

  /** The runnable blocks the session's scanner finds in {@code markdown}. */
  static List<CodeBlock> blocks(String markdown) {
    FenceScanner scanner = new FenceScanner("python", 1);
    List<Segment> segments = new ArrayList<>(scanner.feed(markdown));
    segments.addAll(scanner.finish());
    return segments.stream().filter(s -> s instanceof Segment.BlockClosed)
        .map(s -> ((Segment.BlockClosed) s).block()).toList();
  }

  @Test
  void argumentsSplitAtEveryPointBecomeOneFencedBlockWithTheExactCode() {
    String expected = "Let me look.\n" + FENCE + "python\n" + CODE + "\n" + FENCE + "\n";
    for (int i = 0; i <= ARGUMENTS.length(); i++) {
      for (int j = i; j <= ARGUMENTS.length(); j += 5) {
        completed.clear();
        ToolCallFences f = fences();
        StringBuilder out = new StringBuilder(f.text("Let me look."));
        out.append(f.call(0, "call_1", "execute", ""));
        out.append(f.call(0, null, null, ARGUMENTS.substring(0, i)));
        out.append(f.call(0, null, null, ARGUMENTS.substring(i, j)));
        out.append(f.call(0, null, null, ARGUMENTS.substring(j)));
        out.append(f.finish());

        assertEquals(expected, out.toString(), "split at " + i + ", " + j);
        assertEquals(List.of(new ExecuteCall("call_1", "execute", ARGUMENTS, "python", CODE)), completed);
        List<CodeBlock> blocks = blocks(out.toString());
        assertEquals(1, blocks.size());
        assertEquals("python", blocks.get(0).language());
        assertEquals(CODE, blocks.get(0).code());
        assertFalse(blocks.get(0).unterminated());
      }
    }
  }

  @Test
  void theFenceOpensAsSoonAsTheLanguageIsKnownAndCodeStreams() {
    ToolCallFences f = fences();
    assertEquals("", f.call(0, "call_1", "execute", "{\"language\": \"bas"));
    assertEquals(FENCE + "bash\nls", f.call(0, null, null, "h\", \"code\": \"ls"));
    assertEquals(" -l\n", f.call(0, null, null, " -l\\n"));
    assertEquals("pwd\n" + FENCE + "\n", f.call(0, null, null, "pwd\"}"));
    assertEquals("", f.finish());
  }

  @Test
  void codeBeforeTheLanguageWaitsForIt() {
    ToolCallFences f = fences();
    assertEquals("", f.call(0, "call_1", "execute", "{\"code\": \"print(1)\", "));
    assertEquals(FENCE + "python\nprint(1)", f.call(0, null, null, "\"language\": \"python\""));
    assertEquals("\n" + FENCE + "\n", f.call(0, null, null, "}"));
  }

  @Test
  void withoutALanguageTheBlockHasTheDefaultOneOrTheFunctionsName() {
    ToolCallFences f = fences();
    String out = f.call(0, "a", "execute", "{\"code\": \"print(2)\"}") + f.call(1, "b", "bash", "{\"code\": \"ls\"}");
    assertEquals(FENCE + "\nprint(2)\n" + FENCE + "\n" + FENCE + "bash\nls\n" + FENCE + "\n", out);
    assertEquals("python", blocks(out).get(0).language());
    assertEquals("bash", blocks(out).get(1).language());
  }

  @Test
  void aLanguageIsReducedToATag() {
    ToolCallFences f = fences();
    assertEquals(FENCE + "python\nx\n" + FENCE + "\n",
        f.call(0, "a", "execute", "{\"language\": \" python  3`\\n\", \"code\": \"x\"}"));
  }

  @Test
  void aSecondCallAndLaterTextWaitForTheFirstToFinish() {
    ToolCallFences f = fences();
    StringBuilder out = new StringBuilder();
    out.append(f.call(0, "a", "execute", "{\"language\": \"python\", \"code\": \"1"));
    out.append(f.call(1, "b", "execute", "{\"language\": \"bash\", \"code\": \"2\"}"));
    out.append(f.text("after"));
    assertEquals(FENCE + "python\n1", out.toString());
    out.append(f.call(0, null, null, "\"}"));
    assertEquals(FENCE + "python\n1\n" + FENCE + "\n" + FENCE + "bash\n2\n" + FENCE + "\nafter", out.toString());
    assertEquals(List.of("a", "b"), completed.stream().map(ExecuteCall::id).toList());
  }

  @Test
  void aCallCutShortStaysOpenAndIsNotRecorded() {
    ToolCallFences f = fences();
    String out = f.call(0, "a", "execute", "{\"language\": \"python\", \"code\": \"print(1)\\nprin") + f.finish();
    List<CodeBlock> blocks = blocks(out);
    assertTrue(blocks.get(0).unterminated());
    assertTrue(completed.isEmpty());
  }

  @Test
  void aCallCutShortIsClosedBeforeWhatFollows() {
    ToolCallFences f = fences();
    String out = f.call(0, "a", "execute", "{\"language\": \"python\", \"code\": \"x = 1") + f.end(0) + f.text("Then.");
    assertEquals(FENCE + "python\nx = 1\n" + FENCE + "\nThen.", out);
    assertTrue(completed.isEmpty());
  }

  @Test
  void argumentsThatAreNotJsonAreTheCode() {
    ToolCallFences f = fences();
    String out = f.call(0, "", "python", "print(3)") + f.end(0);
    assertEquals(FENCE + "python\nprint(3)\n" + FENCE + "\n", out);
    assertTrue(completed.get(0).id().startsWith("call_i4j_"), completed.get(0).id());
    assertEquals("{\"language\":\"python\",\"code\":\"print(3)\"}", completed.get(0).arguments());
  }

  @Test
  void aCallWithoutArgumentsShowsNothing() {
    ToolCallFences f = fences();
    assertEquals("", f.call(0, "a", "execute", "") + f.finish());
    assertTrue(completed.isEmpty());
  }

  @Test
  void hugeArgumentsFail() {
    ToolCallFences f = fences();
    f.call(0, "a", "execute", "{\"code\": \"");
    assertThrows(ModelException.class, () -> f.call(0, null, null, "x".repeat(ToolCallFences.MAX_ARGUMENTS)));
  }
}
