package io.interpreter4j.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.cli.mcp.McpTools;
import io.interpreter4j.cli.mcp.NoModel;
import io.interpreter4j.cli.mcp.ProtocolWatch;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionManager;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code i4j mcp}: an MCP server on stdio (the official MCP Java SDK) for agents such as Claude Desktop, Codex or
 * Cursor: tools to run code in a session of this machine ({@code execute}), to run a whole task with the configured
 * model ({@code run_task}) and to list the languages, and the session's transcript as a resource. Stdout carries
 * protocol messages only; everything else goes to stderr.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
        "Serve interpreter4j to an MCP client over stdio: the tools execute, run_task and list_languages, and "
            + "the resource i4j://sessions/{id}/transcript.",
        "The danger analysis and the policy rules judge every block; -y runs allowed blocks without asking, high-risk "
            + "ones are refused unless --dangerously-allow-all. See docs/mcp.md."},
    footer = {"", "Example (in an MCP client's configuration):", "  i4j mcp -y --workdir ~/scratch"})
final class McpCommand implements Callable<Integer> {

  @Mixin CommonOptions options;

  @Override
  public Integer call() throws Exception {
    // the protocol owns stdout: whatever else prints (a library, a notice) goes to stderr
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false);
    System.setOut(System.err);
    Map<String, String> env = System.getenv();
    SessionLauncher launcher = new SessionLauncher(options, env, System.err);
    ActorSystem<SessionManager.Command> system = CliSession.startSystem(launcher.config);
    try {
      ModelProvider model = model(launcher, system);
      Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
      McpTools tools = new McpTools(launcher.settings, (approver, subscriber) -> {
        String id = SessionIds.next();
        // probed on the first call (it runs python), so that the client's initialize is answered at once
        HostInfo host = CliSession.host(launcher.settings, env);
        CliSession session = CliSession.start(system, id, launcher.settings, model, approver, List.of(subscriber),
            host);
        System.err.println("i4j mcp: session " + id + " (transcript: " + McpTools.TRANSCRIPT.replace("{id}", id)
            + ")");
        return new McpTools.Started(id, session.ref());
      }, system.scheduler(), blocking, Session::languages);
      ProtocolWatch in = new ProtocolWatch(System.in, tools::cancelRunning);
      StdioServerTransportProvider transport = new StdioServerTransportProvider(
          new JacksonMcpJsonMapper(new ObjectMapper()), in, protocol);
      McpSyncServer server = McpServer.sync(transport)
          .serverInfo("interpreter4j", VersionProvider.version())
          .instructions("Runs code on the user's machine: execute (a persistent interpreter per language), run_task "
              + "(interpreter4j's own model does a whole task), list_languages.")
          .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, true).logging().build())
          .tools(tools.tools())
          .resourceTemplates(tools.transcripts())
          .build();
      tools.listResourcesIn(resource -> {
        server.addResource(resource);
        server.notifyResourcesListChanged();
      });
      in.closed().join(); // the client has closed our stdin: it has gone
      tools.close();
      server.closeGracefully();
      return 0;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** The configured model, or one that says why there is none ({@code execute} needs no model). */
  private ModelProvider model(SessionLauncher launcher, ActorSystem<?> system) {
    try {
      return launcher.models(options, system).apply(null);
    } catch (IllegalArgumentException | ModelFactory.UsageException e) {
      System.err.println("i4j mcp: no model, run_task will fail: " + e.getMessage());
      return new NoModel(e.getMessage());
    }
  }
}
