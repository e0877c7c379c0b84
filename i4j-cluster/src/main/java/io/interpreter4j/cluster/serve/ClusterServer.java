package io.interpreter4j.cluster.serve;

import io.interpreter4j.cluster.batch.ClusterBatches;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;

/**
 * {@code i4j serve} on a cluster node: the usual server, whose sessions' events are written into their journals in
 * PostgreSQL ({@link JournalMirror}), which takes over the sessions of a lost node ({@link SessionTakeOver}), and
 * answers for every session of the cluster ({@link ClusterRoutes}); batches run over the cluster's nodes
 * ({@link ClusterBatches}).
 */
public final class ClusterServer {
  private ClusterServer() {}

  /**
   * @throws IllegalArgumentException when the config has no token: every node must have the same one (I4J_TOKEN)
   */
  /** A started node's server and what its leave needs. */
  public record Started(ServerHandle handle, JournalMirror mirror, ClusterBatches batches, SessionHandOver handOver) {}

  public static Started start(ClusterNode<SessionManager.Command> node, ServerConfig config, Settings settings,
                                   Function<String, ModelProvider> models, HostInfo host) {
    if (config.token() == null || config.token().isBlank()) {
      throw new IllegalArgumentException("cluster mode needs the same I4J_TOKEN on every node (a node passes "
          + "requests for sessions it does not run on to the node that runs them)");
    }
    AtomicReference<String> ownUrl = new AtomicReference<>();
    Map<String, String> nodes = NodeDirectory.newMap();
    node.system().systemActorOf(NodeDirectory.create(ownUrl::get, nodes), "i4j-node-directory", Props.empty());
    AtomicReference<ClusterRoutes> routes = new AtomicReference<>();
    AtomicReference<JournalMirror> mirrors = new AtomicReference<>();
    AtomicReference<ClusterBatches> batches = new AtomicReference<>();
    ServerHandle handle = Server.start(node.system(), config, settings, models, host, (hub, usual) -> {
      JournalMirror mirror = mirrors.updateAndGet(m -> m != null ? m
          : new JournalMirror(hub, node.journals(), node.system()).start());
      ClusterRoutes made = routes.updateAndGet(r -> {
        if (r != null) {
          return r;
        }
        SessionTakeOver takeOver = new SessionTakeOver(node.system(), hub, node.reads(), settings, models, host,
            node.system().dispatchers().lookup(DispatcherSelector.blocking()));
        SessionLog.hostOn(node.system(), takeOver);
        return new ClusterRoutes(hub, node.system(), node.journals(), mirror, nodes, config::token, takeOver,
            config.sseBufferSize(), config.keepAlive(), settings.approvalMode() == Settings.ApprovalMode.AUTO);
      });
      return made.around(usual);
    }, hub -> batches.updateAndGet(b -> b != null ? b
        : ClusterBatches.start(node.system(), hub, settings, models, host)).service());
    ownUrl.set(handle.baseUrl());
    return new Started(handle, mirrors.get(), batches.get(), new SessionHandOver(node.system(), node.journals(),
        nodes, config::token));
  }

}
