package io.interpreter4j.core.image;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Typed view of {@code interpreter4j.vision { mode, models }}: whether a model gets images, and the globs of the
 * models known to accept them ({@code *} any run of characters, {@code ?} one; matched whole, ignoring case, against
 * the name after the provider prefix and any vendor path, e.g. {@code gpt-4o-mini}, {@code llava:13b}).
 */
public record VisionSettings(Vision mode, List<String> models) {

  public VisionSettings {
    if (mode == null) {
      throw new IllegalArgumentException("interpreter4j.vision.mode must be on, off or auto");
    }
    models = List.copyOf(models);
  }

  /** The defaults of reference.conf. */
  public static VisionSettings defaults() {
    return fromConfig(ConfigFactory.defaultReference());
  }

  /** Reads {@code interpreter4j.vision}; IllegalArgumentException naming the setting when it is wrong. */
  public static VisionSettings fromConfig(Config root) {
    try {
      Config c = root.getConfig("interpreter4j.vision");
      return new VisionSettings(Vision.parse(c.getString("mode")), c.getStringList("models"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("interpreter4j.vision: " + e.getMessage()
          + " (mode = on, off or auto; models = a list of globs)", e);
    }
  }

  /** A copy with another mode ({@code --vision}). */
  public VisionSettings withMode(Vision value) {
    return new VisionSettings(value, models);
  }

  /** Whether {@code model} (the name a provider serves, without its provider prefix) gets images. */
  public boolean enabledFor(String model) {
    return switch (mode) {
      case ON -> true;
      case OFF -> false;
      case AUTO -> known(model);
    };
  }

  /** Whether {@code model} matches one of the globs of models known to accept images. */
  public boolean known(String model) {
    String m = model == null ? "" : model.strip().toLowerCase(Locale.ROOT);
    int slash = m.lastIndexOf('/');
    if (slash >= 0) {
      m = m.substring(slash + 1);
    }
    for (String glob : models) {
      if (glob(glob).matcher(m).matches()) {
        return true;
      }
    }
    return false;
  }

  private static Pattern glob(String glob) {
    StringBuilder regex = new StringBuilder();
    for (char ch : glob.strip().toLowerCase(Locale.ROOT).toCharArray()) {
      switch (ch) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        default -> regex.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    return Pattern.compile(regex.toString());
  }
}
