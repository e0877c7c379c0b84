package io.interpreter4j.cluster.serve;

import io.interpreter4j.cluster.ClusterMessage;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Which HTTP address each node of the cluster serves at, so that a node can pass a request on to the node where a
 * session runs. One per node, registered with the receptionist; it asks every directory the receptionist lists for
 * its node's address and keeps the answers in a map the routes read.
 */
public final class NodeDirectory extends AbstractBehavior<NodeDirectory.Command> {
  public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "i4j-node-directory");
  private static final Duration ASK = Duration.ofSeconds(5);

  public interface Command extends ClusterMessage {}

  public record GetNode(ActorRef<Node> replyTo) implements Command {}

  /** A node: its cluster address and the base URL of its HTTP API (null until it listens). */
  public record Node(String address, String url) implements ClusterMessage {}

  private record Listed(Set<ActorRef<Command>> directories) implements Command {}

  private record Heard(Node node) implements Command {}

  /** Ask every directory again: a node that did not listen yet when first asked answers now. */
  private enum Refresh implements Command { INSTANCE }

  static final Duration REFRESH = Duration.ofSeconds(2);

  /**
   * @param ownUrl this node's HTTP base URL, once it listens
   * @param nodes  filled here: cluster address to HTTP base URL, this node's included
   */
  public static Behavior<Command> create(Supplier<String> ownUrl, Map<String, String> nodes) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(Refresh.INSTANCE, REFRESH);
      return new NodeDirectory(ctx, ownUrl, nodes);
    }));
  }

  private final Supplier<String> ownUrl;
  private final Map<String, String> nodes;
  private final String self;
  private Set<ActorRef<Command>> directories = Set.of();

  private NodeDirectory(ActorContext<Command> context, Supplier<String> ownUrl, Map<String, String> nodes) {
    super(context);
    this.ownUrl = ownUrl;
    this.nodes = nodes;
    this.self = Cluster.get(context.getSystem()).selfMember().address().toString();
    context.getSystem().receptionist().tell(Receptionist.register(KEY, context.getSelf()));
    ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class,
        listing -> new Listed(listing.getServiceInstances(KEY)));
    context.getSystem().receptionist().tell(Receptionist.subscribe(KEY, listings));
  }

  /** A map to pass to {@link #create}. */
  public static Map<String, String> newMap() {
    return new ConcurrentHashMap<>();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(GetNode.class, this::onGetNode)
        .onMessage(Listed.class, this::onListed)
        .onMessage(Heard.class, this::onHeard)
        .onMessageEquals(Refresh.INSTANCE, this::askAll)
        .build();
  }

  private Behavior<Command> onGetNode(GetNode m) {
    m.replyTo().tell(new Node(self, ownUrl.get()));
    return this;
  }

  private Behavior<Command> onListed(Listed m) {
    directories = m.directories();
    Set<String> listed = ConcurrentHashMap.newKeySet();
    for (ActorRef<Command> directory : directories) {
      listed.add(directory.path().address().hasLocalScope() ? self : directory.path().address().toString());
    }
    nodes.keySet().retainAll(listed);
    return askAll();
  }

  private Behavior<Command> askAll() {
    for (ActorRef<Command> directory : directories) {
      getContext().ask(Node.class, directory, ASK, GetNode::new, (node, failure) -> new Heard(node));
    }
    return this;
  }

  private Behavior<Command> onHeard(Heard m) {
    if (m.node() != null && m.node().url() != null) {
      nodes.put(m.node().address(), m.node().url());
    }
    return this;
  }
}
