package io.interpreter4j.runtime.computer.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PendingDownloadsTest {

  @Test
  void aSuggestedNameIsReducedToAFileName() {
    assertEquals("report.csv", PendingDownloads.fileName("report.csv"));
    assertEquals("passwd", PendingDownloads.fileName("../../etc/passwd"));
    assertEquals("evil.bat", PendingDownloads.fileName("C:\\Windows\\evil.bat"));
    assertEquals("download", PendingDownloads.fileName(".."));
    assertEquals("download", PendingDownloads.fileName(""));
    assertEquals("a_b", PendingDownloads.fileName("a\nb"));
  }

  @Test
  void anExistingFileIsNeverOverwritten(@TempDir Path folder) throws IOException {
    assertEquals(folder.resolve("report.csv"), PendingDownloads.freeTarget(folder, "report.csv"));
    Files.writeString(folder.resolve("report.csv"), "old");
    assertEquals(folder.resolve("report (1).csv"), PendingDownloads.freeTarget(folder, "report.csv"));
    Files.writeString(folder.resolve("report (1).csv"), "old");
    assertEquals(folder.resolve("report (2).csv"), PendingDownloads.freeTarget(folder, "report.csv"));
    assertEquals(folder.resolve("README"), PendingDownloads.freeTarget(folder, "README"));
  }
}
