package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The walk down a real process tree: the same processes as the JDK's walk through every process, and no others. */
class ProcessTreeTest {

  @Test
  void findsChildrenAndGrandchildrenAsTheJdkDoes() throws Exception {
    assumeTrue(ProcessTree.LISTS_CHILDREN, "this system does not list a thread's children under /proc");
    // bash -> (sleep, bash -> sleep): a child and a grandchild, each announced once it runs
    Process root = new ProcessBuilder("bash", "--noprofile", "--norc", "-c",
        "sleep 60 & echo $!; bash --noprofile --norc -c 'sleep 60 & echo $!; wait' & wait").start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(root.getInputStream(), StandardCharsets.UTF_8));
      long sleep1 = Long.parseLong(out.readLine().strip());
      long sleep2 = Long.parseLong(out.readLine().strip());
      Set<Long> walked = ProcessTree.descendants(root.toHandle()).stream().map(ProcessHandle::pid)
          .collect(Collectors.toSet());
      Set<Long> jdk = root.toHandle().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
      assertTrue(walked.containsAll(List.of(sleep1, sleep2)), "both sleeps: " + walked);
      assertEquals(jdk, walked);
      assertEquals(3, walked.size(), "two sleeps and the inner bash, not the root itself: " + walked);
    } finally {
      root.descendants().forEach(ProcessHandle::destroyForcibly);
      root.destroyForcibly();
      root.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aProcessThatIsGoneHasNoChildren() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(10, TimeUnit.SECONDS);
    assertEquals(List.of(), ProcessTree.children(gone.pid()));
    assertEquals(List.of(), ProcessTree.descendants(gone.toHandle()));
  }
}
