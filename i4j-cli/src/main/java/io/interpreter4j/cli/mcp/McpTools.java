package io.interpreter4j.cli.mcp;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.session.Session;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * What {@code i4j mcp} offers its client: the tools {@code execute} (a block in this connection's session, whose
 * interpreters keep their state), {@code run_task} (a whole turn with the configured model) and
 * {@code list_languages}, and the resource {@code i4j://sessions/{id}/transcript}. The session is made on the first
 * call, when the client's capabilities are known (whether it can be asked to approve a block). One call runs at a
 * time; its live output and steps go to the client as logging and progress notifications while it runs.
 */
public final class McpTools {
  /** The resource template of a session's transcript. */
  public static final String TRANSCRIPT = "i4j://sessions/{id}/transcript";
  private static final Pattern TRANSCRIPT_URI = Pattern.compile("i4j://sessions/([^/]+)/transcript");
  private static final Duration ASK_WAIT = Duration.ofSeconds(10);
  /** How long past the interrupt grace a call waits for a cancelled one to end. */
  private static final Duration CANCEL_SLACK = Duration.ofSeconds(5);
  /** Notifications waiting to be sent for the running call; past it live output is dropped (and counted). */
  static final int MAX_PENDING_NOTIFICATIONS = 256;

  /** Makes this connection's session: its id and actor, with the given approver and event subscriber. */
  public interface SessionStarter {
    Started start(Approver approver, Consumer<Event> subscriber);
  }

  public record Started(String id, ActorRef<Session.Command> session) {}

  private final Settings settings;
  private final SessionStarter starter;
  private final Scheduler scheduler;
  private final Executor blocking;
  private final Supplier<List<String>> languages;
  private final ReentrantLock oneCall = new ReentrantLock();
  private volatile Started session;
  private volatile Call current;
  private volatile Consumer<McpServerFeatures.SyncResourceSpecification> resources = r -> { };

  /**
   * @param languages the installed languages with their versions (probes the machine once)
   */
  public McpTools(Settings settings, SessionStarter starter, Scheduler scheduler, Executor blocking,
                  Supplier<List<String>> languages) {
    this.settings = settings;
    this.starter = starter;
    this.scheduler = scheduler;
    this.blocking = blocking;
    this.languages = languages;
  }

  public List<McpServerFeatures.SyncToolSpecification> tools() {
    return List.of(
        tool("execute", "Run code on this machine in a persistent interpreter of this connection (variables, imports "
                + "and the shell's directory survive between calls). Returns the output (head and tail when long) "
                + "and 'exit code: N'; a non-zero exit, a timeout or a refusal is an error. Risky code is judged "
                + "and may be refused.",
            Map.of("language", Map.of("type", "string", "description",
                    "python, bash, javascript, ruby, r, ... (see list_languages)"),
                "code", Map.of("type", "string", "description", "the code to run")),
            List.of("language", "code"), this::execute),
        tool("run_task", "Give a task to interpreter4j's own model, which writes and runs code on this machine until it "
                + "is done. Returns its final answer and the blocks it ran.",
            Map.of("prompt", Map.of("type", "string", "description", "what to do, in plain words")),
            List.of("prompt"), this::runTask),
        tool("list_languages", "The languages execute can run here, with their versions.", Map.of(), List.of(),
            this::listLanguages));
  }

  public McpServerFeatures.SyncResourceTemplateSpecification transcripts() {
    McpSchema.ResourceTemplate template = McpSchema.ResourceTemplate.builder()
        .uriTemplate(TRANSCRIPT).name("transcript").title("Session transcript")
        .description("The transcript of an i4j session of this server, as markdown").mimeType("text/markdown")
        .build();
    return new McpServerFeatures.SyncResourceTemplateSpecification(template, (exchange, request) -> read(request));
  }

  /** Where the session's transcript is listed as a resource once the session exists (the server's resources). */
  public void listResourcesIn(Consumer<McpServerFeatures.SyncResourceSpecification> sink) {
    this.resources = sink;
  }

  /** The client cancelled a call: the running one is interrupted (the model call, the question or the code). */
  public void cancelRunning() {
    Started s = session;
    Call running = current;
    if (running != null && s != null) {
      running.cancelled = true;
      s.session().tell(Session.Interrupt.INSTANCE);
    }
  }

  /** Stops the session (its interpreters with it). */
  public void close() {
    Started s = session;
    if (s != null) {
      s.session().tell(Session.Stop.INSTANCE);
    }
  }

  // ---- tools ----

  private McpSchema.CallToolResult execute(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    String language = text(request, "language");
    String code = text(request, "code");
    if (language == null || code == null) {
      return error("execute needs \"language\" and \"code\", both strings");
    }
    return run(exchange, request, replyTo -> new Session.RunCode(language, code, replyTo),
        call -> result(call.executeText(settings.maxOutput()), call.executeFailed()));
  }

  private McpSchema.CallToolResult runTask(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    String prompt = text(request, "prompt");
    if (prompt == null) {
      return error("run_task needs \"prompt\", a string saying what to do");
    }
    return run(exchange, request, replyTo -> new Session.UserMessage(prompt, replyTo),
        call -> result(call.taskText(), call.taskFailed()));
  }

  private McpSchema.CallToolResult listLanguages(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    return result(String.join("\n", languages.get()), false);
  }

  /** Starts a turn in the session, follows it to its end and answers with what {@code answer} makes of it. */
  private McpSchema.CallToolResult run(McpSyncServerExchange exchange, McpSchema.CallToolRequest request,
                                       Function<ActorRef<Session.TurnStart>, Session.Command> message,
                                       Function<CallRecord, McpSchema.CallToolResult> answer) {
    if (!takeTurn()) {
      return error("another call of this connection is running; wait for it to finish (or cancel it)");
    }
    try {
      Started s = session(exchange);
      Call call = new Call(exchange, request.progressToken());
      current = call;
      Session.TurnStart start = AskPattern.<Session.Command, Session.TurnStart>ask(s.session(), message::apply,
          ASK_WAIT, scheduler).toCompletableFuture().get(ASK_WAIT.toSeconds() + 5, TimeUnit.SECONDS);
      if (!start.started()) {
        return error(start.reason());
      }
      call.done.get();
      call.flushed().get(ASK_WAIT.toSeconds(), TimeUnit.SECONDS);
      return answer.apply(call.record);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancelRunning();
      return error("interrupted while waiting for the session");
    } catch (ExecutionException | TimeoutException e) {
      return error("the session did not answer: " + e);
    } finally {
      current = null;
      oneCall.unlock();
    }
  }

  /**
   * The right to run a call: at once, or, when the running call was cancelled, as soon as it has ended (its code is
   * being interrupted: at most the interrupt grace and a little).
   */
  private boolean takeTurn() {
    if (oneCall.tryLock()) {
      return true;
    }
    Call running = current;
    if (running == null || !running.cancelled) {
      return false;
    }
    try {
      return oneCall.tryLock(settings.interruptGrace().plus(CANCEL_SLACK).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private synchronized Started session(McpSyncServerExchange exchange) {
    if (session == null) {
      AnalysisContext context = AnalysisContext.of(settings.workdir(), Path.of(System.getProperty("user.home")));
      session = starter.start(new McpApprover(exchange, context, blocking), this::onEvent);
      String uri = TRANSCRIPT.replace("{id}", session.id());
      resources.accept(new McpServerFeatures.SyncResourceSpecification(McpSchema.Resource.builder().uri(uri)
          .name("transcript-" + session.id()).title("Transcript of session " + session.id())
          .description("This connection's i4j session, as markdown").mimeType("text/markdown").build(),
          (ex, request) -> read(request)));
    }
    return session;
  }

  /** The session's subscriber, on its thread: hands the event to the running call. */
  private void onEvent(Event event) {
    Call call = current;
    if (call != null) {
      call.accept(event);
    }
  }

  // ---- resources ----

  private McpSchema.ReadResourceResult read(McpSchema.ReadResourceRequest request) {
    Matcher m = TRANSCRIPT_URI.matcher(request.uri());
    Started s = session;
    if (!m.matches() || s == null || !s.id().equals(m.group(1))) {
      throw new IllegalArgumentException("no such resource: " + request.uri() + (s == null
          ? " (no session yet: call a tool first)" : " (this server's session is " + s.id() + ")"));
    }
    Path journal = settings.dataDir().resolve("sessions").resolve(s.id()).resolve("events.jsonl");
    List<Event> events;
    try (Stream<String> lines = Files.lines(journal)) {
      events = lines.filter(l -> !l.isBlank()).map(EventCodec::fromJson).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the journal " + journal + ": " + e.getMessage(), e);
    }
    return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(request.uri(), "text/markdown",
        TranscriptMarkdown.render(s.id(), events))));
  }

  // ---- helpers ----

  private static McpServerFeatures.SyncToolSpecification tool(String name, String description,
      Map<String, Object> properties, List<String> required,
      java.util.function.BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult> call) {
    McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description)
        .inputSchema(new McpSchema.JsonSchema("object", properties, required, false, null, null))
        .build();
    return McpServerFeatures.SyncToolSpecification.builder().tool(tool).callHandler(call).build();
  }

  private static String text(McpSchema.CallToolRequest request, String name) {
    Object v = request.arguments() == null ? null : request.arguments().get(name);
    return v instanceof String s && !s.isBlank() ? s : null;
  }

  private static McpSchema.CallToolResult result(String text, boolean isError) {
    return McpSchema.CallToolResult.builder().addTextContent(text).isError(isError).build();
  }

  private static McpSchema.CallToolResult error(String text) {
    return result(text, true);
  }

  /**
   * One running call: its record, and its notifications, sent in order off the session's thread (a bounded number
   * waiting; live output beyond it is dropped and the drop said once).
   */
  private final class Call {
    final CallRecord record = new CallRecord();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    volatile boolean cancelled;
    private final McpSyncServerExchange exchange;
    private final Object progressToken;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();
    private CompletableFuture<Void> sent = CompletableFuture.completedFuture(null);
    private int progress;

    Call(McpSyncServerExchange exchange, Object progressToken) {
      this.exchange = exchange;
      this.progressToken = progressToken;
    }

    void accept(Event event) {
      record.accept(event);
      EventPayload p = event.payload();
      if (p instanceof EventPayload.Output o) {
        notify(o.text(), true);
      } else if (p instanceof EventPayload.ExecStarted s) {
        notify("running block " + s.block() + " (" + s.language() + ")", false);
      } else if (p instanceof EventPayload.ApprovalRequested a) {
        notify("block " + a.block() + " waits for approval", false);
      } else if (p instanceof EventPayload.ExecFinished f) {
        notify("block " + f.block() + " exited with " + f.exit_code(), false);
      }
      if (record.finished()) {
        done.complete(null);
      }
    }

    /** Completes when every notification queued so far has been sent. */
    synchronized CompletableFuture<Void> flushed() {
      return sent;
    }

    private synchronized void notify(String text, boolean output) {
      if (pending.get() >= MAX_PENDING_NOTIFICATIONS) {
        dropped.incrementAndGet();
        return;
      }
      pending.incrementAndGet();
      int step = ++progress;
      sent = sent.thenRunAsync(() -> {
        try {
          int lost = dropped.getAndSet(0);
          String data = lost == 0 ? text : "[" + lost + " notifications dropped: the client reads slower than the "
              + "code writes]\n" + text;
          if (output) {
            exchange.loggingNotification(new McpSchema.LoggingMessageNotification(McpSchema.LoggingLevel.INFO,
                "i4j.output", data));
          }
          if (progressToken != null) {
            exchange.progressNotification(new McpSchema.ProgressNotification(progressToken, step, null, data));
          }
        } catch (RuntimeException e) {
          // the client went away or refused a notification: the call's result still goes out
        } finally {
          pending.decrementAndGet();
        }
      }, blocking);
    }
  }
}
