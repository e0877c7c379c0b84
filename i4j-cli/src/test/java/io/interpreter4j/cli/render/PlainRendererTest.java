package io.interpreter4j.cli.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.image.ImageSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PlainRendererTest {

  @Test
  void anImageIsALineWithItsSizeAndPathOnALineOfItsOwn() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PlainRenderer renderer = new PlainRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8), false)) {
      renderer.accept(new Event("s", 1, Instant.now(), new EventPayload.Output(2, StreamName.STDOUT, "plotted")));
      renderer.accept(new Event("s", 2, Instant.now(), new EventPayload.Image(2, "image/png",
          "/d/sessions/s/outputs/block-2-1.png", 640, 480, ImageSource.MATPLOTLIB)));
    }
    assertEquals("plotted\nimage 640x480 · /d/sessions/s/outputs/block-2-1.png\n",
        bytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void htmlABlockShowedIsALineWithItsSizeAndPath() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PlainRenderer renderer = new PlainRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8), false)) {
      renderer.accept(new Event("s", 1, Instant.now(), new EventPayload.Html(2, "/d/s/outputs/block-2-1.html", 2150)));
      renderer.accept(new Event("s", 2, Instant.now(), new EventPayload.Html(2, "/d/s/outputs/block-2-2.html", 90)));
    }
    assertEquals("html 2.1 KB · /d/s/outputs/block-2-1.html\nhtml 90 B · /d/s/outputs/block-2-2.html\n",
        bytes.toString(StandardCharsets.UTF_8));
  }
}
