package io.interpreter4j.cli.history;

/**
 * The one rule for what a kept session is called and how many exchanges it has, used by {@code i4j sessions},
 * {@code i4j show} and {@code i4j show --markdown}: its conversation as it stands at the end. {@code %undo} takes
 * the last exchange back, {@code %reset} starts over, {@code %load} and {@code i4j resume} start from the messages
 * they bring; the title is the first line of the conversation's first user message, "(no message)" when it has
 * none. Fed the journal's events in order; keeps only the first message and a count, however long the session.
 */
final class ConversationTitle {

  static final String UNTITLED = "(no message)";

  /** The first user message of the messages the conversation started from (load, resume), or null. */
  private String restoredFirst;
  private String firstTurn;
  private int turns;

  /** A user message: a new exchange. */
  void userMessage(String text) {
    if (turns++ == 0) {
      firstTurn = text;
    }
  }

  /**
   * A {@code conversation} event. {@code firstRestoredUser}: the first user message among its messages, or null.
   */
  void conversation(String reason, String firstRestoredUser) {
    if (reason.equals("undo") && turns > 0) {
      if (--turns == 0) {
        firstTurn = null;
      }
    } else if (reason.equals("undo")) {
      restoredFirst = firstRestoredUser; // the undo took back a restored exchange: what is left of them
    } else {
      turns = 0;
      firstTurn = null;
      restoredFirst = firstRestoredUser;
    }
  }

  /** Exchanges said in this session that still stand. */
  int turns() {
    return turns;
  }

  String title() {
    String first = restoredFirst != null ? restoredFirst : firstTurn;
    return first == null || first.isBlank() ? UNTITLED : SessionCatalog.firstLine(first);
  }
}
