package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.testing.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** close(): no interpreter process left behind; the shared actor system counted and stopped with its last user. */
class CloseTest {

  @TempDir
  Path tmp;

  @Test
  void closingTheInterpreterKillsEverySessionsProcesses() throws Exception {
    Path one = Files.createDirectory(tmp.resolve("one"));
    Path two = Files.createDirectory(tmp.resolve("two"));
    Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
    Session a = i4j.newSession();
    Session b = i4j.newSession();
    a.execute("python", "import os; os.chdir(" + "'" + one + "'" + ")");
    a.execute("bash", "cd " + one + " && (sleep 600 &) ; echo started");
    b.execute("bash", "cd " + two);
    assertFalse(Processes.workingIn(one).isEmpty(), "the REPLs did not start in " + one);
    assertFalse(Processes.workingIn(two).isEmpty(), "the REPL did not start in " + two);

    i4j.close();

    assertEquals(java.util.List.of(), Processes.workingIn(one));
    assertEquals(java.util.List.of(), Processes.workingIn(two));
    assertThrows(IllegalStateException.class, i4j::newSession);
    i4j.close(); // again: nothing happens
  }

  @Test
  void closingASessionEndsItsRunningBlockAndItsTurn() throws Exception {
    Path here = Files.createDirectory(tmp.resolve("here"));
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build()) {
      Session s = i4j.newSession();
      s.execute("bash", "cd " + here);
      var running = s.executeAsync("bash", "sleep 600").toCompletableFuture();
      // wait until the block runs: its exec_started event
      var started = new java.util.concurrent.CompletableFuture<Void>();
      s.eventSource().filter(e -> e instanceof Event.ExecStarted st && st.block() == 2).take(1)
          .runForeach(e -> started.complete(null), SharedSystem.current());
      started.get(60, TimeUnit.SECONDS);

      s.close();

      ExecResult r = running.get(60, TimeUnit.SECONDS);
      assertTrue(r.interrupted() || !r.ran(), r.toString());
      assertEquals(java.util.List.of(), Processes.workingIn(here));
      assertThrows(java.util.concurrent.ExecutionException.class,
          () -> s.chat("hello").toCompletableFuture().get(60, TimeUnit.SECONDS));
    }
  }

  @Test
  void interpretersShareOneActorSystemStoppedWithTheLast() throws Exception {
    Interpreter first = Cassettes.builder("mean", tmp).build();
    ActorSystem<?> system = SharedSystem.current();
    assertNotNull(system);
    Interpreter second = Cassettes.builder("shell", tmp).build();
    assertSame(system, SharedSystem.current());

    first.close();
    assertSame(system, SharedSystem.current());
    second.close();

    assertNull(SharedSystem.current());
    assertTrue(system.getWhenTerminated().toCompletableFuture().isDone());
  }

  @Test
  void anActorSystemOfTheUsersIsLeftRunning() throws Exception {
    ActorSystem<Void> own = ActorSystem.create(Behaviors.empty(), "users-own");
    try {
      try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).actorSystem(own).build();
           Session s = i4j.newSession()) {
        assertEquals("42\n", s.execute("python", "print(6 * 7)").output());
      }
      assertFalse(own.getWhenTerminated().toCompletableFuture().isDone());
    } finally {
      own.terminate();
      own.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
