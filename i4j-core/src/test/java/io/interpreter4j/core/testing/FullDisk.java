package io.interpreter4j.core.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted for a test, which can be filled to the last byte: a really full filesystem. Mounting needs
 * root (CI runs as root); {@link #mount} says why it could not.
 */
public final class FullDisk implements AutoCloseable {

  private final Path mountPoint;

  private FullDisk(Path mountPoint) {
    this.mountPoint = mountPoint;
  }

  /**
   * Mounts a tmpfs of {@code size} (e.g. "1m") at {@code at}. Where that cannot be done (not root), the test is
   * skipped with the reason, or fails under {@code I4J_REQUIRE_ALL=true} ({@link RequiredTool}): CI runs as root.
   */
  public static FullDisk mount(Path at, String size) throws IOException, InterruptedException {
    Files.createDirectories(at);
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString())
        .redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes()).strip();
    boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    RequiredTool.assume(mounted, "a small tmpfs to fill (mount -t tmpfs: " + said + ")",
        "run the tests as root, as CI does");
    return new FullDisk(at);
  }

  public Path path() {
    return mountPoint;
  }

  /** Writes a filler file until the filesystem refuses with "No space left on device". */
  public void fill() throws IOException {
    byte[] chunk = new byte[4096];
    try (OutputStream out = Files.newOutputStream(mountPoint.resolve("filler"))) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    new ProcessBuilder("umount", "-l", mountPoint.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
  }
}
