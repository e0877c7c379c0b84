package io.interpreter4j.providers.resilience;

import io.interpreter4j.core.model.ModelException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * At most {@code maxPermits} holders at once; the next ones wait in a FIFO queue of at most {@code maxWaiting},
 * and past that {@link #acquire()} fails at once (overflow strategy: fail the newest, retryable). Waiting is a
 * {@link CompletableFuture}, so no thread blocks. Thread-safe.
 */
public final class PermitPool {

  private final String name;
  private final int maxPermits;
  private final int maxWaiting;
  private final ArrayDeque<CompletableFuture<Permit>> waiting = new ArrayDeque<>();
  private int inUse;

  public PermitPool(String name, int maxPermits, int maxWaiting) {
    this.name = name;
    this.maxPermits = maxPermits;
    this.maxWaiting = maxWaiting;
  }

  /** A permit now, or later when one is released; a failed stage when the waiting queue is full. */
  public CompletableFuture<Permit> acquire() {
    CompletableFuture<Permit> turn = new CompletableFuture<>();
    synchronized (this) {
      if (inUse < maxPermits) {
        inUse++;
      } else if (waiting.size() < maxWaiting) {
        waiting.addLast(turn);
        return turn;
      } else {
        return CompletableFuture.failedFuture(new ModelException(maxWaiting + " requests are already waiting for "
            + name + " (" + maxPermits + " at once): too many concurrent model calls", true));
      }
    }
    turn.complete(new Permit());
    return turn;
  }

  /**
   * Gives up a turn: withdraws it from the queue if it is still waiting, else releases its permit once granted.
   * Safe to call more than once, and after the permit was released.
   */
  public void giveUp(CompletableFuture<Permit> turn) {
    synchronized (this) {
      if (waiting.remove(turn)) {
        turn.cancel(false);
        return;
      }
    }
    turn.thenAccept(Permit::release);
  }

  public synchronized int inUse() {
    return inUse;
  }

  public synchronized int waiting() {
    return waiting.size();
  }

  private void handOver() {
    while (true) {
      CompletableFuture<Permit> next;
      synchronized (this) {
        next = waiting.pollFirst();
        if (next == null) {
          inUse--;
          return;
        }
      }
      // Completed outside the lock: the waiter's continuation may start its call right here.
      if (next.complete(new Permit())) {
        return;
      }
    }
  }

  /** One turn; releasing it twice releases it once. */
  public final class Permit {
    private final AtomicBoolean released = new AtomicBoolean();

    public void release() {
      if (released.compareAndSet(false, true)) {
        handOver();
      }
    }
  }
}
