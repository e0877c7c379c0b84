package io.interpreter4j.core.image;

/**
 * An image a message carries to the model, by reference: the file, its media type and its size as saved. Bytes never
 * travel with it; they are read, scaled and encoded when a request body is built.
 *
 * @param path   absolute path of the file (under the session's {@code outputs/})
 * @param mime   {@code image/png}, {@code image/jpeg}, {@code image/gif} or {@code image/webp}
 * @param width  in pixels, as saved
 * @param height in pixels, as saved
 */
public record ImageRef(String path, String mime, int width, int height) {

  public ImageRef {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("an image reference needs a path");
    }
    if (mime == null || mime.isBlank()) {
      throw new IllegalArgumentException("an image reference needs a media type");
    }
  }

  /** Tokens the image costs a vision model once scaled ({@link ImageScaler#fit}): width x height / 750, as Anthropic counts. */
  public int tokens() {
    ImageScaler.Size size = ImageScaler.fit(width, height);
    return (int) Math.min(Integer.MAX_VALUE, ((long) size.width() * size.height() + 749) / 750);
  }
}
