package io.interpreter4j.cluster.batch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which task runs next and where, for every batch the coordinator runs: each batch keeps at most its
 * {@code parallel} tasks running, in file order, and each task goes to the least loaded worker (ties taken in turn).
 * A task whose worker is gone, or whose dispatch failed, goes back to the front of its queue and runs again as a new
 * attempt. Pure: the coordinator wraps it, tests drive it directly; {@code W} identifies a worker.
 */
public final class BatchSchedule<W> {

  /** Task {@code taskId} of {@code batchId}, attempt {@code attempt}, to run on {@code worker}. */
  public record Dispatch<W>(String batchId, String taskId, int attempt, W worker) {}

  private static final class Batch<W> {
    final int parallel;
    final int total;
    final Deque<String> queue = new ArrayDeque<>();
    final Map<String, Dispatch<W>> running = new LinkedHashMap<>();
    final Map<String, Integer> attempts = new HashMap<>();
    int finished;

    Batch(int parallel, int total) {
      this.parallel = parallel;
      this.total = total;
    }
  }

  private final Map<String, Batch<W>> batches = new LinkedHashMap<>();
  private int turn;

  /**
   * Adds a batch to run (or to go on with).
   *
   * @param taskIds  every task, in file order
   * @param finished the tasks with a result
   * @param running  tasks running now, on the worker that runs them (their attempt as it is)
   * @param attempts the last attempt dispatched per task (a task queued again gets the next)
   */
  public void add(String batchId, int parallel, List<String> taskIds, Set<String> finished,
                  Map<String, Dispatch<W>> running, Map<String, Integer> attempts) {
    Batch<W> b = new Batch<>(Math.max(1, parallel), taskIds.size());
    b.attempts.putAll(attempts);
    for (String taskId : taskIds) {
      if (finished.contains(taskId)) {
        b.finished++;
      } else if (running.containsKey(taskId)) {
        b.running.put(taskId, running.get(taskId));
      } else {
        b.queue.add(taskId);
      }
    }
    batches.put(batchId, b);
  }

  public boolean has(String batchId) {
    return batches.containsKey(batchId);
  }

  /** Whether every task of the batch has a result (or it is not known here). */
  public boolean complete(String batchId) {
    Batch<W> b = batches.get(batchId);
    return b == null || b.finished >= b.total;
  }

  /** Forgets a complete batch. */
  public void remove(String batchId) {
    batches.remove(batchId);
  }

  /**
   * The task has a result (from whichever attempt): it frees its slot. Returns false when that was known already.
   */
  public boolean finished(String batchId, String taskId) {
    Batch<W> b = batches.get(batchId);
    if (b == null) {
      return false;
    }
    boolean wasRunning = b.running.remove(taskId) != null;
    boolean wasQueued = !wasRunning && b.queue.remove(taskId);
    if (wasRunning || wasQueued) {
      b.finished++;
      return true;
    }
    return false;
  }

  /** The attempt could not run (the worker refused, did not answer, or stopped it): it is queued again. */
  public void failed(String batchId, String taskId, int attempt) {
    Batch<W> b = batches.get(batchId);
    if (b == null) {
      return;
    }
    Dispatch<W> d = b.running.get(taskId);
    if (d != null && d.attempt() == attempt) {
      b.running.remove(taskId);
      b.queue.addFirst(taskId);
    }
  }

  /** Workers now alive: tasks running on any other are queued again. Returns those tasks. */
  public List<Dispatch<W>> workersAre(Collection<W> alive) {
    List<Dispatch<W>> lost = new ArrayList<>();
    for (Batch<W> b : batches.values()) {
      for (Dispatch<W> d : List.copyOf(b.running.values())) {
        if (!alive.contains(d.worker())) {
          b.running.remove(d.taskId());
          b.queue.addFirst(d.taskId());
          lost.add(d);
        }
      }
    }
    return lost;
  }

  /** The tasks to start now on {@code workers} (in the order given), each counted as running from now on. */
  public List<Dispatch<W>> next(List<W> workers) {
    List<Dispatch<W>> out = new ArrayList<>();
    if (workers.isEmpty()) {
      return out;
    }
    Map<W, Integer> load = new HashMap<>();
    workers.forEach(w -> load.put(w, 0));
    for (Batch<W> b : batches.values()) {
      b.running.values().forEach(d -> load.computeIfPresent(d.worker(), (w, n) -> n + 1));
    }
    for (Map.Entry<String, Batch<W>> e : batches.entrySet()) {
      Batch<W> b = e.getValue();
      while (b.running.size() < b.parallel && !b.queue.isEmpty()) {
        W worker = leastLoaded(workers, load);
        String taskId = b.queue.poll();
        int attempt = b.attempts.getOrDefault(taskId, 0) + 1;
        b.attempts.put(taskId, attempt);
        Dispatch<W> d = new Dispatch<>(e.getKey(), taskId, attempt, worker);
        b.running.put(taskId, d);
        load.merge(worker, 1, Integer::sum);
        out.add(d);
      }
    }
    return out;
  }

  /** Tasks running now per worker, over all batches. */
  public Map<W, Integer> load() {
    Map<W, Integer> load = new HashMap<>();
    for (Batch<W> b : batches.values()) {
      b.running.values().forEach(d -> load.merge(d.worker(), 1, Integer::sum));
    }
    return load;
  }

  private W leastLoaded(List<W> workers, Map<W, Integer> load) {
    int min = Integer.MAX_VALUE;
    for (W w : workers) {
      min = Math.min(min, load.get(w));
    }
    for (int i = 0; i < workers.size(); i++) {
      W w = workers.get((turn + i) % workers.size());
      if (load.get(w) == min) {
        turn = (turn + i + 1) % workers.size();
        return w;
      }
    }
    throw new IllegalStateException("no worker");
  }
}
