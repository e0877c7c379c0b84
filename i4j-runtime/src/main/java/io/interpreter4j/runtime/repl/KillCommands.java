package io.interpreter4j.runtime.repl;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Signals sent with the {@code kill} command (Java cannot signal a process group, nor send SIGINT), from one thread
 * that puts the targets of the requests waiting together into one {@code kill} per signal. Stopping a thousand
 * sessions asks for two thousand group kills at once: one process start each cost more than the rest of the stop.
 * Requests are sent in the order they came (an interrupt before the kill that follows it); the caller never waits.
 */
final class KillCommands {

  /** Requests that may wait; past that a request starts its own {@code kill} on the caller's thread. */
  static final int CAPACITY = 65_536;
  /** Targets in one command line, well below any argument limit. */
  static final int TARGETS_PER_COMMAND = 1_000;

  /** One request: a signal name ({@code INT}, {@code KILL}) and its targets ({@code -PGID} for a group, or PIDs). */
  record Request(String signal, List<String> targets) {}

  private static final BlockingQueue<Request> QUEUE = new ArrayBlockingQueue<>(CAPACITY);

  static {
    Thread sender = new Thread(KillCommands::sendForever, "i4j-kill");
    sender.setDaemon(true);
    sender.start();
  }

  private KillCommands() {}

  /** Sends {@code signal} to {@code targets} soon, after the requests before it. */
  static void send(String signal, List<String> targets) {
    if (targets.isEmpty()) {
      return;
    }
    Request request = new Request(signal, List.copyOf(targets));
    if (!QUEUE.offer(request)) {
      run(List.of(request)); // full: this caller pays for its own kill rather than the request being lost
    }
  }

  private static void sendForever() {
    List<Request> batch = new ArrayList<>();
    while (true) {
      try {
        batch.add(QUEUE.take());
      } catch (InterruptedException e) {
        return; // a daemon thread: only the JVM's end stops it
      }
      QUEUE.drainTo(batch);
      run(batch);
      batch.clear();
    }
  }

  /**
   * One {@code kill} per run of requests with the same signal, in order: {@code INT a, INT b, KILL a} makes
   * {@code kill -s INT -- a b} then {@code kill -s KILL -- a}.
   */
  static List<List<String>> commands(List<Request> requests) {
    List<List<String>> commands = new ArrayList<>();
    String signal = null;
    Set<String> targets = new LinkedHashSet<>(); // in order, each once
    for (Request request : requests) {
      if (!request.signal().equals(signal)) {
        addCommands(commands, signal, targets);
        targets.clear();
        signal = request.signal();
      }
      targets.addAll(request.targets());
    }
    addCommands(commands, signal, targets);
    return commands;
  }

  private static void addCommands(List<List<String>> commands, String signal, Set<String> targets) {
    List<String> all = new ArrayList<>(targets);
    for (int from = 0; from < all.size(); from += TARGETS_PER_COMMAND) {
      List<String> command = new ArrayList<>(List.of("kill", "-s", signal, "--"));
      command.addAll(all.subList(from, Math.min(all.size(), from + TARGETS_PER_COMMAND)));
      commands.add(command);
    }
  }

  private static void run(List<Request> requests) {
    for (List<String> command : commands(requests)) {
      try {
        // not waited for: kill returns at once and the JDK reaps it; a target already gone only makes it complain
        new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start().getOutputStream().close();
      } catch (IOException e) {
        if ("KILL".equals(command.get(2))) {
          // no kill command: each process at least (a group's leader has the group's number)
          command.subList(4, command.size()).forEach(t -> ProcessHandle.of(Math.abs(Long.parseLong(t)))
              .ifPresent(ProcessHandle::destroyForcibly));
        }
      }
    }
  }
}
