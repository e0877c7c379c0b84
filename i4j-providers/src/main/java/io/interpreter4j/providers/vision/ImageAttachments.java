package io.interpreter4j.providers.vision;

import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.image.ImageScaler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns an image a message carries by reference into what a request body holds: the file read, scaled by
 * {@link ImageScaler} and base64-encoded, or, when that fails (the file is gone, or is no image), a text note saying
 * why. Each request sends the whole conversation again, so the encoded images are kept in a cache bounded by
 * {@value #CACHE_CHARS} characters of base64 (least recently used go first), keyed by path, size and modification
 * time: a file changed since is read again.
 */
public final class ImageAttachments {

  /** Largest file read; past this the image is not sent (a block's images are 20 MB in all). */
  static final long MAX_FILE_BYTES = 32L * 1024 * 1024;
  /** Base64 characters the cache holds at most. */
  static final long CACHE_CHARS = 64L * 1024 * 1024;

  private static final Map<String, Attachment.Encoded> CACHE = new LinkedHashMap<>(16, 0.75f, true);
  private static long cachedChars;

  private ImageAttachments() {}

  /** What a request carries for one image. */
  public sealed interface Attachment {

    /** The picture: its media type, base64 bytes and size once scaled. */
    record Encoded(String mime, String base64, int width, int height) implements Attachment {

      /** {@code data:image/png;base64,...}: the URL form OpenAI's {@code image_url} takes. */
      public String dataUrl() {
        return "data:" + mime + ";base64," + base64;
      }
    }

    /** No picture, and a line for the model saying why: {@code [image not sent: PATH: the file is gone]}. */
    record Unavailable(String note) implements Attachment {}
  }

  /** The image of {@code ref}, ready for a request body; never throws. */
  public static Attachment load(ImageRef ref) {
    Path file;
    BasicFileAttributes attributes;
    try {
      file = Path.of(ref.path());
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return unavailable(ref, "the file is gone");
    } catch (IOException | RuntimeException e) {
      return unavailable(ref, "cannot read it (" + e.getMessage() + ")");
    }
    if (!attributes.isRegularFile()) {
      return unavailable(ref, "not a regular file");
    }
    if (attributes.size() > MAX_FILE_BYTES) {
      return unavailable(ref, "the file has grown to " + attributes.size() + " bytes");
    }
    String key = ref.path() + "\u0000" + attributes.size() + "\u0000" + attributes.lastModifiedTime().toMillis();
    Attachment.Encoded cached = cached(key);
    if (cached != null) {
      return cached;
    }
    try {
      ImageScaler.Scaled scaled = ImageScaler.scale(Files.readAllBytes(file));
      Attachment.Encoded encoded = new Attachment.Encoded(scaled.format().mime(),
          Base64.getEncoder().encodeToString(scaled.bytes()), scaled.width(), scaled.height());
      remember(key, encoded);
      return encoded;
    } catch (IOException e) {
      return unavailable(ref, "cannot read it (" + e.getMessage() + ")");
    } catch (IllegalArgumentException e) {
      return unavailable(ref, e.getMessage());
    }
  }

  private static Attachment unavailable(ImageRef ref, String why) {
    return new Attachment.Unavailable("[image not sent: " + ref.path() + ": " + why + "]");
  }

  private static synchronized Attachment.Encoded cached(String key) {
    return CACHE.get(key);
  }

  private static synchronized void remember(String key, Attachment.Encoded encoded) {
    long size = encoded.base64().length();
    if (size > CACHE_CHARS || CACHE.containsKey(key)) {
      return;
    }
    CACHE.put(key, encoded);
    cachedChars += size;
    for (Iterator<Attachment.Encoded> oldest = CACHE.values().iterator();
         cachedChars > CACHE_CHARS && oldest.hasNext(); ) {
      cachedChars -= oldest.next().base64().length();
      oldest.remove();
    }
  }
}
