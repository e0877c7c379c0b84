package io.interpreter4j.providers.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.model.ModelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class PermitPoolTest {

  @Test
  void waitersGetPermitsInOrderAsTheyAreReleased() {
    PermitPool pool = new PermitPool("http://x", 1, 10);
    CompletableFuture<PermitPool.Permit> first = pool.acquire();
    CompletableFuture<PermitPool.Permit> second = pool.acquire();
    CompletableFuture<PermitPool.Permit> third = pool.acquire();
    assertTrue(first.isDone());
    assertFalse(second.isDone());
    assertEquals(2, pool.waiting());

    first.join().release();
    first.join().release();
    assertTrue(second.isDone());
    assertFalse(third.isDone(), "a double release frees one permit only");

    second.join().release();
    third.join().release();
    assertEquals(0, pool.inUse());
  }

  @Test
  void givingUpWhileWaitingLeavesTheQueue() {
    PermitPool pool = new PermitPool("http://x", 1, 10);
    CompletableFuture<PermitPool.Permit> holder = pool.acquire();
    CompletableFuture<PermitPool.Permit> quitter = pool.acquire();
    CompletableFuture<PermitPool.Permit> next = pool.acquire();

    pool.giveUp(quitter);
    assertEquals(1, pool.waiting());
    pool.giveUp(holder);

    assertTrue(next.isDone());
    assertTrue(quitter.isCancelled());
    pool.giveUp(next);
    assertEquals(0, pool.inUse());
  }

  @Test
  void aFullQueueFailsTheNewcomerRetryably() {
    PermitPool pool = new PermitPool("http://x", 1, 1);
    pool.acquire();
    pool.acquire();
    ExecutionException e = assertThrows(ExecutionException.class, () -> pool.acquire().get());
    ModelException me = assertInstanceOf(ModelException.class, e.getCause());
    assertTrue(me.retryable());
    assertTrue(me.getMessage().contains("1 requests are already waiting for http://x"), me.getMessage());
  }
}
