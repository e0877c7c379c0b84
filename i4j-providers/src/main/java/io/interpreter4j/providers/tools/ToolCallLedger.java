package io.interpreter4j.providers.tools;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The tool calls a provider turned into code blocks, oldest first, so that the next request can give them back to
 * the API as calls with their results ({@link ToolHistory}) rather than as the markdown the session keeps. One per
 * provider, and so per session; the oldest are forgotten past {@value #CAPACITY} (their turns go back as text).
 * Written from stream threads, read when a request is built: synchronized.
 */
public final class ToolCallLedger {

  public static final int CAPACITY = 1024;

  private final Deque<ExecuteCall> calls = new ArrayDeque<>();

  public synchronized void record(ExecuteCall call) {
    calls.addLast(call);
    while (calls.size() > CAPACITY) {
      calls.removeFirst();
    }
  }

  /** Takes back the calls of a reply that failed (a cut stream): its retry makes its own, and nothing of it ran. */
  public synchronized void forget(List<ExecuteCall> failed) {
    calls.removeAll(failed);
  }

  public synchronized List<ExecuteCall> calls() {
    return List.copyOf(calls);
  }
}
