package io.interpreter4j.cluster.serve;

import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import java.util.function.Function;

/**
 * {@code i4j serve} on a cluster node: the usual server, whose sessions' events are copied into the PostgreSQL
 * journal ({@link JournalMirror}), with the cluster's routes and gauges ({@link ClusterRoutes}) in front.
 */
public final class ClusterServer {
  private ClusterServer() {}

  public static ServerHandle start(ClusterNode<SessionManager.Command> node, ServerConfig config, Settings settings,
                                   Function<String, ModelProvider> models, HostInfo host) {
    JournalMirror[] mirror = new JournalMirror[1];
    ServerHandle handle = Server.start(node.system(), config, settings, models, host, hub -> {
      mirror[0] = new JournalMirror(hub, node.journals(), node.system()).start();
      return new ClusterRoutes(hub, node.system(), node.reads(), node.journals(), mirror[0], config.keepAlive())
          .routes();
    });
    return handle;
  }
}
