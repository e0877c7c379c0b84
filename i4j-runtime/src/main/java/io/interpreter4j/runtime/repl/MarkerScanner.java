package io.interpreter4j.runtime.repl;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Finds the end-of-block line {@code "\u0002<marker> <status> <flags>\n"} in one output stream and passes every
 * other character through unchanged, in order and exactly once, however the stream is cut into chunks.
 * The marker is fresh and random for each block, so user output cannot end a block early by printing it.
 */
final class MarkerScanner {

  /** Starts the end line; a control character, so ordinary output never has to be held back. */
  static final char LEAD = '\u0002';

  private static final SecureRandom RANDOM = new SecureRandom();

  private final String needle;
  private final StringBuilder pending = new StringBuilder();
  private boolean markerSeen;
  private String statusLine;

  MarkerScanner(String marker) {
    this.needle = LEAD + marker;
  }

  /** 32 hex characters from a SecureRandom: 128 bits nobody can guess. */
  static String newMarker() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** Feeds the next chunk; returns the user text it releases (possibly empty). */
  String feed(String chunk) {
    if (statusLine != null) {
      return ""; // after the end line only stray output of background jobs can come; it belongs to no block
    }
    pending.append(chunk);
    String released = "";
    if (!markerSeen) {
      int at = pending.indexOf(needle);
      if (at < 0) {
        // keep only what could still become the marker, i.e. a suffix that is a prefix of the needle
        int keep = heldBack();
        released = pending.substring(0, pending.length() - keep);
        pending.delete(0, pending.length() - keep);
        return released;
      }
      released = pending.substring(0, at);
      pending.delete(0, at + needle.length());
      markerSeen = true;
    }
    int newline = pending.indexOf("\n");
    if (newline >= 0) {
      statusLine = pending.substring(0, newline).strip();
      pending.setLength(0);
    }
    return released;
  }

  /** At end of stream without the end line: whatever was held back is user text after all. */
  String drain() {
    if (markerSeen) {
      return "";
    }
    String rest = pending.toString();
    pending.setLength(0);
    return rest;
  }

  /** Whether the whole end line has arrived. */
  boolean complete() {
    return statusLine != null;
  }

  /** The exit status the driver reported; -1 when the line is missing or malformed. */
  int status() {
    if (statusLine == null) {
      return -1;
    }
    String[] words = statusLine.split(" ");
    try {
      return Integer.parseInt(words[0]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Whether the driver reported the flag (e.g. "stdin": the code hit end-of-file on standard input). */
  boolean flagged(String flag) {
    if (statusLine == null) {
      return false;
    }
    String[] words = statusLine.split(" ");
    if (words.length < 2) {
      return false;
    }
    for (String f : words[1].split(",")) {
      if (f.equals(flag)) {
        return true;
      }
    }
    return false;
  }

  private int heldBack() {
    int length = pending.length();
    for (int k = Math.min(length, needle.length() - 1); k > 0; k--) {
      if (pending.charAt(length - k) == LEAD && endsWithNeedlePrefix(k)) {
        return k;
      }
    }
    return 0;
  }

  private boolean endsWithNeedlePrefix(int k) {
    int offset = pending.length() - k;
    for (int i = 0; i < k; i++) {
      if (pending.charAt(offset + i) != needle.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
