package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The probe behind availability runs once and its answer is remembered, also when asked from many threads. */
class ProbedSandboxTest {

  /** Counts its probes and answers what it is told. */
  static final class CountingSandbox extends ProbedSandbox {
    final AtomicInteger probes = new AtomicInteger();
    private final Optional<String> answer;

    CountingSandbox(Optional<String> answer) {
      super("counting", false, null);
      this.answer = answer;
    }

    @Override
    Optional<String> probe() {
      probes.incrementAndGet();
      return answer;
    }

    @Override
    public List<String> wrap(List<String> argv, Path workdir, Path sessionDir) {
      return argv;
    }

    @Override
    public String promptSentence() {
      return "";
    }
  }

  @Test
  void probesOnceAndRemembersAnAvailableSandbox() {
    CountingSandbox sandbox = new CountingSandbox(Optional.empty());
    assertEquals(0, sandbox.probes.get(), "nothing is probed before availability is asked");
    assertEquals(Optional.empty(), sandbox.availability());
    assertEquals(Optional.empty(), sandbox.availability());
    sandbox.check();
    assertEquals(1, sandbox.probes.get());
  }

  @Test
  void probesOnceAndRemembersWhyNot() {
    CountingSandbox sandbox = new CountingSandbox(Optional.of("not here"));
    assertEquals(Optional.of("not here"), sandbox.availability());
    assertEquals("not here", assertThrows(IllegalStateException.class, sandbox::check).getMessage());
    assertEquals(1, sandbox.probes.get());
  }

  @Test
  void probesOnceWhenManyThreadsAsk() throws Exception {
    CountingSandbox sandbox = new CountingSandbox(Optional.of("not here"));
    List<CompletableFuture<Optional<String>>> answers = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      answers.add(CompletableFuture.supplyAsync(sandbox::availability));
    }
    for (CompletableFuture<Optional<String>> answer : answers) {
      assertEquals(Optional.of("not here"), answer.get(10, TimeUnit.SECONDS));
    }
    assertEquals(1, sandbox.probes.get());
  }

  @Test
  void keepsItsNameNetworkAndExecutable() {
    CountingSandbox sandbox = new CountingSandbox(Optional.empty());
    assertEquals("counting", sandbox.name());
    assertEquals(false, sandbox.network);
    assertNull(sandbox.executable);
    assertNull(ProbedSandbox.onPath("no-such-command-i4j-" + System.nanoTime()));
  }
}
