package io.interpreter4j.core.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.interpreter4j.core.text.EditDistance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the settings a user wrote under {@code interpreter4j} that no module knows (a misspelling is otherwise
 * silently ignored), each with the closest known setting by edit distance. Known: the keys of the reference.conf
 * files; inside a block the reference leaves empty ({@code languages { }}) any key is the user's own.
 */
public final class UnknownSettings {

  /** One unknown setting: where it was written, its path under {@code interpreter4j}, the closest known one. */
  public record Unknown(String where, String key, String closest) {
    /** "FILE:LINE: unknown setting executoin.timeout (did you mean execution.timeout?); it is ignored". */
    public String message() {
      String hint = closest == null ? " (docs/configuration.md lists the settings)"
          : " (did you mean " + closest + "?)";
      return where + "unknown setting " + key + hint + "; it is ignored";
    }
  }

  private UnknownSettings() {}

  /** The unknown settings of {@code layer} (a file or a profile) against {@code reference}, in file order. */
  public static List<Unknown> find(Config layer, Config reference) {
    if (!layer.hasPath("interpreter4j") || !reference.hasPath("interpreter4j")) {
      return List.of();
    }
    Config known = reference.getConfig("interpreter4j");
    Set<String> knownKeys = new TreeSet<>();
    known.entrySet().forEach(e -> knownKeys.add(e.getKey()));
    List<Map.Entry<String, ConfigValue>> written = new ArrayList<>(layer.getConfig("interpreter4j").entrySet());
    written.sort(Comparator.comparing((Map.Entry<String, ConfigValue> e) -> String.valueOf(e.getValue().origin()
        .filename())).thenComparingInt(e -> e.getValue().origin().lineNumber()).thenComparing(Map.Entry::getKey));
    List<Unknown> out = new ArrayList<>();
    for (Map.Entry<String, ConfigValue> e : written) {
      String key = e.getKey();
      if (knownKeys.contains(key) || insideFreeBlock(known, key)) {
        continue;
      }
      String file = e.getValue().origin().filename();
      String where = file == null ? "" : file + ":" + e.getValue().origin().lineNumber() + ": ";
      out.add(new Unknown(where, key, closest(key, knownKeys)));
    }
    return out;
  }

  /** Whether a prefix of {@code key} is a block that reference.conf leaves empty for the user to fill. */
  private static boolean insideFreeBlock(Config known, String key) {
    String[] parts = key.split("\\.");
    StringBuilder prefix = new StringBuilder();
    for (int i = 0; i < parts.length - 1; i++) {
      prefix.append(i == 0 ? "" : ".").append(parts[i]);
      String p = prefix.toString();
      if (known.hasPath(p) && known.getValue(p).valueType() == ConfigValueType.OBJECT
          && ((ConfigObject) known.getValue(p)).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The known key nearest by edit distance, when near enough to be a misspelling (else null). */
  static String closest(String key, Set<String> knownKeys) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String last = key.substring(key.lastIndexOf('.') + 1);
    for (String candidate : knownKeys) {
      int whole = EditDistance.between(key, candidate);
      String candidateLast = candidate.substring(candidate.lastIndexOf('.') + 1);
      // a right name in the wrong block ("timeout" at the top) counts as near too
      int d = Math.min(whole, last.equals(candidateLast) ? 1 : Integer.MAX_VALUE);
      if (d < bestDistance) {
        bestDistance = d;
        best = candidate;
      }
    }
    return bestDistance <= Math.max(2, key.length() / 3) ? best : null;
  }
}
