package io.interpreter4j.cluster.batch;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.server.hub.SessionHub;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.SingletonActor;

/**
 * Batches on a cluster node: the shard region of batch journals, the coordinator singleton (or its proxy here), this
 * node's worker, and the {@link ClusterBatchService} the batch routes serve.
 */
public final class ClusterBatches {
  private final ClusterBatchService service;
  private final ActorRef<BatchWorker.Command> worker;
  private final ActorSystem<?> system;

  private ClusterBatches(ClusterBatchService service, ActorRef<BatchWorker.Command> worker, ActorSystem<?> system) {
    this.service = service;
    this.worker = worker;
    this.system = system;
  }

  public ClusterBatchService service() {
    return service;
  }

  /**
   * The node is about to leave: its worker takes no more tasks and stops its running ones, which run again on
   * another node (call it before the running turns are waited for and interrupted). Completes with how many it
   * stopped.
   */
  public CompletionStage<Integer> leave() {
    return AskPattern.ask(worker, BatchWorker.Leave::new, Duration.ofSeconds(5), system.scheduler());
  }

  public static ClusterBatches start(ActorSystem<?> system, SessionHub hub, Settings settings,
                                          Function<String, ModelProvider> models, HostInfo host) {
    ActorRef<ShardingEnvelope<BatchLog.Command>> logs = BatchLog.init(system);
    ActorRef<BatchCoordinator.Command> coordinator = ClusterSingleton.get(system).init(SingletonActor.of(
        Behaviors.supervise(BatchCoordinator.create(logs)).onFailure(
            SupervisorStrategy.restartWithBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10), 0.2)),
        "i4j-batch-coordinator"));
    BatchWorker.Node node = new BatchWorker.Node(hub, settings, system.settings().config(), System.getenv(), models,
        host);
    ActorRef<BatchWorker.Command> worker = system.systemActorOf(BatchWorker.create(node, logs, coordinator),
        "i4j-batch-worker", Props.empty());
    return new ClusterBatches(new ClusterBatchService(system, logs, coordinator, settings,
        system.dispatchers().lookup(DispatcherSelector.blocking())), worker, system);
  }
}
