package io.interpreter4j.cluster.serve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.server.hub.SessionEntry;
import io.interpreter4j.server.hub.SessionHub;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * The last step of a node's leave: each session still running here is handed to another node that is {@code Up}
 * (in turn, so that they spread), which starts it from the journal at once; clients' next requests are answered
 * there without waiting for this node to be removed. For each session: its {@link SessionLog} moves its home to the
 * new node ({@link SessionLog.HandOver}: from then on nothing written here is journaled, and requests for it wait),
 * the session stops here, the new node takes it over ({@code POST /api/cluster/take-over}) and tells the log
 * ({@link SessionLog.HandedOver}). A hand-over that fails leaves the session to be taken over on its next request
 * once this node is gone, as after a loss.
 */
public final class SessionHandOver {
  /** The path of the new node's part, answered only to another node (with {@value ClusterRoutes#FORWARDED}). */
  static final String PATH = "/api/cluster/take-over";
  private static final Duration ASK = Duration.ofSeconds(30);
  private static final Duration STOP = Duration.ofSeconds(10);

  /** How many sessions were handed over, and what went wrong with the others. */
  public record Result(int handedOver, List<String> failures) {}

  private final ActorSystem<?> system;
  private final ActorRef<ShardingEnvelope<SessionLog.Command>> journals;
  private final Map<String, String> nodes;
  private final Supplier<String> token;
  private final String self;

  SessionHandOver(ActorSystem<?> system, ActorRef<ShardingEnvelope<SessionLog.Command>> journals,
                  Map<String, String> nodes, Supplier<String> token) {
    this.system = system;
    this.journals = journals;
    this.nodes = nodes;
    this.token = token;
    this.self = Cluster.get(system).selfMember().address().toString();
  }

  /** Hands every live session of {@code hub} over, one after the other; says what it does on {@code said}. */
  public Result handOverAll(SessionHub hub, PrintStream said) {
    List<SessionEntry> live = hub.all().stream().filter(e -> !e.ended() && e.session() != null).toList();
    if (live.isEmpty()) {
      return new Result(0, List.of());
    }
    List<String> targets = targets();
    if (targets.isEmpty()) {
      said.println("i4j: no other node is up to hand " + live.size() + " session" + (live.size() == 1 ? "" : "s")
          + " to; they are taken over on their next request once this node is gone");
      return new Result(0, List.of("no other node is up"));
    }
    said.println("i4j: handing " + live.size() + " session" + (live.size() == 1 ? "" : "s") + " over to "
        + String.join(", ", targets));
    int done = 0;
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < live.size(); i++) {
      SessionEntry entry = live.get(i);
      String to = targets.get(i % targets.size());
      String error = handOver(entry, to);
      if (error == null) {
        done++;
      } else {
        failures.add(entry.id() + ": " + error);
        said.println("i4j: session " + entry.id() + " not handed over (" + error + "); it is taken over on its "
            + "next request once this node is gone");
      }
    }
    said.println("i4j: handed " + done + " session" + (done == 1 ? "" : "s") + " over");
    return new Result(done, failures);
  }

  /** Returns null once the session runs at {@code to}, else what went wrong. */
  private String handOver(SessionEntry entry, String to) {
    String id = entry.id();
    SessionLog.HandingOver moving;
    try {
      moving = AskPattern.<ShardingEnvelope<SessionLog.Command>, SessionLog.HandingOver>ask(journals,
              replyTo -> new ShardingEnvelope<>(id, new SessionLog.HandOver(self, to, replyTo)), ASK,
              system.scheduler())
          .toCompletableFuture().get(ASK.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      return "its journal did not answer: " + e.getMessage();
    }
    if (moving.error() != null) {
      return moving.error();
    }
    // from here on the journal refuses what this node writes: stop the session here before it starts there
    entry.session().tell(Session.Stop.INSTANCE);
    try {
      entry.whenEnded().toCompletableFuture().get(STOP.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      // its processes end with this node; the new node starts from the journal either way
    }
    String url = nodes.get(to);
    if (url == null) { // asked nothing: say so at once
      String error = "the HTTP address of " + to + " is not known here";
      journals.tell(new ShardingEnvelope<>(id, new SessionLog.HandedOver(error)));
      return error;
    }
    // the new node tells the log how it went (an answer lost on the way here does not make it go wrong twice); had
    // the request not reached it, the log gives up after SessionLog.HAND_OVER_WAIT
    return startAt(id, to, url, moving.request());
  }

  /** Asks the node at {@code to} to take the session over; null once it runs there. */
  private String startAt(String id, String to, String url, SessionLog.Request request) {
    ObjectNode body = EventCodec.mapper().createObjectNode();
    body.put("id", id);
    body.put("from", self);
    body.put("autoRun", request.autoRun());
    if (request.maxIterations() != null) {
      body.put("maxIterations", request.maxIterations());
    }
    HttpRequest post = HttpRequest.create(url + PATH).withMethod(HttpMethods.POST)
        .addHeaders(List.of(RawHeader.create("Authorization", "Bearer " + token.get()),
            RawHeader.create(ClusterRoutes.FORWARDED, self)))
        .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, body.toString()));
    try {
      HttpResponse response = Http.get(system).singleRequest(post).toCompletableFuture()
          .get(ASK.toSeconds(), TimeUnit.SECONDS);
      String text = response.entity().toStrict(ASK.toMillis(), system).toCompletableFuture()
          .get(ASK.toSeconds(), TimeUnit.SECONDS).getData().utf8String();
      return response.status().intValue() == 200 ? null
          : to + " answered " + response.status().intValue() + ": " + text;
    } catch (Exception e) {
      return to + " did not answer: " + e.getMessage();
    }
  }

  /** The other nodes that are Up and whose HTTP address is known, in address order. */
  private List<String> targets() {
    List<String> out = new ArrayList<>();
    for (Member m : Cluster.get(system).state().getMembers()) {
      String address = m.address().toString();
      if (!address.equals(self) && m.status().equals(MemberStatus.up()) && nodes.containsKey(address)
          && !Cluster.get(system).state().getUnreachable().contains(m)) {
        out.add(address);
      }
    }
    out.sort(String::compareTo);
    return out;
  }
}
