package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.EventPayload;

/** How the terminal tells of an image a block showed: {@code image 640x480 · PATH}. */
final class ImageLine {

  private ImageLine() {}

  static String of(EventPayload.Image image) {
    return "image " + image.width() + "x" + image.height() + " · " + image.path();
  }
}
