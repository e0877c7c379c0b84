package io.interpreter4j.runtime.repl;

import static io.interpreter4j.runtime.repl.PythonImagesTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.image.ImageFormat;
import io.interpreter4j.core.image.ImageHeader;
import io.interpreter4j.core.image.ImageSource;
import io.interpreter4j.runtime.repl.PythonImagesTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plots drawn in R blocks: the R driver's PNG device per block, through the real Rscript on the PATH. */
class RPlotsTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @TempDir
  Path sessionDir;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  ActorRef<ReplWorker.Command> r() {
    LanguageRegistry registry = LanguageRegistry.of(com.typesafe.config.ConfigFactory.load());
    InstalledLanguages.assume(registry, "r");
    return testKit.spawn(registry.worker(ReplConfig.defaults("r", sessionDir, sessionDir)));
  }

  Path outputs() {
    return sessionDir.toAbsolutePath().resolve("outputs");
  }

  @Test
  void everyPageDrawnBecomesAnImageAndABlockThatDrawsNothingHasNone() throws IOException {
    ActorRef<ReplWorker.Command> r = r();
    Run plots = run(r, 1, """
        cat("before\\n")
        plot(1:10, main = "first")
        hist(c(1, 2, 2, 3, 3, 3))
        cat("after\\n")
        """);
    assertEquals(0, plots.result().exitCode(), plots.stderr());
    assertEquals("before\nafter\n", plots.stdout());
    assertEquals(2, plots.images().size());
    for (int k = 1; k <= 2; k++) {
      BlockImage image = plots.images().get(k - 1);
      assertEquals(outputs().resolve("block-1-" + k + ".png"), image.path());
      assertEquals(new ImageHeader(ImageFormat.PNG, 640, 480), image.header());
      assertEquals(ImageSource.R, image.source());
      byte[] bytes = Files.readAllBytes(image.path());
      assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(bytes, 4));
      assertTrue(javax.imageio.ImageIO.read(image.path().toFile()) != null, "decodes as a picture: " + image.path());
    }

    Run quiet = run(r, 2, "x <- 1:3\nsum(x)");
    assertEquals("[1] 6\n", quiet.stdout());
    assertEquals(List.of(), quiet.images());
  }

  @Test
  void aBlockThatFailsAfterDrawingStillShowsItsPlotAndOneThatClosesTheDeviceItselfToo() {
    ActorRef<ReplWorker.Command> r = r();
    Run failed = run(r, 1, "plot(1:3)\nstop('after the plot')");
    assertEquals(1, failed.result().exitCode());
    assertTrue(failed.stderr().contains("after the plot"), failed.stderr());
    assertEquals(1, failed.images().size());

    Run closed = run(r, 2, "plot(1:3)\ninvisible(dev.off())\ncat('closed\\n')");
    assertEquals("closed\n", closed.stdout());
    assertEquals(1, closed.images().size());
    assertEquals(outputs().resolve("block-2-1.png"), closed.images().get(0).path());
  }

  @Test
  void pagesPastEightAreDroppedAndANoteSaysHowMany() {
    ActorRef<ReplWorker.Command> r = r();
    Run run = run(r, 1, "for (i in 1:11) plot(i)");
    assertEquals(0, run.result().exitCode(), run.stderr());
    assertEquals(8, run.images().size());
    assertEquals("[3 image(s) dropped: a block shows at most 8 images and 20 MB]\n", run.stderr());
  }
}
