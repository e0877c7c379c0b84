package io.interpreter4j.core.image;

/**
 * The images one block may show: at most {@link #MAX_IMAGES} and {@link #MAX_BYTES} in all. Past either, images
 * are dropped and counted, so the block's output can say how many.
 */
public final class ImageBudget {

  public static final int MAX_IMAGES = 8;
  public static final long MAX_BYTES = 20L * 1024 * 1024;

  private final int maxImages;
  private final long maxBytes;
  private int kept;
  private long keptBytes;
  private int dropped;

  public ImageBudget() {
    this(MAX_IMAGES, MAX_BYTES);
  }

  public ImageBudget(int maxImages, long maxBytes) {
    this.maxImages = maxImages;
    this.maxBytes = maxBytes;
  }

  /** Whether an image of {@code bytes} still fits; counts it as kept if so, as dropped if not. */
  public boolean admit(long bytes) {
    if (kept >= maxImages || keptBytes + bytes > maxBytes) {
      dropped++;
      return false;
    }
    kept++;
    keptBytes += bytes;
    return true;
  }

  /** Counts an image that never arrived whole (too large to carry), as dropped. */
  public void dropOne() {
    dropped++;
  }

  public int kept() {
    return kept;
  }

  public int dropped() {
    return dropped;
  }

  /** The note for the block's output when images were dropped, else null. */
  public String droppedNote() {
    if (dropped == 0) {
      return null;
    }
    return "[" + dropped + " image(s) dropped: a block shows at most " + maxImages + " images and "
        + maxBytes / (1024 * 1024) + " MB]";
  }
}
