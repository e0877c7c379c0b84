package io.interpreter4j.core.replay;

import io.interpreter4j.core.replay.Cassette.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Plays a {@link Cassette} for one session, from its first turn: each model call takes the next turn and
 * checks the turn's expectation against the conversation's last message. Thread-safe, because successive
 * calls of one session may be materialised on different threads.
 */
public final class CassettePlayer {

  private static final int QUOTED_CHARS = 200;

  private final Cassette cassette;
  private int played;

  public CassettePlayer(Cassette cassette) {
    this.cassette = cassette;
  }

  /**
   * Takes the next turn. The turn is used up even when its expectation fails, so a replay that went off script
   * keeps failing rather than silently resynchronising.
   *
   * @throws ReplayException {@code cassette mismatch at turn N: /REGEX/ not found in: <first 200 chars>} or
   *                         {@code cassette exhausted after N turns}
   */
  public synchronized Turn next(String lastMessage) {
    return next(lastMessage, -1);
  }

  /**
   * As {@link #next(String)}, also checking the turn's {@code expect_images} against {@code lastMessageImages}, the
   * number of images the last message carries (-1: not known, not checked).
   *
   * @throws ReplayException as {@link #next(String)}, or
   *                         {@code cassette mismatch at turn K: expected N image(s), got M}
   */
  public synchronized Turn next(String lastMessage, int lastMessageImages) {
    List<Turn> turns = cassette.turns();
    if (played >= turns.size()) {
      throw new ReplayException("cassette exhausted after " + turns.size() + " turns");
    }
    Turn turn = turns.get(played++);
    Optional<Pattern> expect = turn.expectPattern();
    if (expect.isPresent() && !expect.get().matcher(lastMessage).find()) {
      throw new ReplayException("cassette mismatch at turn " + played + ": /" + turn.expect() + "/ not found in: "
          + firstCodePoints(lastMessage, QUOTED_CHARS));
    }
    if (turn.expectImages() != null && lastMessageImages >= 0 && turn.expectImages() != lastMessageImages) {
      throw new ReplayException("cassette mismatch at turn " + played + ": expected " + turn.expectImages()
          + " image(s), got " + lastMessageImages);
    }
    return turn;
  }

  /** How many turns have been taken so far. */
  public synchronized int turnsPlayed() {
    return played;
  }

  public Cassette cassette() {
    return cassette;
  }

  /** The turn's reply cut into pieces of {@code chunkChars} code points (the last may be shorter); none for "". */
  public static List<String> chunks(Turn turn) {
    String reply = turn.reply();
    List<String> chunks = new ArrayList<>();
    int start = 0;
    int count = 0;
    for (int i = 0; i < reply.length(); ) {
      i += Character.charCount(reply.codePointAt(i));
      if (++count == turn.chunkChars()) {
        chunks.add(reply.substring(start, i));
        start = i;
        count = 0;
      }
    }
    if (start < reply.length()) {
      chunks.add(reply.substring(start));
    }
    return chunks;
  }

  private static String firstCodePoints(String text, int count) {
    if (text.codePointCount(0, text.length()) <= count) {
      return text;
    }
    return text.substring(0, text.offsetByCodePoints(0, count));
  }
}
