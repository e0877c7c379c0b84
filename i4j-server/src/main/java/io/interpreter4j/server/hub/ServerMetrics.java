package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters derived from the events of every session the server knows, and gauges computed from their views
 * when scraped; rendered in the Prometheus text format ({@code GET /metrics}).
 */
public final class ServerMetrics {
  private final ConcurrentMap<String, LongAdder> blocks = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, LongAdder> exitCodes = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, LongAdder> approvals = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, LongAdder> turns = new ConcurrentHashMap<>();
  private final LongAdder modelCalls = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder inputTokens = new LongAdder();
  private final LongAdder outputTokens = new LongAdder();
  private final LongAdder sseOverflows = new LongAdder();
  private final LongAdder authFailures = new LongAdder();

  /** Counts one event; called on the session's thread, so it only adds. */
  void record(Event event) {
    EventPayload p = event.payload();
    if (p instanceof EventPayload.ExecStarted e) {
      count(blocks, e.language());
    } else if (p instanceof EventPayload.ExecFinished f) {
      count(exitCodes, exitCodeBucket(f.exit_code()));
    } else if (p instanceof EventPayload.Approval a) {
      count(approvals, a.decision() + "\u0000" + a.by());
    } else if (p instanceof EventPayload.AssistantMessage) {
      modelCalls.increment();
    } else if (p instanceof EventPayload.Usage u) {
      inputTokens.add(u.input_tokens());
      outputTokens.add(u.output_tokens());
    } else if (p instanceof EventPayload.Retry) {
      retries.increment();
    } else if (p instanceof EventPayload.TurnFinished t) {
      count(turns, t.status().wire());
    } else if (p instanceof EventPayload.Error) {
      errors.increment();
    }
  }

  public void sseOverflow() {
    sseOverflows.increment();
  }

  public void authFailure() {
    authFailures.increment();
  }

  public long sseOverflows() {
    return sseOverflows.sum();
  }

  /**
   * Exit codes in a few labelled buckets so the label set stays small: 0, 1, 2, 124 (timed out), 126, 127,
   * 130 (interrupted), 137 (killed), other 128+N as "signal", anything else as "other".
   */
  static String exitCodeBucket(int code) {
    return switch (code) {
      case 0, 1, 2, 124, 126, 127, 130, 137 -> Integer.toString(code);
      default -> code > 128 && code < 160 ? "signal" : "other";
    };
  }

  /** The Prometheus text exposition of the counters and of gauges over the given views. */
  String render(Collection<SessionView> views, int sseClients) {
    Map<String, Long> byStatus = new TreeMap<>();
    for (String s : new String[] {"streaming", "awaiting_approval", "executing", "idle", "done", "failed", "gave_up",
        "interrupted", "blocked"}) {
      byStatus.put(s, 0L);
    }
    Map<String, Long> running = new TreeMap<>();
    Map<String, Long> workers = new TreeMap<>();
    long stopped = 0;
    for (SessionView v : views) {
      byStatus.merge(v.status(), 1L, Long::sum);
      if (v.stopped()) {
        stopped++;
        continue;
      }
      String lang = v.runningLanguage();
      if (lang != null) {
        running.merge(lang, 1L, Long::sum);
      }
      for (String started : v.languagesStarted()) {
        workers.merge(started, 1L, Long::sum);
      }
    }
    StringBuilder sb = new StringBuilder(2048);
    header(sb, "i4j_sessions", "gauge",
        "Sessions known to the server, by status (stopped ones show their last status).");
    byStatus.forEach((status, n) -> sample(sb, "i4j_sessions", "status", status, n));
    header(sb, "i4j_sessions_stopped", "gauge", "Sessions that have ended (their transcripts stay readable).");
    sample(sb, "i4j_sessions_stopped", stopped);
    header(sb, "i4j_turns_total", "counter", "Turns finished, by status.");
    turns.forEach((status, n) -> sample(sb, "i4j_turns_total", "status", status, n.sum()));
    header(sb, "i4j_blocks_total", "counter", "Code blocks started, by language.");
    blocks.forEach((lang, n) -> sample(sb, "i4j_blocks_total", "language", lang, n.sum()));
    header(sb, "i4j_blocks_running", "gauge", "Code blocks running now, by language.");
    running.forEach((lang, n) -> sample(sb, "i4j_blocks_running", "language", lang, n));
    header(sb, "i4j_block_exit_codes_total", "counter",
        "Finished blocks by exit code (0, 1, 2, 124 timed out, 126, 127, 130 interrupted, 137 killed, signal, other).");
    exitCodes.forEach((code, n) -> sample(sb, "i4j_block_exit_codes_total", "code", code, n.sum()));
    header(sb, "i4j_repl_workers", "gauge",
        "Live sessions that started a REPL worker, by language (idle workers stop after execution.idle-timeout).");
    workers.forEach((lang, n) -> sample(sb, "i4j_repl_workers", "language", lang, n));
    header(sb, "i4j_approvals_total", "counter", "Approval decisions, by decision and by whom.");
    approvals.forEach((key, n) -> {
      String[] parts = key.split("\u0000", 2);
      sb.append("i4j_approvals_total{decision=\"").append(escape(parts[0])).append("\",by=\"")
          .append(escape(parts[1])).append("\"} ").append(n.sum()).append('\n');
    });
    header(sb, "i4j_model_calls_total", "counter", "Model answers received (assistant_message events).");
    sample(sb, "i4j_model_calls_total", modelCalls.sum());
    header(sb, "i4j_model_retries_total", "counter", "Model calls retried after a retryable failure.");
    sample(sb, "i4j_model_retries_total", retries.sum());
    header(sb, "i4j_errors_total", "counter", "Error events shown to users.");
    sample(sb, "i4j_errors_total", errors.sum());
    header(sb, "i4j_tokens_total", "counter", "Tokens reported by the models, by direction.");
    sample(sb, "i4j_tokens_total", "direction", "in", inputTokens.sum());
    sample(sb, "i4j_tokens_total", "direction", "out", outputTokens.sum());
    header(sb, "i4j_sse_clients", "gauge", "Open event streams.");
    sample(sb, "i4j_sse_clients", sseClients);
    header(sb, "i4j_sse_overflows_total", "counter", "Event streams cut because their client fell behind.");
    sample(sb, "i4j_sse_overflows_total", sseOverflows.sum());
    header(sb, "i4j_auth_failures_total", "counter", "Requests with a wrong token or cookie.");
    sample(sb, "i4j_auth_failures_total", authFailures.sum());
    return sb.toString();
  }

  private static void count(ConcurrentMap<String, LongAdder> map, String key) {
    map.computeIfAbsent(key == null ? "unknown" : key, k -> new LongAdder()).increment();
  }

  private static void header(StringBuilder sb, String name, String type, String help) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder sb, String name, long value) {
    sb.append(name).append(' ').append(value).append('\n');
  }

  private static void sample(StringBuilder sb, String name, String label, String labelValue, long value) {
    sb.append(name).append('{').append(label).append("=\"").append(escape(labelValue)).append("\"} ")
        .append(value).append('\n');
  }

  private static String escape(String labelValue) {
    return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
