package io.interpreter4j.server.http;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Counts failed token attempts per client address in a sliding window; an address with {@code max} failures in
 * the window is refused until the oldest one leaves it. Bounded: at most {@code max} timestamps per address and
 * {@link #MAX_ADDRESSES} addresses (the least recently failing are forgotten first).
 */
final class FailureLimiter {
  static final int MAX_ADDRESSES = 10_000;

  private final int max;
  private final Duration window;
  private final Clock clock;
  private final LinkedHashMap<String, Deque<Long>> failures = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Deque<Long>> eldest) {
      return size() > MAX_ADDRESSES;
    }
  };

  FailureLimiter(int max, Duration window, Clock clock) {
    if (max < 1) {
      throw new IllegalArgumentException("the failure limit must be at least 1, not " + max);
    }
    this.max = max;
    this.window = window;
    this.clock = clock;
  }

  /** How long the address must wait before trying again, or empty if it may try now. */
  synchronized Optional<Duration> blockedFor(String address) {
    Deque<Long> times = failures.get(address);
    if (times == null) {
      return Optional.empty();
    }
    long now = clock.millis();
    expire(times, now);
    if (times.isEmpty()) {
      failures.remove(address);
      return Optional.empty();
    }
    if (times.size() < max) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis(times.peekFirst() + window.toMillis() - now));
  }

  synchronized void fail(String address) {
    long now = clock.millis();
    Deque<Long> times = failures.computeIfAbsent(address, a -> new ArrayDeque<>());
    expire(times, now);
    times.addLast(now);
    while (times.size() > max) {
      times.removeFirst();
    }
    if (failures.size() > MAX_ADDRESSES / 2) {
      sweep(now);
    }
  }

  private void expire(Deque<Long> times, long now) {
    while (!times.isEmpty() && times.peekFirst() + window.toMillis() <= now) {
      times.removeFirst();
    }
  }

  private void sweep(long now) {
    for (Iterator<Deque<Long>> it = failures.values().iterator(); it.hasNext(); ) {
      Deque<Long> times = it.next();
      expire(times, now);
      if (times.isEmpty()) {
        it.remove();
      }
    }
  }
}
