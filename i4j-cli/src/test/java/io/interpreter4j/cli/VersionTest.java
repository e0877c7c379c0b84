package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code i4j --version}: answered before the command line is parsed, with the same line picocli prints. */
class VersionTest {

  @Test
  void theFastPathPrintsWhatPicocliWould() {
    String fast = captured(() -> Main.main(new String[] {"--version"}));
    String parsed = captured(() -> assertEquals(0, Main.run("--version")));
    assertTrue(fast.startsWith("interpreter4j "), fast);
    assertEquals(parsed, fast);
    assertEquals(fast, captured(() -> Main.main(new String[] {"-V"})));
  }

  @Test
  void namesTheJavaVersionAsRuntimeVersionDoes() {
    String v = Main.class.getPackage().getImplementationVersion();
    assertEquals("interpreter4j " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")",
        VersionProvider.version());
  }

  private static String captured(Runnable action) {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setOut(original);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
