package io.interpreter4j.bench;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Subprocess helpers for the harness: argv as a value, output drained, always a timeout. */
public final class Tools {

  private static volatile String python;
  private static final List<Path> LATER = new java.util.concurrent.CopyOnWriteArrayList<>();

  private Tools() {}

  /** The real interpreter behind {@code python3} (not a pyenv shim), resolved once: what i4j runs by default. */
  public static String python() {
    String known = python;
    if (known == null) {
      String path = output(List.of("python3", "-c", "import sys; print(sys.executable)")).strip();
      known = path.isEmpty() ? "python3" : path;
      python = known;
    }
    return known;
  }

  /** Runs argv with stdin from /dev/null; returns stdout (stderr discarded); "" on failure or after 60 s. */
  public static String output(List<String> argv) {
    try {
      Process p = new ProcessBuilder(argv).redirectInput(new File("/dev/null"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      CompletableFuture<byte[]> out = drain(p.getInputStream());
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        return "";
      }
      return new String(out.join(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** Reads a stream to its end on another thread. */
  public static CompletableFuture<byte[]> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        return in.readAllBytes();
      } catch (IOException e) {
        return new byte[0];
      }
    }, Tools::daemon);
  }

  private static void daemon(Runnable r) {
    Thread t = new Thread(r, "bench-drain");
    t.setDaemon(true);
    t.start();
  }

  /** Copies a classpath resource of the harness to a file in {@code dir}. */
  public static Path resource(String name, Path dir) {
    try (InputStream in = Tools.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      Path file = dir.resolve(name);
      Files.write(file, in.readAllBytes());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Deletes a folder tree at the end of the run ({@link #deleteLater()}), not now: deleting thousands of files
   * keeps the disk busy for a while (ext4 with discard), which would slow the file creation the next section
   * measures. Kept with {@code -Dbench.keep=true} (named on stderr).
   */
  public static void deleteTree(Path root) {
    if (root == null) {
      return;
    }
    if (Boolean.getBoolean("bench.keep")) {
      System.err.println("bench: kept " + root);
      return;
    }
    LATER.add(root);
  }

  /** Deletes the folders handed to {@link #deleteTree} during the run, best effort. */
  public static void deleteLater() {
    for (Path root : LATER) {
      if (!Files.exists(root)) {
        continue;
      }
      try (var walk = Files.walk(root)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException | UncheckedIOException e) {
        // a temp folder left behind is harmless
      }
    }
    LATER.clear();
  }

}
