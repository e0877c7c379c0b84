package io.interpreter4j.core.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private PostgreSQL for one test class: {@code initdb} into a fresh folder, {@code pg_ctl start} on a free port of
 * 127.0.0.1 (its socket in that folder too, so nothing of the machine's own PostgreSQL is touched), one database,
 * and on {@link #close} a fast stop and the folder deleted. PostgreSQL refuses to run as root: as root (CI) every
 * program runs as the {@code postgres} user through {@code runuser}, and the folder is handed to that user.
 *
 * <p>Where PostgreSQL is missing the test is skipped with how to install it, or fails under
 * {@code I4J_REQUIRE_ALL=true} ({@link RequiredTool}): {@code .ci/run} installs Debian's {@code postgresql}.
 * Connections are trusted (no password checked): it listens on loopback only, for the length of one test.
 */
public final class PostgresServer implements AutoCloseable {
  /** Where Debian puts each major version's programs; the newest present is used. */
  private static final Path DEBIAN_PROGRAMS = Path.of("/usr/lib/postgresql");
  private static final String SERVICE_USER = "postgres";
  private static final long STEP_TIMEOUT_SECONDS = 60;

  private final Path bin;
  private final Path folder;
  private final int port;
  private final String database;
  private final boolean asServiceUser;

  private PostgresServer(Path bin, Path folder, int port, String database, boolean asServiceUser) {
    this.bin = bin;
    this.folder = folder;
    this.port = port;
    this.database = database;
    this.asServiceUser = asServiceUser;
  }

  /**
   * Initialises, starts and creates {@code database} in a new temporary folder; returns once it accepts
   * connections. Skips (or fails in CI) when PostgreSQL is not installed.
   */
  public static PostgresServer start(String database) throws IOException, InterruptedException {
    Path bin = programs();
    RequiredTool.assume(bin != null, "PostgreSQL (initdb, pg_ctl under " + DEBIAN_PROGRAMS + "/VERSION/bin)",
        "apt-get install postgresql");
    boolean root = "root".equals(System.getProperty("user.name"));
    Path folder = Files.createTempDirectory(Path.of("/tmp"), "i4j-pg-");
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    if (root) {
      UserPrincipalLookupService users = folder.getFileSystem().getUserPrincipalLookupService();
      Files.setOwner(folder, users.lookupPrincipalByName(SERVICE_USER));
    }
    PostgresServer server = new PostgresServer(bin, folder, freePort(), database, root);
    try {
      server.run("initdb", "-D", server.data().toString(), "-U", SERVICE_USER, "--auth=trust", "-E", "UTF8",
          "--locale=C", "--no-sync");
      server.run("pg_ctl", "-D", server.data().toString(), "-l", folder.resolve("server.log").toString(), "-w",
          "-t", Long.toString(STEP_TIMEOUT_SECONDS), "-o",
          "-p " + server.port + " -k " + folder + " -c listen_addresses=127.0.0.1 -c fsync=off "
              + "-c max_connections=200 -c shared_buffers=16MB", "start");
      server.run("psql", "-h", "127.0.0.1", "-p", Integer.toString(server.port), "-U", SERVICE_USER, "-d",
          "postgres", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \"" + database + "\"");
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** {@code jdbc:postgresql://127.0.0.1:PORT/DATABASE}. */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** The superuser to connect as (any password is accepted). */
  public String user() {
    return SERVICE_USER;
  }

  public int port() {
    return port;
  }

  /** The folder holding its data, socket and log; deleted by {@link #close}. */
  public Path folder() {
    return folder;
  }

  /** Runs one SQL statement through psql and returns what it printed (unaligned, tuples only). */
  public String sql(String statement) throws IOException, InterruptedException {
    return run("psql", "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", SERVICE_USER, "-d", database,
        "-v", "ON_ERROR_STOP=1", "-A", "-t", "-c", statement).strip();
  }

  /** Stops the server (fast: open connections are cut) and deletes its folder. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      if (Files.isRegularFile(data().resolve("postmaster.pid"))) {
        run("pg_ctl", "-D", data().toString(), "-m", "fast", "-w", "stop");
      }
    } finally {
      try (Stream<Path> all = Files.walk(folder)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private Path data() {
    return folder.resolve("data");
  }

  private String run(String program, String... args) throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>();
    if (asServiceUser) {
      argv.addAll(List.of("runuser", "-u", SERVICE_USER, "--"));
    }
    argv.add(bin.resolve(program).toString());
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).directory(folder.toFile()).redirectErrorStream(true).start();
    // pg_ctl's server inherits the pipe unless it is told to log elsewhere (-l above): the read ends with pg_ctl
    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
      try {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(output unreadable: " + e.getMessage() + ")";
      }
    });
    if (!p.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new IOException(program + " did not finish within " + STEP_TIMEOUT_SECONDS + " s: " + argv);
    }
    String said = output.join();
    if (p.exitValue() != 0) {
      throw new IOException(program + " failed (exit " + p.exitValue() + "): " + said.strip() + serverLog());
    }
    return said;
  }

  private String serverLog() {
    try {
      Path log = folder.resolve("server.log");
      return Files.isRegularFile(log) ? "\nserver log:\n" + Files.readString(log) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static Path programs() throws IOException {
    if (!Files.isDirectory(DEBIAN_PROGRAMS)) {
      return null;
    }
    try (Stream<Path> versions = Files.list(DEBIAN_PROGRAMS)) {
      return versions.map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparing(b -> versionOf(b.getParent())))
          .orElse(null);
    }
  }

  private static int versionOf(Path folder) {
    try {
      return Integer.parseInt(folder.getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
