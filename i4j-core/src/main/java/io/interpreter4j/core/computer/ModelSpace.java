package io.interpreter4j.core.computer;

/**
 * The coordinates the model sees and gives: the screen scaled so that its long edge is at most {@value #MAX_EDGE}
 * pixels and its area about {@value #MAX_AREA} pixels (1280x800 stays, 1920x1080 becomes 1280x720, 2560x1600
 * becomes 1280x800); never enlarged. Every point the model gives is checked against the model space and mapped back
 * to the screen; a point outside is an error, never a click elsewhere. Pure.
 *
 * @param screenWidth  the real screen's width in pixels
 * @param screenHeight its height
 */
public record ModelSpace(int screenWidth, int screenHeight) {

  public static final int MAX_EDGE = 1280;
  /** About one megapixel: 1280x800 fits exactly. */
  public static final int MAX_AREA = 1280 * 800;

  public ModelSpace {
    if (screenWidth <= 0 || screenHeight <= 0) {
      throw new IllegalArgumentException("a screen of " + screenWidth + "x" + screenHeight + " pixels");
    }
  }

  /** Model pixels per screen pixel, at most 1. */
  public double scale() {
    double byEdge = (double) MAX_EDGE / Math.max(screenWidth, screenHeight);
    double byArea = Math.sqrt((double) MAX_AREA / ((double) screenWidth * screenHeight));
    return Math.min(1.0, Math.min(byEdge, byArea));
  }

  public int width() {
    return Math.max(1, (int) Math.round(screenWidth * scale()));
  }

  public int height() {
    return Math.max(1, (int) Math.round(screenHeight * scale()));
  }

  /** A point on the real screen. */
  public record Point(int x, int y) {}

  /** Whether the model point lies on the screen as the model sees it. */
  public boolean contains(double x, double y) {
    return x >= 0 && y >= 0 && x < width() && y < height();
  }

  /**
   * The screen point under the model point {@code (x, y)}: the centre of the screen pixels that the model pixel
   * covers.
   *
   * @throws IllegalArgumentException naming the model space when the point is outside it
   */
  public Point toScreen(double x, double y) {
    if (Double.isNaN(x) || Double.isNaN(y) || !contains(x, y)) {
      throw new IllegalArgumentException("(" + format(x) + ", " + format(y) + ") is off the screen: x must be 0.."
          + (width() - 1) + " and y 0.." + (height() - 1) + " (the screen is " + width() + "x" + height()
          + " in your coordinates); nothing was done");
    }
    double sx = screenWidth / (double) width();
    double sy = screenHeight / (double) height();
    int px = (int) Math.min(screenWidth - 1, Math.floor(Math.floor(x) * sx + sx / 2));
    int py = (int) Math.min(screenHeight - 1, Math.floor(Math.floor(y) * sy + sy / 2));
    return new Point(px, py);
  }

  /** The model point over the screen point {@code (x, y)} (the pointer's position, an OCR match). */
  public Point toModel(int x, int y) {
    double sx = width() / (double) screenWidth;
    double sy = height() / (double) screenHeight;
    return new Point(Math.min(width() - 1, (int) Math.floor(x * sx)), Math.min(height() - 1, (int) Math.floor(y * sy)));
  }

  private static String format(double v) {
    return v == Math.rint(v) && !Double.isInfinite(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
