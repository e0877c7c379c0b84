package io.interpreter4j.core.safety.analysis;

/**
 * What a file mode grants, whether written in octal ({@code 0o666}, {@code 0777}, {@code 755}, a decimal 438) or
 * symbolically ({@code o+w}, {@code a+rwx}, {@code go+r}).
 */
public final class Modes {

  private Modes() {}

  /** The mode as octal digits ("666"), or null when symbolic or unreadable. */
  public static String octal(String mode) {
    if (mode == null) {
      return null;
    }
    String m = mode.strip().replace("_", "");
    if (m.startsWith("0o") || m.startsWith("0O")) {
      m = m.substring(2);
    } else if (m.matches("[1-9][0-9]*") && m.matches(".*[89].*")) {
      // a decimal number (438 is 0o666), as python or node print it
      try {
        return Integer.toOctalString(Integer.parseInt(m));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return m.matches("[0-7]{1,5}") ? m : null;
  }

  /** Every user of the machine may write. */
  public static boolean worldWritable(String mode) {
    String o = octal(mode);
    if (o != null) {
      return ((o.charAt(o.length() - 1) - '0') & 2) != 0;
    }
    return symbolicGrants(mode, "oa", 'w');
  }

  /** Users other than the owner may read or write (what private keys must never allow). */
  public static boolean opensToOthers(String mode) {
    String o = octal(mode);
    if (o != null) {
      int group = o.length() >= 2 ? o.charAt(o.length() - 2) - '0' : 0;
      int other = o.charAt(o.length() - 1) - '0';
      return ((group | other) & 6) != 0;
    }
    return symbolicGrants(mode, "goa", 'r') || symbolicGrants(mode, "goa", 'w');
  }

  /** Sets the setuid or setgid bit. */
  public static boolean setuid(String mode) {
    String o = octal(mode);
    if (o != null) {
      return o.length() == 4 && ((o.charAt(0) - '0') & 6) != 0;
    }
    return mode != null && mode.contains("+s");
  }

  private static boolean symbolicGrants(String mode, String whoLetters, char permission) {
    if (mode == null) {
      return false;
    }
    for (String clause : mode.split(",")) {
      int k = 0;
      while (k < clause.length() && "ugoa".indexOf(clause.charAt(k)) >= 0) {
        k++;
      }
      String who = clause.substring(0, k);
      String rest = clause.substring(k);
      boolean whoMatches = false;
      for (char c : who.toCharArray()) {
        whoMatches |= whoLetters.indexOf(c) >= 0;
      }
      if (whoMatches && (rest.startsWith("+") || rest.startsWith("=")) && rest.indexOf(permission) > 0) {
        return true;
      }
    }
    return false;
  }
}
