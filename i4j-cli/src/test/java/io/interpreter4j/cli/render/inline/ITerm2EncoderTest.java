package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ITerm2EncoderTest {

  @Test
  void theFileIsOneOscWithItsSizeAndWidthInCells() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 1};
    assertEquals("\u001b]1337;File=inline=1;size=5;width=40;preserveAspectRatio=1:iVBORwE=\u0007",
        ITerm2Encoder.encode(png, 40));
  }
}
