package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.ApprovalDecision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the dashboard shows about one session, derived only from its events: status, title, model, counters, the
 * block waiting for approval and the block running. Written on the session's thread, read by HTTP requests: every
 * method is synchronized and cheap.
 */
public final class SessionView {

  /** Statuses in which a turn is running (the session actor itself refuses a new message then). */
  public static final Set<String> RUNNING = Set.of("streaming", "awaiting_approval", "executing");

  /** A block waiting for a person's decision. {@code risk} and {@code flags} are copied when the event has them. */
  public record PendingApproval(int block, String language, String code, JsonNode risk, JsonNode flags) {}

  private final String id;
  private String status = "idle";
  private String title = "";
  private String resumedFrom;
  private String model = "";
  private int iterations;
  private Instant started;
  private Instant lastActivity;
  private long inputTokens;
  private long outputTokens;
  private PendingApproval pendingApproval;
  private Integer runningBlock;
  private String runningLanguage;
  private int lastBlock;
  private long lastSeq;
  private boolean stopped;
  private final Map<Integer, String> decisions = new HashMap<>();
  private final Map<Integer, String> outputFiles = new HashMap<>();
  /** Blocks that ended without an output file: their whole output is in their {@code output} events. */
  private final Set<Integer> outputInEvents = new HashSet<>();
  /** The images' events in the order shown: {@code GET /api/sessions/{id}/images/{n}} serves the n-th. */
  private final java.util.List<EventPayload.Image> images = new java.util.ArrayList<>();
  /** The html events in order: {@code GET /api/sessions/{id}/html/{n}} serves the n-th. */
  private final java.util.List<EventPayload.Html> htmlDocuments = new java.util.ArrayList<>();
  private final Set<String> languagesStarted = new LinkedHashSet<>();

  public SessionView(String id, Instant created) {
    this.id = id;
    this.started = created;
    this.lastActivity = created;
  }

  public String id() {
    return id;
  }

  /** Folds one event into the view. */
  public synchronized void apply(Event event) {
    lastSeq = event.seq();
    lastActivity = event.ts();
    EventPayload p = event.payload();
    if (p instanceof EventPayload.SessionStarted s) {
      model = s.model();
      started = event.ts();
    } else if (p instanceof EventPayload.UserMessage m) {
      if (title.isEmpty()) {
        title = titleOf(m.text());
      }
      status = "streaming";
      iterations = 0;
    } else if (p instanceof EventPayload.Conversation c) {
      onConversation(c);
    } else if (p instanceof EventPayload.AssistantDelta) {
      if (!"awaiting_approval".equals(status)) {
        status = "streaming";
      }
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      lastBlock = Math.max(lastBlock, c.block());
    } else if (p instanceof EventPayload.AssistantMessage) {
      iterations++;
    } else if (p instanceof EventPayload.ApprovalRequested a) {
      ObjectNode node = EventCodec.toNode(event);
      pendingApproval = new PendingApproval(a.block(), a.language(), a.code(), node.get("risk"), node.get("flags"));
      lastBlock = Math.max(lastBlock, a.block());
      status = "awaiting_approval";
    } else if (p instanceof EventPayload.Approval a) {
      decisions.put(a.block(), a.decision() + " by " + a.by());
      lastBlock = Math.max(lastBlock, a.block());
      if (pendingApproval != null && pendingApproval.block() == a.block()) {
        pendingApproval = null;
      }
      status = a.decision() == ApprovalDecision.DENIED ? "streaming" : "executing";
    } else if (p instanceof EventPayload.ExecStarted e) {
      status = "executing";
      runningBlock = e.block();
      runningLanguage = e.language();
      languagesStarted.add(e.language());
    } else if (p instanceof EventPayload.Image i) {
      images.add(i);
    } else if (p instanceof EventPayload.Html h) {
      htmlDocuments.add(h);
    } else if (p instanceof EventPayload.ExecFinished f) {
      if (f.output_file() != null) {
        outputFiles.put(f.block(), f.output_file());
      } else {
        outputInEvents.add(f.block());
      }
      runningBlock = null;
      runningLanguage = null;
    } else if (p instanceof EventPayload.Usage u) {
      inputTokens += u.input_tokens();
      outputTokens += u.output_tokens();
    } else if (p instanceof EventPayload.TurnFinished t) {
      status = t.status().wire();
      iterations = t.iterations();
      pendingApproval = null;
      runningBlock = null;
      runningLanguage = null;
    }
  }

  /**
   * A conversation put in place ({@code i4j resume}, {@code %load}): a session not yet titled takes the title of its
   * first user message, as {@code i4j sessions} does, so a resumed session is recognisable before its first turn.
   */
  private void onConversation(EventPayload.Conversation c) {
    if ("resume".equals(c.reason()) && resumedFrom == null && c.source() != null && !c.source().isBlank()) {
      resumedFrom = c.source();
    }
    if (title.isEmpty() && ("resume".equals(c.reason()) || "load".equals(c.reason())) && c.messages() != null) {
      c.messages().stream().filter(m -> "user".equals(m.role())).findFirst()
          .ifPresent(m -> title = titleOf(m.content()));
    }
  }

  public synchronized void markStopped() {
    stopped = true;
    // The session is gone: nothing waits or runs any more, whatever the last event said.
    pendingApproval = null;
    runningBlock = null;
    runningLanguage = null;
    if (RUNNING.contains(status)) {
      status = "interrupted";
    }
  }

  public synchronized boolean stopped() {
    return stopped;
  }

  public synchronized String status() {
    return status;
  }

  public synchronized PendingApproval pendingApproval() {
    return pendingApproval;
  }

  public synchronized int lastBlock() {
    return lastBlock;
  }

  /** "approved by user", "denied by policy", ... or null when no decision on that block was published. */
  public synchronized String decision(int block) {
    return decisions.get(block);
  }

  /** Whether the block ended with {@code output_file} null: its whole output is in its {@code output} events. */
  public synchronized boolean outputInEvents(int block) {
    return outputInEvents.contains(block);
  }

  /** The {@code output_file} of the block's {@code exec_finished} event, or null. */
  public synchronized String outputFile(int block) {
    return outputFiles.get(block);
  }

  /** The n-th image the session showed (1 for the first), or null. */
  public synchronized EventPayload.Image image(int n) {
    return n >= 1 && n <= images.size() ? images.get(n - 1) : null;
  }

  /** The n-th HTML document the session showed (1 for the first), or null. */
  public synchronized EventPayload.Html html(int n) {
    return n >= 1 && n <= htmlDocuments.size() ? htmlDocuments.get(n - 1) : null;
  }

  public synchronized String runningLanguage() {
    return runningLanguage;
  }

  public synchronized Set<String> languagesStarted() {
    return Set.copyOf(languagesStarted);
  }

  public synchronized long lastSeq() {
    return lastSeq;
  }

  /** The JSON object of {@code GET /api/sessions}. */
  public synchronized ObjectNode toJson() {
    ObjectNode n = EventCodec.mapper().createObjectNode();
    n.put("id", id);
    n.put("status", status);
    n.put("title", title);
    if (resumedFrom == null) {
      n.putNull("resumedFrom");
    } else {
      n.put("resumedFrom", resumedFrom);
    }
    n.put("model", model);
    n.put("iterations", iterations);
    n.put("started", started.toString());
    n.put("lastActivity", lastActivity.toString());
    n.put("inputTokens", inputTokens);
    n.put("outputTokens", outputTokens);
    if (pendingApproval == null) {
      n.putNull("pendingApproval");
    } else {
      ObjectNode a = n.putObject("pendingApproval");
      a.put("block", pendingApproval.block());
      a.put("language", pendingApproval.language());
      a.put("code", pendingApproval.code());
      if (pendingApproval.risk() != null) {
        a.set("risk", pendingApproval.risk());
      }
      if (pendingApproval.flags() != null) {
        a.set("flags", pendingApproval.flags());
      }
    }
    if (runningBlock == null) {
      n.putNull("runningBlock");
    } else {
      n.put("runningBlock", runningBlock);
    }
    n.put("stopped", stopped);
    n.put("lastSeq", lastSeq);
    return n;
  }

  /** The first line of the first message, at most 80 characters (as the session titles itself). */
  static String titleOf(String text) {
    String firstLine = text == null ? "" : text.strip().lines().findFirst().orElse("");
    return firstLine.length() > 80 ? firstLine.substring(0, 77) + "..." : firstLine;
  }
}
