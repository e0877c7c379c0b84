package io.interpreter4j.batch.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a results file while its batch may be appending to it: only whole lines (ended by a newline), from the
 * {@code from}-th on, at most {@code max} of them. Streams the file, so a large one is never held in memory.
 */
final class ResultLines {

  private ResultLines() {}

  static List<String> read(Path file, int from, int max) throws IOException {
    List<String> lines = new ArrayList<>();
    int index = 0;
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
      for (int b = in.read(); b >= 0 && lines.size() < max; b = in.read()) {
        if (b == '\n') {
          if (index >= from) {
            lines.add(line.toString(StandardCharsets.UTF_8));
          }
          index++;
          line.reset();
        } else if (index >= from) {
          line.write(b);
        }
      }
    } catch (NoSuchFileException e) {
      return List.of();
    }
    return lines;
  }

  /** How many whole lines the file has (0 when it does not exist). */
  static int count(Path file) throws IOException {
    int n = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024)) {
      for (int b = in.read(); b >= 0; b = in.read()) {
        if (b == '\n') {
          n++;
        }
      }
    } catch (NoSuchFileException e) {
      return 0;
    }
    return n;
  }
}
