package io.interpreter4j.runtime.computer;

import java.util.Optional;

/**
 * What an action did: a short text result for the model (or the reason it failed), a screenshot when the action
 * took one (PNG bytes, saved by the session as an {@code image} event with source {@code screenshot}), and the
 * page's address after a browser action.
 */
public record ActionOutcome(boolean ok, String text, Optional<byte[]> screenshotPng, Optional<String> url) {

  public static ActionOutcome done(String text) { return new ActionOutcome(true, text, Optional.empty(), Optional.empty()); }

  public static ActionOutcome failed(String reason) {
    return new ActionOutcome(false, reason, Optional.empty(), Optional.empty());
  }
}
