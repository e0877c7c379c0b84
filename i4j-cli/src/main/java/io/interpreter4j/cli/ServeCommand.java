package io.interpreter4j.cli;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.batch.server.LocalBatchService;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.boot.ClusterSettings;
import io.interpreter4j.cluster.serve.ClusterServer;
import io.interpreter4j.cluster.serve.GracefulLeave;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.QuietPekko;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/** {@code i4j serve}: the HTTP API, live event streams and the web dashboard, until Ctrl-C or SIGTERM. */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
        "Serve the HTTP API and the web dashboard: start sessions, watch them live, approve their code.",
        "Authentication is always on: the token comes from I4J_TOKEN or is generated and printed inside the "
            + "dashboard URL. Loopback only unless --allow-remote. See docs/server.md."},
    footer = {"", "Example:", "  i4j serve --model replay:examples/hello.json"})
final class ServeCommand implements Callable<Integer> {

  @Mixin CommonOptions options;

  @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to listen on. Default: 127.0.0.1.")
  String host = ServerConfig.DEFAULT_HOST;

  @Option(names = "--port", paramLabel = "PORT", description = "Port to listen on (0: any free port). Default: 8717.")
  int port = ServerConfig.DEFAULT_PORT;

  @Option(names = "--allow-remote", description = "Allow listening on a non-loopback address (prints a warning).")
  boolean allowRemote;

  @Option(names = "--cluster-port", paramLabel = "PORT", description = "Run as a node of a cluster: the port of its "
      + "cluster transport (Artery TCP; the host is interpreter4j.cluster.host, default 127.0.0.1). Needs "
      + "--seed-nodes and the PostgreSQL journal. See docs/cluster.md.")
  Integer clusterPort;

  @Option(names = "--seed-nodes", paramLabel = "HOST:PORT,...", description = "Cluster nodes to join at start, the "
      + "same list on every node.")
  String seedNodes;

  @Option(names = "--journal-url", paramLabel = "JDBC-URL", description = "The cluster's PostgreSQL journal, "
      + "jdbc:postgresql://HOST:PORT/DATABASE (its password: I4J_JOURNAL_PASSWORD).")
  String journalUrl;

  @Option(names = "--journal-user", paramLabel = "NAME", description = "The journal's user.")
  String journalUser;

  /** Sessions kept from earlier runs are listed (stopped, read-only) as their journals are read, in the background. */
  static final int EARLIER_SESSIONS = 1000;

  private static void listEarlierSessions(ServerHandle server, java.nio.file.Path dataDir) {
    Thread reader = new Thread(() -> {
      try {
        int listed = server.hub().restore(dataDir, EARLIER_SESSIONS);
        if (listed > 0) {
          System.err.println("i4j: listed " + listed + " earlier session" + (listed == 1 ? "" : "s") + " from "
              + dataDir.resolve("sessions") + " (read-only)");
        }
      } catch (java.io.IOException | RuntimeException e) {
        System.err.println("i4j: could not list the earlier sessions in " + dataDir.resolve("sessions") + ": " + e
            + " (new sessions are not affected)");
      }
    }, "i4j-earlier-sessions");
    reader.setDaemon(true);
    reader.start();
  }

  /** The cluster flags given, as configuration paths (over the environment and the config file). */
  private Map<String, Object> clusterFlags() {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    if (clusterPort != null) {
      m.put("interpreter4j.cluster.port", clusterPort);
    }
    if (seedNodes != null) {
      m.put("interpreter4j.cluster.seed-nodes", seedNodes);
    }
    if (journalUrl != null) {
      m.put("interpreter4j.journal.url", journalUrl);
    }
    if (journalUser != null) {
      m.put("interpreter4j.journal.user", journalUser);
    }
    return m;
  }

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    SessionLauncher launcher = new SessionLauncher(options, env, System.err);
    if (!launcher.autoRun()) {
      SessionLauncher.announceAutoRun(System.err); // clients may start autoRun sessions
    }
    ClusterSettings cluster;
    try {
      cluster = ClusterSettings.from(ConfigFactory.parseMap(clusterFlags()).withFallback(launcher.config));
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    ClusterNode<SessionManager.Command> node = null;
    ActorSystem<SessionManager.Command> system;
    if (cluster.enabled()) {
      try {
        node = ClusterNode.start(cluster, QuietPekko.CONFIG.withFallback(launcher.config), SessionManager.create(),
            true);
      } catch (IllegalStateException e) {
        throw new ModelFactory.UsageException(e.getMessage());
      }
      system = node.system();
      System.err.println("i4j: cluster node " + cluster.self() + ", joining " + String.join(",", cluster.seedNodes())
          + "; journal " + cluster.journalUrl());
    } else {
      system = CliSession.startSystem(launcher.config);
    }
    ServerHandle server;
    ClusterServer.Started clustered = null;
    try {
      HostInfo hostInfo = CliSession.host(launcher.settings, env);
      ServerConfig config = ServerConfig.defaults().withHost(host).withPort(port).withAllowRemote(allowRemote)
          .withToken(ServerConfig.tokenFrom(env));
      if (node == null) {
        var models = launcher.models(options, system);
        server = Server.start(system, config, launcher.settings, models, hostInfo, (hub, usual) -> usual,
            hub -> LocalBatchService.start(system, launcher.config, env, models, hostInfo, hub,
                line -> System.err.println("i4j: " + line)));
      } else {
        clustered = ClusterServer.start(node, config, launcher.settings, launcher.models(options, system), hostInfo);
        server = clustered.handle();
      }
    } catch (IllegalArgumentException e) {
      system.terminate();
      throw new ModelFactory.UsageException(e.getMessage());
    } catch (RuntimeException e) {
      system.terminate();
      throw new ModelFactory.UsageException(BindFailure.describe(host, port, e));
    }
    System.err.println("i4j: serving on " + server.baseUrl() + " (Ctrl-C stops)");
    System.err.println("i4j: open the dashboard at " + server.url());
    listEarlierSessions(server, launcher.settings.dataDir());
    CountDownLatch stop = new CountDownLatch(1);
    Signal.handle(new Signal("INT"), sig -> stop.countDown());
    Signal.handle(new Signal("TERM"), sig -> stop.countDown());
    stop.await();
    if (clustered != null) {
      leaveBatches(clustered);
      GracefulLeave.run(server.hub(), clustered.mirror(), clustered.handOver(), cluster.leaveGrace(),
          System.err);
    }
    System.err.println("i4j: stopping; session transcripts stay in " + launcher.settings.dataDir()
        + (node == null ? "; batches still running resume at the next start" : ""));
    server.stop();
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get();
    return 0;
  }

  /** The node's batch tasks are stopped, to run again on another node, rather than interrupted by the leave. */
  private static void leaveBatches(ClusterServer.Started clustered) {
    try {
      int stopped = clustered.batches().leave().toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
      if (stopped > 0) {
        System.err.println("i4j: leaving the cluster: " + stopped + " batch task" + (stopped == 1 ? "" : "s")
            + " stopped, to run again on another node");
      }
    } catch (Exception e) {
      System.err.println("i4j: leaving the cluster: the batch worker did not answer (" + e + "); its tasks run again "
          + "on another node once this one is gone");
    }
  }
}
