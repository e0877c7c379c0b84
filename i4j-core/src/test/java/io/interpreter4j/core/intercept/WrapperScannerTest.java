package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.core.intercept.WrapperScanner.Result;
import org.junit.jupiter.api.Test;

class WrapperScannerTest {

  /** The first result other than MORE and after how many characters, or MORE and the text's length. */
  private record Outcome(Result result, int at) {}

  private static Outcome scan(WrapperScanner scanner, String text) {
    for (int i = 0; i < text.length(); i++) {
      Result r = scanner.feed(text.charAt(i));
      if (r != Result.MORE) {
        return new Outcome(r, i + 1);
      }
    }
    return new Outcome(Result.MORE, text.length());
  }

  private static void completesAtEnd(WrapperScanner scanner, String text) {
    assertEquals(new Outcome(Result.COMPLETE, text.length()), scan(scanner, text), text);
  }

  @Test
  void objectEndsWhenItsOutermostBraceCloses() {
    completesAtEnd(WrapperScanner.object(), "\"language\": \"python\", \"code\": \"print(1)\"}");
    completesAtEnd(WrapperScanner.object(), " \n\"name\": \"x\", \"arguments\": {\"code\": \"[1, {2}]\"}}");
  }

  @Test
  void bracesAndEscapedQuotesInsideStringsDoNotCount() {
    completesAtEnd(WrapperScanner.object(), "\"code\": \"if x: d = {'a': [1]}}}\"}");
    completesAtEnd(WrapperScanner.object(), "\"code\": \"say \\\"}\\\" and \\\\\"}");
    // the escaped quote in the first key is part of the key, which is then no wrapper's
    assertEquals(new Outcome(Result.REJECTED, 8), scan(WrapperScanner.object(), "\"co\\\"de\": 1}"));
  }

  @Test
  void objectIsRejectedEarlyUnlessItStartsWithAWrapperKey() {
    assertEquals(new Outcome(Result.REJECTED, 6), scan(WrapperScanner.object(), "\"user\": 1, \"code\": \"x\"}"));
    assertEquals(new Outcome(Result.REJECTED, 2), scan(WrapperScanner.object(), " x: 1}"));
    assertEquals(Result.REJECTED, scan(WrapperScanner.object(), "\"" + "k".repeat(50) + "\": 1}").result());
    assertEquals(new Outcome(Result.REJECTED, 1), scan(WrapperScanner.object(), "}"));
  }

  @Test
  void truncatedInputAsksForMore() {
    assertEquals(Result.MORE, scan(WrapperScanner.object(), "\"code\": \"print(1)\"").result());
    assertEquals(Result.MORE, scan(WrapperScanner.object(), "\"code\": \"unclosed }").result());
    assertEquals(Result.MORE, scan(WrapperScanner.call(), "code='''x)").result());
    assertEquals(Result.MORE, scan(WrapperScanner.wrapped("</tool_call>"), "\n{\"name\": \"x\"}\n</tool_").result());
  }

  @Test
  void callSkipsPythonStringsOfEveryQuoting() {
    completesAtEnd(WrapperScanner.call(), "language=\"python\", code=\"print(\\\")\\\")\")");
    completesAtEnd(WrapperScanner.call(), "code='print(\")\")')");
    completesAtEnd(WrapperScanner.call(), "code='''echo \"a\"\necho 'b' )\n''')");
    completesAtEnd(WrapperScanner.call(), "code=\"\"\"x = ')'\"\"\")");
    // "" is an empty string, not the start of a triple-quoted one
    completesAtEnd(WrapperScanner.call(), "code=\"\", lang='')");
    completesAtEnd(WrapperScanner.call(), "f(g(1), [2, (3)]))");
  }

  @Test
  void objectModeKnowsOnlyDoubleQuotes() {
    // single quotes are not JSON strings: the brace inside them closes the object
    assertEquals(new Outcome(Result.COMPLETE, 11), scan(WrapperScanner.object(), "\"code\": 'a}'}"));
  }

  @Test
  void namedCallWantsANameThenArguments() {
    completesAtEnd(WrapperScanner.namedCall(), "execute({\"code\": \"x)\"})");
    completesAtEnd(WrapperScanner.namedCall(), "run_code_2(\"ls\")");
    assertEquals(new Outcome(Result.REJECTED, 3), scan(WrapperScanner.namedCall(), "py is a file"));
  }

  @Test
  void toolTagEndsWithItsClosingTagAndNothingElse() {
    completesAtEnd(WrapperScanner.wrapped("</tool_call>"),
        "\n{\"name\": \"execute\", \"arguments\": {\"code\": \"</tool_call>\"}}\n</tool_call>");
    assertEquals(Result.REJECTED, scan(WrapperScanner.wrapped("</tool_call>"), "\n{\"name\": \"x\"}\nmore").result());
    assertEquals(new Outcome(Result.REJECTED, 2), scan(WrapperScanner.wrapped("</tool_call>"), " [1]"));
  }

  @Test
  void jsonFenceEndsWithTheLineOfItsClosingFence() {
    completesAtEnd(WrapperScanner.jsonFence(), " \n{\"code\": \"```\"}\n```\n");
    completesAtEnd(WrapperScanner.jsonFence(), "\n{\"code\": \"x\"}\n````\n");
    assertEquals(new Outcome(Result.REJECTED, 2), scan(WrapperScanner.jsonFence(), " title\n{}"));
    assertEquals(Result.REJECTED, scan(WrapperScanner.jsonFence(), "\n{\"name\": \"Bob\"}\nDone.").result());
    assertEquals(Result.MORE, scan(WrapperScanner.jsonFence(), "\n{\"code\": \"x\"}\n```").result());
  }
}
