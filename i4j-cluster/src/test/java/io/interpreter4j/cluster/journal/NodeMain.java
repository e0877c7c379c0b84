package io.interpreter4j.cluster.journal;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.boot.ClusterSettings;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Adapter;

/**
 * A bare cluster node in a JVM of its own, for tests that kill it: the session journals' shard region and nothing
 * else. Prints "up" once it is a member that is up. Arguments: PORT SEEDS JDBC-URL USER.
 */
public final class NodeMain {
  private NodeMain() {}

  public static void main(String[] args) throws Exception {
    ClusterSettings settings = new ClusterSettings("127.0.0.1", Integer.parseInt(args[0]),
        List.of(args[1].split(",")), args[2], args[3], "", Duration.ofSeconds(30));
    ClusterNode<Void> node = ClusterNode.start(settings, ConfigFactory.load(), Behaviors.empty(), true);
    org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(node.system()))
        .registerOnMemberUp(() -> System.out.println("up"));
    node.system().getWhenTerminated().toCompletableFuture().join();
  }
}
