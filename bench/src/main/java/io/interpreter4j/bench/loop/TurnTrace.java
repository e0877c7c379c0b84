package io.interpreter4j.bench.loop;

import io.interpreter4j.bench.Samples;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The events of one replayed turn as a subscriber saw them (on the session's thread): each with the subscriber's
 * {@code System.nanoTime()} and the event's own timestamp. Checks that every block ran and printed what it should,
 * and derives the per-block times and the time of each step of the loop.
 */
final class TurnTrace implements Consumer<Event> {

  /** One event: its type, block (0 when none), when the subscriber saw it, its own timestamp, its text. */
  private record Stamp(String type, int block, long nanos, Instant ts, String text) {}

  private final List<Stamp> stamps = new ArrayList<>(4096);
  private final CompletableFuture<TurnStatus> finished = new CompletableFuture<>();
  /** CPU time of this JVM (all threads) at user_message and at turn_finished, in nanoseconds. */
  private long cpuAtStart;
  private long cpuAtEnd;

  @Override
  public void accept(Event event) {
    long now = System.nanoTime();
    EventPayload p = event.payload();
    int block = 0;
    String text = null;
    if (p instanceof EventPayload.ExecFinished f) {
      block = f.block();
      text = Integer.toString(f.exit_code());
    } else if (p instanceof EventPayload.Output o) {
      block = o.block();
      text = o.text();
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      block = c.block();
    } else if (p instanceof EventPayload.ExecStarted s) {
      block = s.block();
    } else if (p instanceof EventPayload.Error e) {
      text = e.message();
    } else if (p instanceof EventPayload.TurnFinished t) {
      text = t.status().wire() + (t.reason() == null ? "" : ": " + t.reason());
    }
    if (p instanceof EventPayload.UserMessage) {
      cpuAtStart = jvmCpuNanos();
    }
    synchronized (stamps) {
      stamps.add(new Stamp(event.type(), block, now, event.ts(), text));
    }
    if (p instanceof EventPayload.TurnFinished t) {
      cpuAtEnd = jvmCpuNanos();
      finished.complete(t.status());
    }
  }

  CompletableFuture<TurnStatus> finished() {
    return finished;
  }

  /** The figures of a finished turn; fails naming what went wrong if a block did not run as scripted. */
  Figures figures(int blocks) {
    List<Stamp> all;
    synchronized (stamps) {
      all = List.copyOf(stamps);
    }
    Stamp last = all.get(all.size() - 1);
    if (!last.type().equals("turn_finished") || !last.text().equals("done")) {
      throw new IllegalStateException("the turn ended " + last.text() + ", not done; errors: " + errors(all));
    }
    Samples wall = new Samples(blocks);
    Samples eventTs = new Samples(blocks);
    Samples resultToNextCall = new Samples(blocks);
    Samples resultToNextCallTs = new Samples(blocks);
    Samples callToBlock = new Samples(blocks);
    Samples blockToExec = new Samples(blocks);
    Samples exec = new Samples(blocks);
    Stamp start = all.stream().filter(s -> s.type().equals("user_message")).findFirst().orElseThrow();
    Stamp previousEnd = start;
    Stamp firstDelta = null;
    Stamp codeBlock = null;
    Stamp execStarted = null;
    StringBuilder output = new StringBuilder();
    int ran = 0;
    boolean awaitingCall = false;
    for (Stamp s : all) {
      switch (s.type()) {
        case "assistant_delta" -> {
          if (firstDelta == null) {
            firstDelta = s;
            if (awaitingCall) {
              resultToNextCall.add(s.nanos() - previousEnd.nanos());
              resultToNextCallTs.add(nanosBetween(previousEnd.ts(), s.ts()));
              awaitingCall = false;
            }
          }
        }
        case "code_block" -> codeBlock = s;
        case "exec_started" -> execStarted = s;
        case "output" -> output.append(s.text());
        case "exec_finished" -> {
          ran++;
          String expected = ran + "\n";
          if (s.block() != ran || !s.text().equals("0") || !output.toString().equals(expected)) {
            throw new IllegalStateException("block " + s.block() + " (the " + ran + "th) exited " + s.text()
                + " and printed '" + output + "', expected exit 0 and '" + expected.strip() + "'");
          }
          if (firstDelta == null || codeBlock == null || execStarted == null) {
            throw new IllegalStateException("block " + ran + " finished without its model call, block and start");
          }
          wall.add(s.nanos() - previousEnd.nanos());
          eventTs.add(nanosBetween(previousEnd.ts(), s.ts()));
          callToBlock.add(codeBlock.nanos() - firstDelta.nanos());
          blockToExec.add(execStarted.nanos() - codeBlock.nanos());
          exec.add(s.nanos() - execStarted.nanos());
          output.setLength(0);
          previousEnd = s;
          firstDelta = null;
          codeBlock = null;
          execStarted = null;
          awaitingCall = true;
        }
        default -> { }
      }
    }
    if (ran != blocks) {
      throw new IllegalStateException(ran + " blocks ran, expected " + blocks + "; errors: " + errors(all));
    }
    double turnMs = (last.nanos() - start.nanos()) / 1e6;
    double cpuMsPerBlock = (cpuAtEnd - cpuAtStart) / 1e6 / blocks;
    return new Figures(wall, eventTs, resultToNextCall, resultToNextCallTs, callToBlock, blockToExec, exec, turnMs,
        cpuMsPerBlock);
  }

  /** This JVM's CPU time so far (every thread, the interpreters' processes not included). */
  private static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long nanosBetween(Instant from, Instant to) {
    return java.time.Duration.between(from, to).toNanos();
  }

  private static List<String> errors(List<Stamp> all) {
    return all.stream().filter(s -> s.type().equals("error")).map(Stamp::text).limit(3).toList();
  }

  /**
   * Per block, from one {@code exec_finished} to the next (the first from {@code user_message}): by the
   * subscriber's clock ({@code wall}) and by the events' own timestamps ({@code eventTs}). The steps: a block's
   * {@code exec_finished} to the next call's first {@code assistant_delta}; that delta to the {@code code_block};
   * {@code code_block} to {@code exec_started}; {@code exec_started} to {@code exec_finished}. {@code turnMs}:
   * {@code user_message} to {@code turn_finished}. {@code cpuMsPerBlock}: this JVM's CPU time over the turn per block,
   * which other work on the machine changes far less than it changes latencies.
   */
  record Figures(Samples wall, Samples eventTs, Samples resultToNextCall, Samples resultToNextCallTs,
                 Samples callToBlock, Samples blockToExec, Samples exec, double turnMs, double cpuMsPerBlock) {}
}
