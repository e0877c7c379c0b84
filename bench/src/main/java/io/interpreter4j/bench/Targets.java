package io.interpreter4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
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
    // issue 20: closing fence offered -> exec_started, auto-approval
    JsonNode intercept = report.path("intercept_latency");
    atMost(t, "intercept_p99_ms", intercept.path("i4j").path("p99_ms"), 1.0);
    // issue 20: the whole loop, median over a 300-block turn, and >= 5x a Jupyter kernel on the same blocks
    JsonNode loop = report.path("loop");
    atMost(t, "loop_python_block_median_ms", loop.path("i4j").path("median_ms").path("median"), 1.5);
    atLeast(t, "loop_speedup_vs_jupyter", loop.path("ratios").path("speedup_vs_jupyter_median"), 5);
    // issue 20: 1000 concurrent sessions, 4 blocks each (python and bash), all done, >= 3x the fresh-process lanes
    JsonNode sessions = report.path("sessions");
    check(t, "sessions_all_done", sessions.path("all_done"), "true", sessions.path("all_done").asBoolean(false));
    JsonNode sessionRatio = sessions.path("sessions").asInt(0) >= 1000
        ? sessions.path("ratios").path("blocks_per_s_vs_fresh_processes") : MissingNode.getInstance();
    atLeast(t, "sessions_1000_blocks_per_s_vs_fresh_processes", sessionRatio, 3);
    atMost(t, "session_first_python_block_ms", report.path("session_start").path("i4j_median_ms").path("median"), 30);
    // issue 20: an idle session with a live python interpreter <= 10 MB of PSS: its processes plus its heap
    // (the default configuration's interpreter: forked by the python fork server, whose own PSS is shared by every
    // session of the JVM and reported beside it as fork_server_pss_kib; a spawned interpreter when the section ran
    // without the fork server)
    JsonNode idleSection = report.path("session_start").path("idle_session_interpreter");
    JsonNode idle = idleSection.has("fork_server_on") ? idleSection.path("fork_server_on").path("pss_kib")
        : idleSection.path("pss_kib");
    JsonNode heapPerSession = sessions.path("heap_per_idle_session_kib");
    atMost(t, "idle_python_session_pss_kib", idle.isNumber() && heapPerSession.isNumber()
        ? DoubleNode.valueOf(Samples.round(idle.asDouble() + heapPerSession.asDouble())) : idle, 10 * 1024);
    // round one, kept (issue 20 does not restate it); round one's 64 KiB of heap per idle session is in the PSS above
    atLeast(t, "scanner_mb_per_s", report.path("scanner_throughput").path("i4j_mb_per_s"), 100);
    // issue 20: prompt ready (chat on the demo model, on a pty) <= 0.5 s median; --version <= 0.15 s
    JsonNode startup = report.path("startup");
    atMost(t, "version_s", startup.path("version").path("launcher_with_cds").path("median_s"), 0.15);
    atMost(t, "prompt_s", startup.path("prompt").path("launcher_with_cds").path("median_s"), 0.5);
    // issue 20: 100 subscribers in a separate JVM, p99 lag
    atMost(t, "sse_p99_lag_ms", report.path("sse_fanout").path("i4j").path("p99_ms"), 50);
    // issue 20: a python block under bwrap within 1.2x of the unsandboxed median; a sandboxed session's first block
    JsonNode sandbox = report.path("sandbox");
    atMost(t, "sandbox_python_block_vs_unsandboxed", sandbox.path("ratios").path("sandboxed_over_unsandboxed_median"),
        1.2);
    atMost(t, "sandbox_first_block_ms", sandbox.path("first_block_median_ms").path("median"), 60);
    // issue 20: 500 two-block tasks at --parallel 16
    JsonNode batch = report.path("batch");
    check(t, "batch_all_done", batch.path("all_done"), "true", batch.path("all_done").asBoolean(false));
    // issue 20: 500 tasks (a smaller batch, -Dbench.batch.tasks, weighs the JVM's start more: not judged)
    atLeast(t, "batch_tasks_per_s", batch.path("tasks").asInt(0) >= 500 ? batch.path("tasks_per_s")
        : MissingNode.getInstance(), 60);
    atMost(t, "batch_peak_rss_mib", batch.path("peak_rss_mib"), 400);
    return t;
  }

  /** issue 20: {@code ./bench/run.sh --quick} stays under 3 minutes (the sections, without the build). */
  static void quickRun(ObjectNode targets, JsonNode totalSeconds) {
    atMost(targets, "quick_run_s", totalSeconds, 180);
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
