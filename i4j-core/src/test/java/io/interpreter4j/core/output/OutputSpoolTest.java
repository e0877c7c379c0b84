package io.interpreter4j.core.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.safety.SecretRedactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputSpoolTest {

  @TempDir
  Path dir;

  @Test
  void smallOutputIsKeptWholeInMemoryAndInTheFile() throws IOException {
    Path file = dir.resolve("outputs/block-1.txt");
    try (OutputSpool spool = OutputSpool.open(file, 100)) {
      spool.append("out 1\n");
      spool.append("err 1\n");
      spool.append("");
      spool.append("tail without newline");
      spool.close();
      String all = "out 1\nerr 1\ntail without newline";
      assertEquals(all, spool.truncatedText());
      assertFalse(spool.truncated());
      assertEquals(all.length(), spool.totalChars());
      assertEquals(all, Files.readString(file));
      assertTrue(spool.file().isAbsolute());
      assertNull(spool.error());
    }
  }

  @Test
  void theFileHoldsTheOutputWithSecretsRedacted() throws IOException {
    Path file = dir.resolve("outputs/block-2.txt");
    String token = "sk-ant-" + "Zy9Xw8Vu7Ts6Rq5Po4Nm".repeat(2);
    try (OutputSpool spool = OutputSpool.open(file, 10_000, SecretRedactor.of(List.of("s3cr3t-db-password")))) {
      spool.append("DB_PASSWORD=s3cr3t-db");
      spool.append("-password\nANTHROPIC_API_KEY=" + token.substring(0, 12));
      spool.append(token.substring(12) + "\nok\n");
      spool.close();
      assertEquals("DB_PASSWORD=[REDACTED]\nANTHROPIC_API_KEY=[REDACTED]\nok\n", Files.readString(file));
    }
  }

  @Test
  void exactlyMaxOutputIsNotTruncated() throws IOException {
    try (OutputSpool spool = OutputSpool.open(dir.resolve("b.txt"), 10)) {
      spool.append("01234");
      spool.append("56789");
      assertFalse(spool.truncated());
      assertEquals("0123456789", spool.truncatedText());
    }
  }

  @Test
  void bigOutputKeepsHeadAndTailAcrossChunkBoundariesAndEverythingInTheFile() throws IOException {
    Path file = dir.resolve("big.txt");
    StringBuilder expected = new StringBuilder();
    try (OutputSpool spool = OutputSpool.open(file, 10)) {
      for (int i = 0; i < 1000; i++) {
        String chunk = i + ",";
        expected.append(chunk);
        spool.append(chunk);
      }
      spool.close();
      String all = expected.toString();
      assertTrue(spool.truncated());
      assertEquals(OutputTruncator.truncate(all, 10, file.toAbsolutePath().toString()), spool.truncatedText());
      assertTrue(spool.truncatedText().startsWith("0,1,2"));
      assertTrue(spool.truncatedText().endsWith(",999,"));
      assertEquals(all, Files.readString(file, StandardCharsets.UTF_8));
    }
  }

  @Test
  void oneHugeChunkOnlyCopiesItsEndsIntoMemory() throws IOException {
    Path file = dir.resolve("huge.txt");
    String huge = "H" + "x".repeat(3_000_000) + "T";
    try (OutputSpool spool = OutputSpool.open(file, 4000)) {
      spool.append(huge);
      spool.close();
      String text = spool.truncatedText();
      assertTrue(text.startsWith("Hxx"));
      assertTrue(text.endsWith("xxT"));
      assertEquals(4000 + OutputTruncator.marker(huge.length(), file.toString()).length(), text.length());
      assertEquals(huge.length(), Files.size(file));
    }
  }

  @Test
  void maxOutputZeroGivesOnlyTheMarker() throws IOException {
    try (OutputSpool spool = OutputSpool.open(dir.resolve("z.txt"), 0)) {
      spool.append("abc");
      assertEquals(OutputTruncator.marker(3, dir.resolve("z.txt").toAbsolutePath().toString()), spool.truncatedText());
    }
  }

  @Test
  void aFileCreatedInTheBackgroundGetsTheWholeOutputAtClose() throws IOException {
    java.util.concurrent.ExecutorService create = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      Path file = dir.resolve("bg/outputs/block-3.txt");
      OutputSpool spool = OutputSpool.open(file, 100, create);
      spool.append("out\n");
      spool.append("err\n");
      spool.close();
      assertEquals("out\nerr\n", Files.readString(file));
      assertNull(spool.error());

      OutputSpool big = OutputSpool.open(dir.resolve("bg/big.txt"), 10, create);
      String chunk = "y".repeat(50_000);
      big.append(chunk);
      big.append(chunk); // past the in-memory buffer: written through the file created in the background
      big.close();
      assertEquals(100_000, Files.size(dir.resolve("bg/big.txt")));

      Files.writeString(dir.resolve("not-a-folder"), "x");
      OutputSpool broken = OutputSpool.open(dir.resolve("not-a-folder/block-1.txt"), 100, create);
      broken.append("lost");
      broken.close();
      assertTrue(broken.error() != null, "the file could not be created: reported, the text kept in memory");
      assertEquals("lost", broken.truncatedText());
    } finally {
      create.shutdownNow();
    }
  }

  @Test
  void closingWithoutFileLeavesSmallOutputOutOfTheDisk() throws IOException {
    Path file = dir.resolve("fileless/outputs/block-4.txt");
    try (OutputSpool spool = OutputSpool.open(file, 100)) {
      spool.append("out\n");
      spool.append("err\n");
      assertTrue(spool.closeWithoutFile());
      assertTrue(spool.fileless());
      assertEquals("out\nerr\n", spool.truncatedText());
      assertNull(spool.error());
    }
    assertFalse(Files.exists(file), "no file was made");
    assertFalse(Files.exists(file.getParent()), "nor its folder");
  }

  @Test
  void closingWithoutFileStillWritesOutputThatWasCutOrSpilled() throws IOException {
    Path cut = dir.resolve("cut.txt");
    try (OutputSpool spool = OutputSpool.open(cut, 10)) {
      spool.append("0123456789abc");
      assertFalse(spool.closeWithoutFile(), "the model gets head and tail naming the file: it must exist");
      assertFalse(spool.fileless());
    }
    assertEquals("0123456789abc", Files.readString(cut));

    Path spilled = dir.resolve("spilled.txt");
    String chunk = "z".repeat(50_000);
    try (OutputSpool spool = OutputSpool.open(spilled, 1_000_000)) {
      spool.append(chunk);
      spool.append(chunk); // past the in-memory buffer: the file is open already
      assertFalse(spool.closeWithoutFile());
    }
    assertEquals(100_000, Files.size(spilled));
  }
}
