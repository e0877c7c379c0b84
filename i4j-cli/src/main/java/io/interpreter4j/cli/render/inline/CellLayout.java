package io.interpreter4j.cli.render.inline;

/**
 * How large a picture is drawn: at most {@link #MAX_COLUMNS} columns (and the terminal's width less the output's
 * indent), at most the screen's height less four rows, never larger than the picture itself, assuming a cell of
 * {@link #CELL_WIDTH} by {@link #CELL_HEIGHT} pixels (a terminal's real cell size cannot be read portably).
 *
 * @param columns cells across
 * @param rows    cells down (approximately, by the assumed cell)
 * @param width   pixels across to send
 * @param height  pixels down to send
 */
public record CellLayout(int columns, int rows, int width, int height) {

  public static final int MAX_COLUMNS = 64;
  public static final int CELL_WIDTH = 10;
  public static final int CELL_HEIGHT = 20;

  /** The layout of a {@code imageWidth x imageHeight} picture on a {@code termColumns x termRows} terminal. */
  public static CellLayout fit(int imageWidth, int imageHeight, int termColumns, int termRows) {
    if (imageWidth < 1 || imageHeight < 1) {
      throw new IllegalArgumentException("an image of " + imageWidth + "x" + imageHeight + " pixels has nothing to draw");
    }
    int maxColumns = Math.max(1, Math.min(MAX_COLUMNS, termColumns - 4));
    int maxRows = Math.max(1, termRows - 4);
    double scale = Math.min(1.0, (double) maxColumns * CELL_WIDTH / imageWidth);
    scale = Math.min(scale, (double) maxRows * CELL_HEIGHT / imageHeight);
    int width = Math.max(1, (int) Math.round(imageWidth * scale));
    int height = Math.max(1, (int) Math.round(imageHeight * scale));
    int columns = Math.max(1, Math.min(maxColumns, (width + CELL_WIDTH - 1) / CELL_WIDTH));
    int rows = Math.max(1, (height + CELL_HEIGHT - 1) / CELL_HEIGHT);
    return new CellLayout(columns, rows, width, height);
  }
}
