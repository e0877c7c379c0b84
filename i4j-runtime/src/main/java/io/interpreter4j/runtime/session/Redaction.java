package io.interpreter4j.runtime.session;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.safety.SecretRedactor;

/**
 * Keeps secrets out of events: every text an event carries (messages, code, output, errors) goes through a
 * {@link SecretRedactor} that knows this process's secret environment values and common key patterns.
 * An {@code assistant_delta} is redacted piece by piece, so a key split across two pieces may show in the live
 * stream; the journaled {@code assistant_message} holds the whole text and is redacted whole.
 */
final class Redaction {
  private static final SecretRedactor FROM_ENVIRONMENT = SecretRedactor.fromEnvironment(System.getenv());

  private Redaction() {}

  static SecretRedactor fromEnvironment() {
    return FROM_ENVIRONMENT;
  }

  static EventPayload redact(SecretRedactor r, EventPayload p) {
    if (p instanceof EventPayload.UserMessage m) {
      return new EventPayload.UserMessage(r.redact(m.text()));
    } else if (p instanceof EventPayload.AssistantDelta d) {
      return new EventPayload.AssistantDelta(r.redact(d.text()));
    } else if (p instanceof EventPayload.AssistantMessage m) {
      return new EventPayload.AssistantMessage(r.redact(m.text()));
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      return new EventPayload.CodeBlockEvent(c.block(), c.language(), r.redact(c.code()), c.unterminated());
    } else if (p instanceof EventPayload.ApprovalRequested a) {
      return new EventPayload.ApprovalRequested(a.block(), a.language(), r.redact(a.code()), a.risk(), a.flags());
    } else if (p instanceof EventPayload.Approval a) {
      return new EventPayload.Approval(a.block(), a.decision(), a.by(), nullable(r, a.reason()), a.risk(), a.flags(),
          nullable(r, a.code()));
    } else if (p instanceof EventPayload.Output o) {
      return new EventPayload.Output(o.block(), o.stream(), r.redact(o.text()));
    } else if (p instanceof EventPayload.Error e) {
      return new EventPayload.Error(r.redact(e.message()));
    } else if (p instanceof EventPayload.Retry t) {
      return new EventPayload.Retry(t.attempt(), nullable(r, t.reason()));
    } else if (p instanceof EventPayload.Conversation c) {
      return new EventPayload.Conversation(c.reason(), c.source(), c.messages().stream()
          .map(m -> new EventPayload.Message(m.role(), r.redact(m.content()))).toList());
    } else if (p instanceof EventPayload.ComputerAction c) {
      return new EventPayload.ComputerAction(c.block(), c.action(), c.x(), c.y(), nullable(r, c.text()), c.ref(),
          c.url(), c.ok(), nullable(r, c.result()));
    } else if (p instanceof EventPayload.TurnFinished t) {
      return new EventPayload.TurnFinished(t.status(), t.iterations(), nullable(r, t.reason()));
    }
    return p;
  }

  private static String nullable(SecretRedactor r, String text) {
    return text == null ? null : r.redact(text);
  }
}
