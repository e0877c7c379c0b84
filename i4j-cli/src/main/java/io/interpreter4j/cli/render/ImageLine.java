package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.EventPayload;

/** How the terminal tells of an image a block showed, {@code image 640x480 · PATH}, and of HTML it showed. */
final class ImageLine {

  private ImageLine() {}

  static String of(EventPayload.Image image) {
    return "image " + image.width() + "x" + image.height() + " · " + image.path();
  }

  /** The line of an HTML document a block showed: {@code html 2.1 KB · PATH} (the dashboard draws it). */
  static String of(EventPayload.Html html) {
    long bytes = html.bytes();
    String size = bytes < 1024 ? bytes + " B" : bytes < 1024 * 1024 ? String.format(java.util.Locale.ROOT, "%.1f KB",
        bytes / 1024.0) : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    return "html " + size + " · " + html.path();
  }
}
