package io.interpreter4j.runtime.repl;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.interpreter4j.core.safety.ChildEnvironment;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pre-started python per JVM, with the REPL driver's imports loaded, that forks a child per python interpreter
 * ({@code python_fork_server.py}, as {@code multiprocessing}'s forkserver does): a new session's python costs a fork
 * instead of a python start. The child leads its own session and process group, gets the session's working
 * directory and environment, and talks to the JVM over three FIFOs it opens as its fds 0, 1 and 2, so it looks to
 * {@link ReplProcess} like a spawned interpreter: a pid, stdin, stdout and stderr pipes, and an exit value (the
 * server, its parent, reports it).
 *
 * <p>Used only for what a fork reproduces exactly: the default python ({@link ReplDialect.PythonExecutable}), no
 * sandbox, no virtual environment, and the environment entries that shape a python's start ({@link #shapesStart})
 * the same as the server's; anything else is spawned as before. A server that died is started again at the next
 * request; its children run on (their exit value is then unknown: {@link #UNKNOWN_EXIT}). It ends with the JVM
 * (end of file on its stdin, and a shutdown hook).
 */
public final class PythonForkServer {

  /** The exit value reported for a child whose server died before it: its parent is gone, so its status is too. */
  static final int UNKNOWN_EXIT = 255;

  private static final Logger LOG = LoggerFactory.getLogger(PythonForkServer.class);
  private static final long READY_SECONDS = 60;
  private static final long FORK_SECONDS = 30;
  /** A child that neither opens its FIFOs nor exits within this is killed (its exit then frees the JVM's opens). */
  private static final long OPEN_SECONDS = 20;

  /**
   * Kills a child that has not opened its FIFOs in time; one thread, and a cancelled kill leaves its queue at once
   * (CompletableFuture's delayed executor would keep it for the whole delay and then start a thread to run nothing,
   * since the common pool has no thread of its own on 2 cores).
   */
  private static final ScheduledThreadPoolExecutor WATCHDOG = watchdog();

  private static volatile boolean enabled = defaultEnabled();
  private static volatile PythonForkServer shared;

  /**
   * The requests' writer, made at the first fork: {@link #configure} runs before a chat's prompt, and an ObjectMapper
   * made there (its date formats load the JDK's locale data) cost the prompt 0.05-0.2 s.
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final String python;
  private final String driver;
  private final Map<String, String> env;
  private Incarnation current; // guarded by this
  private boolean hooked; // guarded by this

  PythonForkServer(String python, String driver, Map<String, String> env) {
    this.python = python;
    this.driver = driver;
    this.env = Map.copyOf(env);
  }

  /** Reads {@code interpreter4j.repl.python.fork-server} (on | off) from a config with reference.conf's defaults. */
  public static void configure(Config root) {
    String value;
    try {
      value = root.getString("interpreter4j.repl.python.fork-server");
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
    setEnabled(switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes" -> true;
      case "off", "false", "no" -> false;
      default -> throw new IllegalArgumentException(
          "interpreter4j.repl.python.fork-server must be on or off, not '" + value + "'");
    });
  }

  /** Turns the fork server on or off for python interpreters started from now on (on is honoured on Linux only). */
  public static void setEnabled(boolean on) {
    enabled = on && defaultEnabled();
  }

  public static boolean enabled() {
    return enabled;
  }

  /** The pid of this JVM's fork server while one runs (for benchmarks and tests that tell it from interpreters). */
  public static Optional<Long> runningPid() {
    PythonForkServer server = shared;
    return server == null ? Optional.empty() : server.pid();
  }

  /** This JVM's fork server for the default python, made (not started) on first use; null when it is turned off. */
  static PythonForkServer shared() {
    if (!enabled) {
      return null;
    }
    PythonForkServer server = shared;
    if (server == null) {
      synchronized (PythonForkServer.class) {
        if (shared == null) {
          Map<String, String> env = new HashMap<>(System.getenv());
          ChildEnvironment.withhold(env);
          env.putAll(InterpreterLaunch.environment(Map.of()));
          shared = new PythonForkServer(ReplDialect.PythonExecutable.resolve(),
              ReplDialect.resource("python_driver.py"), env);
        }
        server = shared;
      }
    }
    return server;
  }

  /**
   * Environment entries a python reads as it starts (its flags, paths, locale, the user site in {@code HOME}, the
   * time zone): a forked child keeps the server's, so a launch that sets them otherwise is spawned.
   */
  static boolean shapesStart(String name) {
    return name.startsWith("PYTHON") || name.startsWith("LC_") || name.equals("LANG") || name.equals("HOME")
        || name.equals("TZ");
  }

  /**
   * Whether a launch of {@code argv} with the whole environment {@code fullEnv}, leading a new session, is what a
   * child of this server is: the server's python running the driver, with the same start-shaping entries.
   */
  boolean accepts(List<String> argv, Map<String, String> fullEnv) {
    return argv.equals(List.of(python, "-u", "-c", driver)) && shaping(fullEnv).equals(shaping(env));
  }

  /** Forks an interpreter in {@code workdir} with the whole environment {@code fullEnv}. Blocking. */
  ForkedChild fork(Path workdir, Map<String, String> fullEnv) throws IOException {
    return running().fork(workdir, fullEnv, null, false);
  }

  /**
   * Starts {@code argv} (an absolute path first) as a child of this server, held as a forked interpreter is: the
   * server spawns it ({@code posix_spawn}, no python fork) leading a new session, with its FIFOs as fds 0, 1 and 2,
   * in {@code workdir} with the whole environment {@code fullEnv}, SIGINT, SIGPIPE and SIGXFSZ at their defaults.
   * One process start instead of the JVM's {@code jspawnhelper}, {@code setsid} and {@code env} before the program.
   * Blocking; only while the server runs (never starts one): otherwise an IOException, and the caller spawns.
   */
  ForkedChild exec(List<String> argv, Path workdir, Map<String, String> fullEnv) throws IOException {
    return exec(argv, workdir, fullEnv, false);
  }

  /**
   * As {@link #exec(List, Path, Map)}; with {@code ignoreSigint} the program starts with SIGINT ignored (a sandbox
   * launcher such as bwrap, which an interrupt of its group must not end: the code inside sets its own handler).
   * The server is then the program's parent for as long as it runs, the parent bwrap's {@code --die-with-parent}
   * watches: a server that dies takes such programs with it.
   */
  ForkedChild exec(List<String> argv, Path workdir, Map<String, String> fullEnv, boolean ignoreSigint)
      throws IOException {
    if (argv.isEmpty() || !Path.of(argv.get(0)).isAbsolute()) {
      throw new IllegalArgumentException("exec needs an absolute path first: " + argv);
    }
    Incarnation running;
    synchronized (this) {
      running = current;
    }
    if (running == null || running.gone || !running.process.isAlive()) {
      throw new IOException("the python fork server does not run");
    }
    return running.fork(workdir, fullEnv, argv, ignoreSigint);
  }

  /**
   * Sends signal {@code signum} to process group {@code pgid} through this JVM's fork server while one runs (its
   * {@code os.killpg}): a line on a pipe, where {@code kill -s SIG -- -PGID} costs a process start. Never starts a
   * server. False when none runs or the line cannot be written: then the caller starts kill.
   */
  static boolean signalGroup(long pgid, int signum) {
    PythonForkServer server = enabled ? shared : null;
    return server != null && server.signal(pgid, signum);
  }

  /** {@link #signalGroup} through this server. */
  boolean signal(long pgid, int signum) {
    if (pgid <= 1 || signum <= 0) {
      return false;
    }
    Incarnation running;
    synchronized (this) {
      running = current;
    }
    return running != null && running.signal(pgid, signum);
  }

  /** This JVM's fork server if it is on and running now (started by a python interpreter), else null. */
  static PythonForkServer sharedIfRunning() {
    PythonForkServer server = enabled ? shared : null;
    return server != null && server.pid().isPresent() ? server : null;
  }

  /** Starts the server if it does not run (a python interpreter's fork starts it too). Blocking. */
  void start() throws IOException {
    running();
  }

  /**
   * Stops the server (its children run on), waits a little for it to go and removes its FIFO folder (at the JVM's
   * exit the thread reading the server's replies, which removes it too, may not get to); the next fork starts a new
   * one.
   */
  synchronized void stop() {
    if (current != null) {
      current.process.destroy();
      try {
        current.process.waitFor(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      deleteQuietly(current.fifos); // a child's open under way has its FIFO already; the names are not needed
      current = null;
    }
  }

  /** The folder of the running server's FIFOs (for tests). */
  synchronized Optional<Path> fifos() {
    return current == null ? Optional.empty() : Optional.of(current.fifos);
  }

  synchronized Optional<Long> pid() {
    return current != null && current.process.isAlive() ? Optional.of(current.process.pid()) : Optional.empty();
  }

  private synchronized Incarnation running() throws IOException {
    if (current == null || !current.process.isAlive()) {
      if (current != null) {
        LOG.warn("the python fork server (pid {}) exited with {}; starting a new one", current.process.pid(),
            current.process.exitValue());
      }
      current = Incarnation.start(python, driver, env);
      if (!hooked) {
        hooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "i4j-python-fork-server-stop"));
      }
    }
    return current;
  }

  /**
   * A new private folder for the children's FIFOs, in memory when the machine has a tmpfs for it (the user's
   * {@code XDG_RUNTIME_DIR}, else {@code /dev/shm}): three FIFOs are made, opened and removed per interpreter, and on
   * a disk file system each is an inode allocated and journaled (3 FIFOs: 0.1-1.2 ms of CPU on this machine's ext4
   * against 0.06-0.09 ms on tmpfs, docs/performance.md, round five: batch). Else in the temp folder.
   */
  static Path fifoFolder() throws IOException {
    var privateFolder = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
    for (String memory : new String[] {runtimeDir, "/dev/shm"}) {
      if (memory != null && !memory.isEmpty() && Path.of(memory).isAbsolute() && Files.isDirectory(Path.of(memory))
          && Files.isWritable(Path.of(memory))) {
        try {
          return Files.createTempDirectory(Path.of(memory), "i4j-fork-", privateFolder);
        } catch (IOException | UnsupportedOperationException e) {
          LOG.debug("python fork server: no FIFO folder in {}: {}", memory, e.toString());
        }
      }
    }
    return Files.createTempDirectory("i4j-fork-", privateFolder);
  }

  private static Map<String, String> shaping(Map<String, String> all) {
    Map<String, String> entries = new TreeMap<>();
    all.forEach((name, value) -> {
      if (shapesStart(name)) {
        entries.put(name, value);
      }
    });
    return entries;
  }

  private static ScheduledThreadPoolExecutor watchdog() {
    ScheduledThreadPoolExecutor watchdog = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "i4j-python-fork-watchdog");
      thread.setDaemon(true);
      return thread;
    });
    watchdog.setRemoveOnCancelPolicy(true);
    return watchdog;
  }

  private static boolean defaultEnabled() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
  }

  /** A forked interpreter as the JVM holds it: its pid, its three pipes, and its exit value once it ends. */
  record ForkedChild(long pid, OutputStream stdin, InputStream stdout, InputStream stderr,
      CompletableFuture<Integer> exit) {}

  /** A child as the server announced it, before the JVM opened its pipes. */
  private record Forked(long pid, CompletableFuture<Integer> exit) {}

  /** One run of the server process: its requests, and the exits of the children it forked. */
  private static final class Incarnation {
    private final Process process;
    private final OutputStream requests;
    private final Path fifos;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Forked>> pending = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<Integer>> exits = new ConcurrentHashMap<>();
    private final CompletableFuture<Long> ready = new CompletableFuture<>();
    private volatile boolean gone;

    private Incarnation(Process process, Path fifos) {
      this.process = process;
      this.requests = process.getOutputStream();
      this.fifos = fifos;
    }

    static Incarnation start(String python, String driver, Map<String, String> env) throws IOException {
      Path fifos = fifoFolder();
      ProcessBuilder builder = new ProcessBuilder(python, "-u", "-c",
          ReplDialect.resource("python_fork_server.py"), fifos.toString(), driver).directory(Path.of("/").toFile());
      builder.environment().clear();
      builder.environment().putAll(env);
      Process process;
      try {
        process = builder.start();
      } catch (IOException e) {
        deleteQuietly(fifos);
        throw e;
      }
      Incarnation server = new Incarnation(process, fifos);
      Thread reader = new Thread(server::readReplies, "i4j-python-fork-server-" + process.pid());
      reader.setDaemon(true);
      reader.start();
      Thread errors = new Thread(() -> logErrors(process), "i4j-python-fork-server-stderr-" + process.pid());
      errors.setDaemon(true);
      errors.start();
      try {
        server.ready.get(READY_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        process.destroyForcibly();
        throw new IOException("the python fork server did not start: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        throw new IOException("interrupted while the python fork server started", e);
      }
      return server;
    }

    /** Asks the server to signal a process group; false when it is gone or the line cannot be written. */
    boolean signal(long pgid, int signum) {
      if (gone || !process.isAlive()) {
        return false;
      }
      return tell("signal " + pgid + " " + signum + "\n");
    }

    /**
     * A python child running the driver, or with {@code argv} not null a program the server spawns (SIGINT ignored
     * with {@code ignoreSigint}, else at its default).
     */
    ForkedChild fork(Path workdir, Map<String, String> fullEnv, List<String> argv, boolean ignoreSigint)
        throws IOException {
      long id = ids.incrementAndGet();
      CompletableFuture<Forked> forked = new CompletableFuture<>();
      pending.put(id, forked);
      ObjectNode request = Json.MAPPER.createObjectNode();
      request.put("cwd", workdir.toAbsolutePath().toString());
      ObjectNode envNode = request.putObject("env");
      fullEnv.forEach(envNode::put);
      if (argv != null) {
        var array = request.putArray("argv");
        argv.forEach(array::add);
        if (ignoreSigint) {
          request.put("sigint", "ignore");
        }
      }
      String verb = argv == null ? "fork " : "exec ";
      byte[] line = (verb + id + " " + Json.MAPPER.writeValueAsString(request) + "\n")
          .getBytes(StandardCharsets.UTF_8);
      Forked child;
      try {
        synchronized (requests) {
          requests.write(line);
          requests.flush();
        }
        if (gone) {
          forked.completeExceptionally(new IOException("the python fork server exited"));
        }
        child = forked.get(FORK_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      } catch (TimeoutException e) {
        throw new IOException("the python fork server did not answer within " + FORK_SECONDS + " s");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while forking python", e);
      } finally {
        pending.remove(id);
      }
      try {
        return open(id, child.pid(), child.exit());
      } finally {
        if (argv != null) {
          tell("opened " + id + "\n"); // the server lets go of its own ends (lost only with the server itself)
        }
      }
    }

    /** A line to the server that has no reply; false when it cannot be written (the server is gone). */
    private boolean tell(String line) {
      try {
        synchronized (requests) {
          requests.write(line.getBytes(StandardCharsets.UTF_8));
          requests.flush();
        }
        return true;
      } catch (IOException e) {
        LOG.debug("python fork server: could not tell it {}: {}", line.strip(), e.getMessage());
        return false;
      }
    }

    /** Opens the JVM's ends of the child's FIFOs in the order the child opens its own, then removes them. */
    private ForkedChild open(long id, long pid, CompletableFuture<Integer> exit) throws IOException {
      List<Path> paths = List.of(fifos.resolve(id + ".in"), fifos.resolve(id + ".out"), fifos.resolve(id + ".err"));
      // a child that died before opening its ends would leave these opens waiting: its exit opens them instead
      exit.thenRun(() -> unblock(paths));
      ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
        if (!exit.isDone()) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
      }, OPEN_SECONDS, TimeUnit.SECONDS);
      List<java.io.Closeable> opened = new ArrayList<>(3);
      try {
        FileOutputStream stdin = new FileOutputStream(paths.get(0).toFile());
        opened.add(stdin);
        FileInputStream stdout = new FileInputStream(paths.get(1).toFile());
        opened.add(stdout);
        FileInputStream stderr = new FileInputStream(paths.get(2).toFile());
        opened.add(stderr);
        return new ForkedChild(pid, stdin, stdout, stderr, exit);
      } catch (IOException e) {
        for (java.io.Closeable c : opened) {
          try {
            c.close();
          } catch (IOException ignored) {
            // closing what was opened for a child that is being killed
          }
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        throw e;
      } finally {
        watchdog.cancel(false);
        paths.forEach(PythonForkServer::deleteQuietly);
      }
    }

    /** Opens each FIFO still there read-write, which never waits and completes any open waiting on the other end. */
    private static void unblock(List<Path> paths) {
      for (Path path : paths) {
        if (Files.exists(path)) {
          try (RandomAccessFile both = new RandomAccessFile(path.toFile(), "rw")) {
            both.getFD(); // opened: the waiting open has its partner
          } catch (IOException ignored) {
            // removed meanwhile: nothing waits on it
          }
        }
      }
    }

    private void readReplies() {
      try (BufferedReader replies = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = replies.readLine()) != null) {
          String[] parts = line.split(" ", 3);
          switch (parts[0]) {
            case "ready" -> ready.complete(Long.parseLong(parts[1]));
            case "forked" -> {
              long pid = Long.parseLong(parts[2]);
              CompletableFuture<Integer> exit = new CompletableFuture<>();
              exits.put(pid, exit); // before the fork is answered: the server reports its exit after this line
              CompletableFuture<Forked> waiting = pending.get(Long.parseLong(parts[1]));
              if (waiting != null) {
                waiting.complete(new Forked(pid, exit));
              } else {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // its asker gave up
              }
            }
            case "failed" -> {
              CompletableFuture<Forked> waiting = pending.get(parseId(parts[1]));
              if (waiting != null) {
                waiting.completeExceptionally(new IOException("the python fork server could not fork: "
                    + (parts.length > 2 ? parts[2] : "")));
              }
            }
            case "exit" -> {
              CompletableFuture<Integer> exit = exits.remove(Long.parseLong(parts[1]));
              if (exit != null) {
                exit.complete(Integer.parseInt(parts[2]));
              }
            }
            default -> LOG.warn("python fork server: unexpected line {}", line);
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("python fork server: reading its replies failed", e);
      } finally {
        ended();
      }
    }

    /** The server is gone: waiting forks fail; its children's exits are watched without their status. */
    private void ended() {
      gone = true;
      ready.completeExceptionally(new IOException("the python fork server exited before it was ready"));
      pending.values().forEach(f -> f.completeExceptionally(new IOException("the python fork server exited")));
      exits.forEach((pid, exit) -> {
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        if (child.isPresent()) {
          child.get().onExit().thenRun(() -> exit.complete(UNKNOWN_EXIT));
        } else {
          exit.complete(UNKNOWN_EXIT);
        }
      });
      try {
        Files.deleteIfExists(fifos); // when empty; an open still under way needs its FIFOs
      } catch (IOException ignored) {
        // left in the temp folder
      }
    }

    private static long parseId(String text) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    private static void logErrors(Process process) {
      try (BufferedReader errors = new BufferedReader(
          new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = errors.readLine()) != null) {
          LOG.warn("python fork server: {}", line);
        }
      } catch (IOException ignored) {
        // the server is gone
      }
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      if (Files.isDirectory(path)) {
        try (var files = Files.list(path)) {
          for (Path file : files.toList()) {
            Files.deleteIfExists(file);
          }
        }
      }
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // a leftover in the temp folder is harmless
    }
  }
}
