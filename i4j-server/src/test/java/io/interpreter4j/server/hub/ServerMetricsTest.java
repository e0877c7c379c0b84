package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.ApprovalDecision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerMetricsTest {

  @Test
  void exitCodesGoIntoFewBuckets() {
    assertEquals("0", ServerMetrics.exitCodeBucket(0));
    assertEquals("124", ServerMetrics.exitCodeBucket(124));
    assertEquals("130", ServerMetrics.exitCodeBucket(130));
    assertEquals("signal", ServerMetrics.exitCodeBucket(139));
    assertEquals("other", ServerMetrics.exitCodeBucket(3));
    assertEquals("other", ServerMetrics.exitCodeBucket(-1));
  }

  @Test
  void countsEventsAndGaugesViews() {
    ServerMetrics metrics = new ServerMetrics();
    SessionView running = new SessionView("a", Instant.EPOCH);
    Event started = new Event("a", 1, Instant.EPOCH, new EventPayload.ExecStarted(1, "python"));
    running.apply(started);
    metrics.record(started);
    metrics.record(new Event("a", 2, Instant.EPOCH, new EventPayload.Approval(1, ApprovalDecision.DENIED, DecidedBy.POLICY, "rm -rf")));
    metrics.record(new Event("a", 3, Instant.EPOCH, new EventPayload.Retry(2, "429")));
    metrics.record(new Event("a", 4, Instant.EPOCH, new EventPayload.Usage(7, 3)));
    String text = metrics.render(List.of(running), 2);
    assertTrue(text.contains("i4j_blocks_total{language=\"python\"} 1\n"), text);
    assertTrue(text.contains("i4j_blocks_running{language=\"python\"} 1\n"), text);
    assertTrue(text.contains("i4j_repl_workers{language=\"python\"} 1\n"), text);
    assertTrue(text.contains("i4j_sessions{status=\"executing\"} 1\n"), text);
    assertTrue(text.contains("i4j_sessions{status=\"done\"} 0\n"), text);
    assertTrue(text.contains("i4j_approvals_total{decision=\"denied\",by=\"policy\"} 1\n"), text);
    assertTrue(text.contains("i4j_model_retries_total 1\n"), text);
    assertTrue(text.contains("i4j_tokens_total{direction=\"in\"} 7\n"), text);
    assertTrue(text.contains("i4j_tokens_total{direction=\"out\"} 3\n"), text);
    assertTrue(text.contains("i4j_sse_clients 2\n"), text);
  }
}
