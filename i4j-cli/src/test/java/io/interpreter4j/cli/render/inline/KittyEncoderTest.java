package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class KittyEncoderTest {

  private static final Pattern COMMAND = Pattern.compile("\u001b_G([^;]*);([A-Za-z0-9+/=]*)\u001b\\\\");

  @Test
  void aLargePictureGoesInChunksThatReassembleToTheFile() {
    byte[] png = new byte[10_000];
    new Random(7).nextBytes(png);
    String sequence = KittyEncoder.encode(png, 48);
    Matcher m = COMMAND.matcher(sequence);
    List<String> controls = new ArrayList<>();
    StringBuilder data = new StringBuilder();
    int end = 0;
    while (m.find()) {
      assertEquals(end, m.start(), "nothing between the commands");
      controls.add(m.group(1));
      assertTrue(m.group(2).length() <= KittyEncoder.CHUNK && m.group(2).length() % 4 == 0, m.group(2).length() + "");
      data.append(m.group(2));
      end = m.end();
    }
    assertEquals(sequence.length(), end);
    assertEquals(List.of("a=T,f=100,q=2,c=48,m=1", "m=1", "m=1", "m=0"), controls);
    assertArrayEquals(png, Base64.getDecoder().decode(data.toString()));
  }

  @Test
  void aSmallPictureIsOneCommand() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
    assertEquals("\u001b_Ga=T,f=100,q=2,c=3,m=0;iVBORw==\u001b\\", KittyEncoder.encode(png, 3));
  }
}
