package io.interpreter4j.core.safety;

import java.util.Objects;

/**
 * Redacts text that arrives in pieces (a block's output as it is written to its file, a file as it is served), so
 * that a secret cut in two by a piece boundary is still seen whole. Text is passed on up to the last line break of
 * what has come; the unfinished line is held back (one longer than {@link #MAX_LINE} is cut where a token cannot
 * be), and so is a PEM private key until its END line (up to {@link #MAX_KEY}; the rest of a longer one is
 * dropped until its END line, since its start was already redacted to the end of its piece). Bounded memory, one
 * owner at a time.
 */
public final class StreamRedactor {
  /** Characters of an unfinished line held back before it is cut. */
  static final int MAX_LINE = 64 * 1024;
  /** Characters of an unfinished private key block held back before it is passed on (redacted to its end). */
  static final int MAX_KEY = 256 * 1024;
  /** Where a long line is cut: at least this far from what is still held, so a token there is seen whole later. */
  private static final int TAIL = 512;
  /** How far back from there a place between tokens is looked for. */
  private static final int CUT_SEARCH = 4096;
  private static final String PEM_BEGIN = "-----BEGIN ";
  private static final String PEM_END = "-----END ";

  private final SecretRedactor redactor;
  private final StringBuilder held = new StringBuilder();
  /** The END line to wait for, while the rest of an over-long private key is being dropped; null otherwise. */
  private String droppingUntil;

  public StreamRedactor(SecretRedactor redactor) {
    this.redactor = Objects.requireNonNull(redactor, "redactor");
  }

  /** Takes the next piece; returns the redacted text that can be passed on now (maybe empty). */
  public String feed(CharSequence piece) {
    held.append(piece);
    if (droppingUntil != null && !dropKeyRest()) {
      return "";
    }
    int cut = cut();
    if (cut <= 0) {
      return "";
    }
    String out = redactor.redact(held.substring(0, cut));
    String openKey = openPrivateKey(0, cut);
    held.delete(0, cut);
    if (openKey != null) {
      droppingUntil = PEM_END + openKey + "-----";
      dropKeyRest();
    }
    return out;
  }

  /** The end of the text: returns the redacted rest of what was held back. */
  public String finish() {
    String out = droppingUntil != null ? "" : redactor.redact(held.toString());
    held.setLength(0);
    droppingUntil = null;
    return out;
  }

  /** Drops the held rest of an over-long private key up to its END line; whether that line has come. */
  private boolean dropKeyRest() {
    int end = held.indexOf(droppingUntil);
    if (end < 0) {
      held.delete(0, Math.max(0, held.length() - droppingUntil.length()));
      return false;
    }
    held.delete(0, end + droppingUntil.length());
    droppingUntil = null;
    return true;
  }

  /** How much of what is held can be passed on: complete lines, but not the start of an unfinished private key. */
  private int cut() {
    int cut = held.lastIndexOf("\n") + 1;
    if (cut == 0 && held.length() > MAX_LINE) {
      cut = betweenTokens(held.length() - TAIL);
    }
    if (cut > 0) {
      int begin = openPrivateKeyStart(cut);
      if (begin >= 0 && held.length() - begin <= MAX_KEY) {
        cut = begin;
      }
    }
    return cut;
  }

  /** A cut at or before {@code from} where no token is split (after a space that no key or scheme precedes). */
  private int betweenTokens(int from) {
    for (int i = from; i > Math.max(0, from - CUT_SEARCH); i--) {
      char c = held.charAt(i - 1);
      if ((c == ' ' || c == '\t' || c == ',' || c == ';') && !introducesSecret(i - 1)) {
        return i;
      }
    }
    return from;
  }

  /** Whether what comes before position {@code at} says a secret follows ("Bearer ", "key=", "password: "). */
  private boolean introducesSecret(int at) {
    int i = at;
    while (i > 0 && (held.charAt(i - 1) == ' ' || held.charAt(i - 1) == '\t')) {
      i--;
    }
    if (i == 0) {
      return false;
    }
    char before = held.charAt(i - 1);
    if (before == '=' || before == ':' || before == '"' || before == '\'') {
      return true;
    }
    int start = Math.max(0, i - 6);
    return held.substring(start, i).equalsIgnoreCase("bearer");
  }

  /** Where a private key block that does not end before {@code to} begins, or -1. */
  private int openPrivateKeyStart(int to) {
    int begin = held.lastIndexOf(PEM_BEGIN, to - 1);
    return begin >= 0 && openPrivateKey(begin, to) != null ? begin : -1;
  }

  /** The label of the last private key block begun in {@code [from, to)} that does not end there, or null. */
  private String openPrivateKey(int from, int to) {
    int begin = held.lastIndexOf(PEM_BEGIN, to - 1);
    if (begin < from) {
      return null;
    }
    int labelEnd = held.indexOf("-----", begin + PEM_BEGIN.length());
    if (labelEnd < 0 || labelEnd >= to || labelEnd - begin > 60) {
      return null; // not a header line (cuts are at line ends, so a real one is whole)
    }
    String label = held.substring(begin + PEM_BEGIN.length(), labelEnd);
    if (!label.endsWith("PRIVATE KEY")) {
      return null;
    }
    int end = held.indexOf(PEM_END + label + "-----", labelEnd);
    return end < 0 || end >= to ? label : null;
  }
}
