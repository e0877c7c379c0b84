package io.interpreter4j.runtime.repl;

import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.safety.ChildEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * One running interpreter: its pipes, a reader thread per output stream, and the signals that reach its whole
 * process tree. Not an actor; it reports to a {@link Listener} from its own threads and never blocks the caller
 * on the interpreter.
 */
final class ReplProcess {

  /** Where {@code setsid} lives, or null (macOS): then signals go to each process of the tree instead of the group. */
  static final String SETSID = findSetsid();

  /** Chunks per stream that may wait in the listener's mailbox before the reader stops reading the pipe. */
  private static final int CHUNKS_IN_FLIGHT = 4;
  private static final int CHUNK_BYTES = 8192;
  private static final int IDLE_BYTES = 1024;

  /** The two output streams. */
  enum Stream {
    STDOUT(StreamName.STDOUT), STDERR(StreamName.STDERR);

    final StreamName label;

    Stream(StreamName label) {
      this.label = label;
    }
  }

  /** Told from reader and process-reaper threads; must not block. */
  interface Listener {
    void output(ReplProcess source, Stream stream, String text);

    void closed(ReplProcess source, Stream stream);

    void exited(ReplProcess source, int exitValue);
  }

  private final long pid;
  /** Null for a forked child that was gone before it was held. */
  private final ProcessHandle process;
  private final OutputStream stdin;
  private final boolean ownsGroup;
  private final Listener listener;
  private final Semaphore stdoutPermits = new Semaphore(CHUNKS_IN_FLIGHT);
  private final Semaphore stderrPermits = new Semaphore(CHUNKS_IN_FLIGHT);
  private final List<Thread> readers = new ArrayList<>(2);
  private volatile boolean closed;

  private ReplProcess(long pid, ProcessHandle process, OutputStream stdin, boolean ownsGroup, Listener listener) {
    this.pid = pid;
    this.process = process;
    this.stdin = stdin;
    this.ownsGroup = ownsGroup;
    this.listener = listener;
  }

  /** Starts the interpreter, its readers and exit watch, then writes the prelude. Blocking: call off the actor. */
  static ReplProcess start(List<String> argv, Path workdir, Map<String, String> env, String prelude,
      boolean ownsGroup, String name, Listener listener) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(argv).directory(workdir.toFile());
    ChildEnvironment.withhold(builder.environment()); // no I4J_TOKEN, no provider keys (pass-env comes in env)
    builder.environment().putAll(env);
    Process process = builder.start();
    return started(new ReplProcess(process.pid(), process.toHandle(), process.getOutputStream(), ownsGroup, listener),
        process.getInputStream(), process.getErrorStream(), process.onExit().thenApply(Process::exitValue), prelude,
        name);
  }

  /**
   * An interpreter forked by the {@link PythonForkServer}: its pipes and exit value as the server gives them, held
   * as a spawned one is. It leads its own process group.
   */
  static ReplProcess forked(PythonForkServer.ForkedChild child, String prelude, String name, Listener listener)
      throws IOException {
    // a child that ended already (it could not enter its working directory) has no handle: its exit tells the rest
    ProcessHandle handle = ProcessHandle.of(child.pid()).orElse(null);
    return started(new ReplProcess(child.pid(), handle, child.stdin(), true, listener), child.stdout(),
        child.stderr(), child.exit(), prelude, name);
  }

  private static ReplProcess started(ReplProcess repl, InputStream stdout, InputStream stderr,
      java.util.concurrent.CompletableFuture<Integer> exit, String prelude, String name) throws IOException {
    Listener listener = repl.listener;
    repl.startReader(Stream.STDOUT, stdout, repl.stdoutPermits, name);
    repl.startReader(Stream.STDERR, stderr, repl.stderrPermits, name);
    exit.thenAccept(value -> {
      if (!repl.closed) {
        listener.exited(repl, value);
      }
    });
    if (prelude != null) {
      try {
        repl.send(prelude);
      } catch (IOException e) {
        repl.close(); // nobody will hold this process: it must not run on
        throw e;
      }
    }
    return repl;
  }

  long pid() {
    return pid;
  }

  boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Writes one command to the driver. Small writes into a pipe the idle driver is reading. */
  void send(String text) throws IOException {
    stdin.write(text.getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  /** The listener is done with one chunk of {@code stream}; lets its reader read on. */
  void release(Stream stream) {
    (stream == Stream.STDOUT ? stdoutPermits : stderrPermits).release();
  }

  /** SIGINT to the running code and everything it started, as Ctrl-C in a terminal would. */
  void interrupt() {
    signal("INT", ownsGroup ? List.of() : tree()); // the group reaches its whole tree: no walk needed
  }

  /**
   * SIGKILL to the interpreter and every process it started, including ones already orphaned but still in its
   * process group. Readers keep going, so output written before the kill still arrives.
   */
  void destroyTree() {
    List<ProcessHandle> tree = tree();
    if (ownsGroup) {
      signal("KILL", List.of());
    }
    for (ProcessHandle handle : tree) {
      handle.destroyForcibly();
    }
  }

  /** Kills the tree and stops reporting: for shutdown, when nobody waits for the output any more. */
  void close() {
    closed = true;
    destroyTree();
    stdoutPermits.release(CHUNKS_IN_FLIGHT);
    stderrPermits.release(CHUNKS_IN_FLIGHT);
    try {
      stdin.close();
    } catch (IOException ignored) {
      // the interpreter is being killed anyway
    }
    readers.forEach(Thread::interrupt);
  }

  /** The interpreter first, then its descendants as they are now. */
  private List<ProcessHandle> tree() {
    List<ProcessHandle> all = new ArrayList<>();
    if (process != null) {
      all.add(process);
      all.addAll(ProcessTree.descendants(process)); // from the process down, not from every process up
    }
    return all;
  }

  private void signal(String name, List<ProcessHandle> tree) {
    // a group through the python fork server when one runs: no kill process to start (SIGINT 2 and SIGKILL 9 are
    // the same numbers on every POSIX system)
    int signum = switch (name) {
      case "KILL" -> 9;
      case "INT" -> 2;
      default -> 0;
    };
    if (ownsGroup && signum > 0 && PythonForkServer.signalGroup(pid, signum)) {
      return;
    }
    List<String> targets = new ArrayList<>();
    if (ownsGroup) {
      targets.add("-" + pid); // the group: also reaches children orphaned by a dead parent
    } else {
      tree.forEach(h -> targets.add(Long.toString(h.pid())));
    }
    KillCommands.send(name, targets); // with the other signals asked for meanwhile, in one kill
  }

  private void startReader(Stream stream, InputStream in, Semaphore permits, String name) {
    Thread reader = new Thread(() -> pump(stream, in, permits), name + "-" + pid + "-" + stream.label);
    reader.setDaemon(true);
    readers.add(reader);
    reader.start();
  }

  private void pump(Stream stream, InputStream in, Semaphore permits) {
    // Raw bytes decoded here, not through an InputStreamReader (reader, decoder and char buffers), into a small
    // buffer while output trickles in and an 8 KiB one while it floods: an idle interpreter, whose readers wait in
    // read() for as long as it lives, holds 1 KiB per stream.
    byte[] buffer = new byte[IDLE_BYTES];
    int carried = 0; // the start of a character the last read cut off, kept at the front for the next one
    try (in) {
      int n;
      while ((n = in.read(buffer, carried, buffer.length - carried)) != -1) {
        int end = carried + n;
        int whole = wholeCharacters(buffer, end);
        permits.acquire(); // bounded: a flood of output waits in the pipe, not in the heap
        if (closed) {
          return;
        }
        if (whole > 0) {
          listener.output(this, stream, new String(buffer, 0, whole, StandardCharsets.UTF_8));
        } else {
          permits.release();
        }
        carried = end - whole;
        int size = end == buffer.length ? CHUNK_BYTES : end < IDLE_BYTES ? IDLE_BYTES : buffer.length;
        byte[] next = size == buffer.length ? buffer : new byte[size];
        System.arraycopy(buffer, whole, next, 0, carried);
        buffer = next;
      }
      if (carried > 0) {
        permits.acquire();
        if (closed) {
          return;
        }
        listener.output(this, stream, new String(buffer, 0, carried, StandardCharsets.UTF_8)); // a cut-off end
      }
    } catch (IOException e) {
      // a stream closed under us ends like end-of-file
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (!closed) {
      listener.closed(this, stream);
    }
  }

  /** How many of the first {@code end} bytes of UTF-8 form whole characters (a read may end inside one). */
  static int wholeCharacters(byte[] bytes, int end) {
    for (int i = end - 1; i >= 0 && i >= end - 3; i--) {
      int b = bytes[i] & 0xFF;
      if ((b & 0xC0) == 0x80) {
        continue; // a continuation byte: look for the byte that starts its character
      }
      int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
      return end - i < length ? i : end;
    }
    return end;
  }

  /**
   * Prefixes {@code argv} with {@code env --default-signal=INT} where that exists (GNU coreutils 8.31+). A JVM
   * started with SIGINT ignored (nohup, {@code &} in a script) passes that on, and a shell that starts with
   * SIGINT ignored can neither trap it nor let its commands see it, so every timeout would end in a kill.
   */
  static List<String> withDefaultSigint(List<String> argv) {
    return withEnvSignalOption("--default-signal=INT", argv);
  }

  /**
   * Prefixes {@code argv} with {@code env --ignore-signal=INT} where that exists (GNU coreutils 8.31+, as
   * {@code --default-signal}), else as {@link #withDefaultSigint}: for an interpreter that sets its own SIGINT handler
   * as it starts whatever it inherits (R), so that an interrupt sent while it is still starting (the shell before
   * it, its own start-up) is ignored rather than the end of it.
   */
  static List<String> withIgnoredSigint(List<String> argv) {
    return withEnvSignalOption("--ignore-signal=INT", argv);
  }

  /** {@code env OPTION argv...} where env has its signal options (coreutils 8.31+), else {@code argv} as it is. */
  private static List<String> withEnvSignalOption(String option, List<String> argv) {
    if (!DefaultSigint.SUPPORTED) {
      return argv;
    }
    List<String> all = new ArrayList<>(List.of("env", option));
    all.addAll(argv);
    return all;
  }

  /** Probed once, on first use, off the actor thread (bash starts run on the blocking dispatcher). */
  private static final class DefaultSigint {
    static final boolean SUPPORTED = probe();

    private static boolean probe() {
      try {
        Process p = new ProcessBuilder("env", "--default-signal=INT", "true")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
          return false;
        }
        return p.exitValue() == 0;
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  private static String findSetsid() {
    for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin")) {
      Path candidate = Path.of(dir, "setsid");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
