package io.interpreter4j.core.image;

/** The picture formats a block may show, told apart by their first bytes. */
public enum ImageFormat {
  PNG("image/png", "png"),
  JPEG("image/jpeg", "jpg"),
  GIF("image/gif", "gif"),
  WEBP("image/webp", "webp");

  private final String mime;
  private final String extension;

  ImageFormat(String mime, String extension) {
    this.mime = mime;
    this.extension = extension;
  }

  /** The media type, e.g. {@code image/png}: the {@code mime} of an {@code image} event. */
  public String mime() {
    return mime;
  }

  /** The file name extension the image is saved with, without the dot. */
  public String extension() {
    return extension;
  }

  /** The format whose media type this is, or null. */
  public static ImageFormat ofMime(String mime) {
    for (ImageFormat f : values()) {
      if (f.mime.equals(mime)) {
        return f;
      }
    }
    return null;
  }
}
