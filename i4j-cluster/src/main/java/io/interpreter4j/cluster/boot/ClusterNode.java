package io.interpreter4j.cluster.boot;

import com.typesafe.config.Config;
import io.interpreter4j.cluster.journal.JournalSchema;
import io.interpreter4j.cluster.journal.SessionLog;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.PersistenceQuery;

/**
 * One node of the cluster: the journal's schema made (or found) first, then the actor system with the cluster
 * overlay, which joins the seed nodes, and the shard region of the sessions' journals.
 *
 * @param system   the node's actor system (its guardian is the caller's, the session manager for {@code i4j serve})
 * @param journals the shard region of {@link SessionLog}s
 * @param reads    queries of the journal (a session's events from any node)
 */
public record ClusterNode<T>(ActorSystem<T> system, ActorRef<ShardingEnvelope<SessionLog.Command>> journals,
                             JdbcReadJournal reads) {

  /**
   * Starts a node.
   *
   * @param config         the user's configuration (the cluster overlay goes over it)
   * @param exitWhenDowned see {@link ClusterConfig#overlay}
   * @throws IllegalStateException when the journal cannot be prepared (the message says what to check)
   */
  public static <T> ClusterNode<T> start(ClusterSettings settings, Config config, Behavior<T> guardian,
                                         boolean exitWhenDowned) {
    JournalSchema.ensure(settings);
    ActorSystem<T> system = ActorSystem.create(guardian, ClusterConfig.SYSTEM_NAME,
        ClusterConfig.overlay(settings, exitWhenDowned).withFallback(config));
    ActorRef<ShardingEnvelope<SessionLog.Command>> journals = SessionLog.init(system);
    JdbcReadJournal reads = PersistenceQuery.get(system)
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    return new ClusterNode<>(system, journals, reads);
  }
}
