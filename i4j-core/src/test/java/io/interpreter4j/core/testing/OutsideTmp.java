package io.interpreter4j.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * {@code @TempDir(factory = OutsideTmp.class)}: a temporary folder under the module's {@code target} folder instead of
 * {@code /tmp}, for a test of a sandbox that replaces {@code /tmp} with a private one: a folder there is visible inside
 * the sandbox (read-only), as a user's home or project would be. When the checkout itself lies under {@code /tmp}
 * (CI may clone there), {@code /var/tmp/i4j-outside-tmp} serves instead. JUnit deletes it after the test as usual.
 */
public final class OutsideTmp implements TempDirFactory {

  @Override
  public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext extension) throws IOException {
    Path target = Path.of("target", "outside-tmp").toAbsolutePath();
    if (target.startsWith("/tmp")) {
      target = Path.of("/var/tmp", "i4j-outside-tmp");
    }
    return Files.createTempDirectory(Files.createDirectories(target), "junit-");
  }
}
