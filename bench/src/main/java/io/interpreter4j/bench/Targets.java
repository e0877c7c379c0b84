package io.interpreter4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The targets for this machine, each checked against the figures of the run: met, missed or not run. */
final class Targets {

  private Targets() {}

  static ObjectNode evaluate(ObjectNode report) {
    ObjectNode t = JsonNodeFactory.instance.objectNode();
    JsonNode python = report.path("repl_roundtrip").path("python");
    // issue 20: python <= 0.30 ms, >= 20x a Jupyter kernel's median and >= 5x its p99; bash <= 0.25 ms
    atMost(t, "repl_python_median_ms", python.path("i4j").path("median_ms"), 0.30);
    atLeast(t, "repl_python_speedup_vs_jupyter", python.path("ratios").path("speedup_vs_jupyter_median"), 20);
    atLeast(t, "repl_python_p99_speedup_vs_jupyter_p99", python.path("ratios").path("speedup_vs_jupyter_p99"), 5);
    atMost(t, "repl_bash_median_ms", report.path("repl_roundtrip").path("bash").path("i4j").path("median_ms"), 0.25);
    JsonNode intercept = report.path("intercept_latency");
    atMost(t, "intercept_p99_ms", intercept.path("i4j").path("p99_ms"), 1.0);
    JsonNode loop = report.path("loop");
    atMost(t, "loop_python_block_median_ms", loop.path("i4j").path("median_ms").path("median"), 1.5);
    atLeast(t, "loop_speedup_vs_jupyter", loop.path("ratios").path("speedup_vs_jupyter_median"), 5);
    JsonNode sessions = report.path("sessions");
    check(t, "sessions_all_done", sessions.path("all_done"), "true", sessions.path("all_done").asBoolean(false));
    atMost(t, "session_first_python_block_ms", report.path("session_start").path("i4j_median_ms").path("median"), 30);
    atMost(t, "heap_per_idle_session_kib", sessions.path("heap_per_idle_session_kib"), 64);
    atLeast(t, "scanner_mb_per_s", report.path("scanner_throughput").path("i4j_mb_per_s"), 100);
    JsonNode startup = report.path("startup");
    atMost(t, "version_s", startup.path("version").path("launcher_with_cds").path("median_s"), 0.5);
    atMost(t, "prompt_s", startup.path("prompt").path("launcher_with_cds").path("median_s"), 1.5);
    atMost(t, "sse_p99_lag_ms", report.path("sse_fanout").path("i4j").path("p99_ms"), 50);
    JsonNode batch = report.path("batch");
    check(t, "batch_all_done", batch.path("all_done"), "true", batch.path("all_done").asBoolean(false));
    atLeast(t, "batch_tasks_per_s", batch.path("tasks_per_s"), 60);
    atMost(t, "batch_peak_rss_mib", batch.path("peak_rss_mib"), 400);
    return t;
  }

  static void atMost(ObjectNode t, String name, JsonNode figure, double limit) {
    check(t, name, figure, "<= " + limit, figure.isNumber() && figure.asDouble() <= limit);
  }

  static void atLeast(ObjectNode t, String name, JsonNode figure, double limit) {
    check(t, name, figure, ">= " + limit, figure.isNumber() && figure.asDouble() >= limit);
  }

  static void check(ObjectNode t, String name, JsonNode figure, String target, boolean met) {
    ObjectNode n = t.putObject(name);
    n.put("target", target);
    if (figure.isMissingNode() || figure.isNull()) {
      n.put("status", "not_run");
      return;
    }
    n.set("figure", figure);
    n.put("status", met ? "met" : "missed");
  }
}
