package io.interpreter4j.runtime.repl;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Finds the end-of-block line {@code "\u0002<marker> <status> <flags>\n"} in one output stream and passes every
 * other character through unchanged, in order and exactly once, however the stream is cut into chunks.
 * The marker is fresh and random for each block, so user output cannot end a block early by printing it.
 * Lines {@code "\u0002<marker>:image <source> <base64>\n"} before it carry the images the block shows; they are
 * taken out of the text and handed over by {@link #takeImages()}, one longer than {@link #MAX_IMAGE_LINE} is skipped
 * and counted by {@link #takeDropped()}, as are the images a line {@code "\u0002<marker>:dropped <n>\n"} says the
 * driver left out itself. Lines {@code "\u0002<marker>:html <base64>\n"} carry HTML the block shows
 * ({@link #takeHtml()}).
 */
final class MarkerScanner {

  /** Starts the end line; a control character, so ordinary output never has to be held back. */
  static final char LEAD = '\u0002';

  /** An image line's longest body: the base64 of a 20 MB image and its source's name. */
  static final int MAX_IMAGE_LINE = 28 * 1024 * 1024;

  private static final String IMAGE_LINE = ":image ";
  private static final String HTML_LINE = ":html ";
  private static final String DROPPED_LINE = ":dropped ";

  private static final SecureRandom RANDOM = new SecureRandom();

  /** An image line: what showed it (the driver's word) and the image's bytes in base64. */
  record ImageLine(String source, String base64) {}

  /** An HTML line: a document's UTF-8 bytes in base64. */
  record HtmlLine(String base64) {}

  private final String needle;
  private final StringBuilder pending = new StringBuilder();
  private boolean markerSeen;
  private boolean skippingLine;
  private String statusLine;
  private final java.util.List<ImageLine> images = new java.util.ArrayList<>();
  private final java.util.List<HtmlLine> html = new java.util.ArrayList<>();
  private int dropped;
  /** How much of {@code pending} after a marker is known to hold no newline. */
  private int searched;

  MarkerScanner(String marker) {
    this.needle = LEAD + marker;
  }

  /** 32 hex characters from a SecureRandom: 128 bits nobody can guess. */
  static String newMarker() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * Feeds the next chunk; returns the user text it releases (possibly empty). The scan stops after an image line, so
   * that text and images keep their order: while {@link #takeImages()}, {@link #takeHtml()} or {@link #takeDropped()} gives
   * something,
   * call {@code feed("")} for the text and images after it.
   */
  String feed(String chunk) {
    if (statusLine != null) {
      return ""; // after the end line only stray output of background jobs can come; it belongs to no block
    }
    pending.append(chunk);
    StringBuilder released = new StringBuilder();
    scanOnce(released);
    return released.toString();
  }

  /** One step of the scan: text up to the next marker, and the marker's line if it is whole. */
  private void scanOnce(StringBuilder released) {
    if (!markerSeen) {
      int at = pending.indexOf(needle);
      if (at < 0) {
        // keep only what could still become the marker, i.e. a suffix that is a prefix of the needle
        int keep = heldBack();
        released.append(pending, 0, pending.length() - keep);
        pending.delete(0, pending.length() - keep);
        return;
      }
      released.append(pending, 0, at);
      pending.delete(0, at + needle.length());
      markerSeen = true;
    }
    int newline = pending.indexOf("\n", searched); // an image line comes in many chunks: look at each char once
    if (newline < 0) {
      searched = pending.length();
      if (pending.length() > MAX_IMAGE_LINE) {
        skippingLine = true; // an image too large to hold: let it pass by, counted, without keeping it
        pending.setLength(0);
        searched = 0;
      }
      return;
    }
    String line = pending.substring(0, newline);
    pending.delete(0, newline + 1);
    searched = 0;
    markerSeen = false;
    if (skippingLine) {
      skippingLine = false;
      dropped++;
      return;
    }
    if (line.startsWith(HTML_LINE)) {
      html.add(new HtmlLine(line.substring(HTML_LINE.length())));
      return;
    }
    if (line.startsWith(DROPPED_LINE)) {
      try {
        dropped += Math.max(0, Integer.parseInt(line.substring(DROPPED_LINE.length()).strip()));
      } catch (NumberFormatException e) {
        dropped++; // the driver meant to say something was dropped; at least one was
      }
      return;
    }
    if (line.startsWith(IMAGE_LINE)) {
      String body = line.substring(IMAGE_LINE.length());
      int space = body.indexOf(' ');
      images.add(space < 0 ? new ImageLine(body, "")
          : new ImageLine(body.substring(0, space), body.substring(space + 1)));
      return;
    }
    statusLine = line.strip();
    pending.setLength(0);
  }

  /** The image lines found since the last call, in order. */
  java.util.List<ImageLine> takeImages() {
    if (images.isEmpty()) {
      return java.util.List.of();
    }
    java.util.List<ImageLine> taken = java.util.List.copyOf(images);
    images.clear();
    return taken;
  }

  /** The HTML lines found since the last call, in order. */
  java.util.List<HtmlLine> takeHtml() {
    if (html.isEmpty()) {
      return java.util.List.of();
    }
    java.util.List<HtmlLine> taken = java.util.List.copyOf(html);
    html.clear();
    return taken;
  }

  /** How many images were dropped since the last call: lines too long to keep, and those the driver counted. */
  int takeDropped() {
    int n = dropped;
    dropped = 0;
    return n;
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
