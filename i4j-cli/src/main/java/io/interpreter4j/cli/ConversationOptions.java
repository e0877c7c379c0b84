package io.interpreter4j.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of the commands that hold one conversation and show it here ({@code i4j}, {@code run}, {@code resume}):
 * {@link CommonOptions} plus how it is shown and whether the model's replies are recorded. {@code serve} has no use
 * for these and does not offer them.
 */
public final class ConversationOptions extends CommonOptions {

  @Option(names = "--json", description = "Print one JSON event per line on stdout and nothing else (see docs/events.md).")
  void json(boolean on) {
    json = on;
  }

  @Option(names = "--plain", description = "No colours, frames or status line (also when stdout is not a terminal "
      + "or NO_COLOR is set).")
  void plain(boolean on) {
    plain = on;
  }

  @Option(names = "--inline-images", paramLabel = "on|off|auto", converter = InlineImagesConverter.class,
      description = "Draw the images blocks show in the terminal (kitty, iTerm2 or sixel pictures). auto: when "
          + "stdout is a terminal known to draw them. Default: auto.")
  void inlineImages(String mode) {
    inlineImages = mode;
  }

  @Option(names = "--record", paramLabel = "FILE",
      description = "Write the model's replies to a replay cassette, to replay the session offline later.")
  void record(Path file) {
    record = file;
  }
}
