package io.interpreter4j.cli.mcp;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import io.interpreter4j.core.safety.analysis.Risk;
import io.interpreter4j.runtime.approval.Approver;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Answers the approval gate's questions of an {@code i4j mcp} session (an {@code ask} rule, ask mode) by asking the
 * person behind the MCP client with elicitation, when the client supports it; otherwise nobody can be asked and the
 * block is refused with that reason. High-risk code is refused without asking: the client's person may be an agent
 * approving everything ({@code --dangerously-allow-all} lets it run, and then the gate never asks).
 */
public final class McpApprover implements Approver {
  private final McpSyncServerExchange exchange;
  private final DangerAnalyzer analyzer = new DangerAnalyzer();
  private final AnalysisContext context;
  private final Executor blocking;

  /**
   * @param exchange the connection whose client is asked
   * @param context  what the danger analysis judges paths against (the session's)
   * @param blocking where the elicitation waits for its answer
   */
  public McpApprover(McpSyncServerExchange exchange, AnalysisContext context, Executor blocking) {
    this.exchange = exchange;
    this.context = context;
    this.blocking = blocking;
  }

  /** Whether the client can be asked: it declared the elicitation capability. */
  @Override
  public boolean interactive() {
    McpSchema.ClientCapabilities caps = exchange.getClientCapabilities();
    return caps != null && caps.elicitation() != null;
  }

  @Override
  public CompletionStage<Answer> ask(String sessionId, CodeBlock block) {
    Risk risk = analyzer.analyze(block.language(), block.code(), context);
    if (risk.isHigh()) {
      return CompletableFuture.completedFuture(Answer.no("refused: " + risk.reason()
          + " (i4j mcp runs high-risk code only with --dangerously-allow-all)"));
    }
    if (!interactive()) {
      return CompletableFuture.completedFuture(Answer.noOne("the block needs approval and the MCP client cannot be "
          + "asked (it does not support elicitation); allow it with a policy rule or start i4j mcp with -y"));
    }
    return CompletableFuture.supplyAsync(() -> elicit(block), blocking);
  }

  private Answer elicit(CodeBlock block) {
    Map<String, Object> schema = Map.of("type", "object",
        "properties", Map.of("approve", Map.of("type", "boolean", "title", "Run it",
            "description", "true runs the block on this machine, false refuses it")),
        "required", List.of("approve"));
    McpSchema.ElicitResult result = exchange.createElicitation(McpSchema.ElicitRequest.builder()
        .message("Run this " + block.language() + " block on this machine?\n\n" + block.code())
        .requestedSchema(schema)
        .build());
    if (result.action() == McpSchema.ElicitResult.Action.ACCEPT && result.content() != null
        && Boolean.TRUE.equals(result.content().get("approve"))) {
      return Answer.yes();
    }
    return Answer.no("declined in the MCP client (" + result.action().name().toLowerCase(java.util.Locale.ROOT)
        + ")");
  }
}
