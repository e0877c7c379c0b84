package io.interpreter4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {

  private static ObjectNode report(String json) throws Exception {
    return (ObjectNode) EventCodec.mapper().readTree(json);
  }

  private static String status(JsonNode targets, String name) {
    return targets.path(name).path("status").asText();
  }

  @Test
  void issueTwentysLimitsForStartup() throws Exception {
    JsonNode t = Targets.evaluate(report("""
        {"startup": {"version": {"launcher_with_cds": {"median_s": 0.2}},
                     "prompt": {"launcher_with_cds": {"median_s": 0.45}}}}"""));
    assertEquals("missed", status(t, "version_s"));
    assertEquals("<= 0.15", t.path("version_s").path("target").asText());
    assertEquals("met", status(t, "prompt_s"));
    assertEquals("<= 0.5", t.path("prompt_s").path("target").asText());
  }

  @Test
  void sessionsRatioCountsOnlyAtAThousandSessions() throws Exception {
    String sessions = """
        {"sessions": {"sessions": %d, "all_done": true, "heap_per_idle_session_kib": 80,
                      "ratios": {"blocks_per_s_vs_fresh_processes": 3.5}}}""";
    assertEquals("not_run", status(Targets.evaluate(report(sessions.formatted(100))),
        "sessions_1000_blocks_per_s_vs_fresh_processes"));
    assertEquals("met", status(Targets.evaluate(report(sessions.formatted(1000))),
        "sessions_1000_blocks_per_s_vs_fresh_processes"));
  }

  @Test
  void eachFigureHasTheBaselineMeasuredBesideItAndTheTablePrintsBoth() throws Exception {
    JsonNode t = Targets.evaluate(report("""
        {"repl_roundtrip": {"python": {"i4j": {"median_ms": 0.08}, "jupyter_kernel": {"median_ms": 3.5}},
                            "bash": {"i4j": {"median_ms": 0.3}}}}"""));
    assertEquals(3.5, t.path("repl_python_median_ms").path("baseline").path("figure").asDouble());
    assertEquals("Jupyter kernel, median ms", t.path("repl_python_median_ms").path("baseline").path("what").asText());
    // a baseline the run did not measure is left out, not made up
    assertEquals(false, t.path("repl_bash_median_ms").has("baseline"));
    String table = Targets.table(t);
    String python = table.lines().filter(l -> l.startsWith("repl_python_median_ms ")).findFirst().orElseThrow();
    assertEquals(List.of("repl_python_median_ms", "0.08", "<=", "0.3", "met", "3.5", "(Jupyter", "kernel,", "median",
        "ms)"), List.of(python.trim().split("\\s+")));
    String bash = table.lines().filter(l -> l.startsWith("repl_bash_median_ms ")).findFirst().orElseThrow();
    assertEquals(List.of("repl_bash_median_ms", "0.3", "<=", "0.25", "missed"), List.of(bash.trim().split("\\s+")));
  }

  @Test
  void batchRateCountsOnlyAtFiveHundredTasks() throws Exception {
    String batch = """
        {"batch": {"tasks": %d, "all_done": true, "tasks_per_s": 70, "peak_rss_mib": 200}}""";
    assertEquals("not_run", status(Targets.evaluate(report(batch.formatted(100))), "batch_tasks_per_s"));
    assertEquals("met", status(Targets.evaluate(report(batch.formatted(500))), "batch_tasks_per_s"));
    assertEquals("met", status(Targets.evaluate(report(batch.formatted(100))), "batch_peak_rss_mib"));
  }

  @Test
  void idleSessionPssAddsTheHeapToTheInterpretersPss() throws Exception {
    JsonNode t = Targets.evaluate(report("""
        {"sessions": {"heap_per_idle_session_kib": 100},
         "session_start": {"idle_session_interpreter": {"pss_kib": 10200}}}"""));
    assertEquals(10300.0, t.path("idle_python_session_pss_kib").path("figure").asDouble());
    assertEquals("missed", status(t, "idle_python_session_pss_kib"));
  }

  @Test
  void idleSessionPssIsTheForkedInterpretersWhenTheSectionRanBothWays() throws Exception {
    JsonNode t = Targets.evaluate(report("""
        {"sessions": {"heap_per_idle_session_kib": 80},
         "session_start": {"idle_session_interpreter": {
             "fork_server_on": {"pss_kib": 7300, "fork_server_pss_kib": 9300},
             "fork_server_off": {"pss_kib": 11200}}}}"""));
    assertEquals(7380.0, t.path("idle_python_session_pss_kib").path("figure").asDouble());
    assertEquals("met", status(t, "idle_python_session_pss_kib"));
  }

  @Test
  void sandboxAndSseAndQuickRun() throws Exception {
    JsonNode t = Targets.evaluate(report("""
        {"sandbox": {"ratios": {"sandboxed_over_unsandboxed_median": 1.1}, "first_block_median_ms": {"median": 75}},
         "sse_fanout": {"i4j": {"p99_ms": 49}}}"""));
    assertEquals("met", status(t, "sandbox_python_block_vs_unsandboxed"));
    assertEquals("missed", status(t, "sandbox_first_block_ms"));
    assertEquals("met", status(t, "sse_p99_lag_ms"));
    assertEquals("not_run", status(t, "loop_python_block_median_ms"));
    ObjectNode targets = JsonNodeFactory.instance.objectNode();
    Targets.quickRun(targets, JsonNodeFactory.instance.numberNode(181.0));
    assertEquals("missed", status(targets, "quick_run_s"));
  }
}
