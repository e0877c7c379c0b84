// The official MCP TypeScript SDK's client driving `i4j mcp` over stdio, one scenario per run:
//   node mcp-client.mjs SCENARIO   with I4J_MCP_COMMAND, I4J_MCP_ARGS (a JSON array) and I4J_MCP_ENV (a JSON object)
// Prints one JSON object with what the client saw; McpClientTest checks it. Exits 1 on an unexpected error.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const transport = new StdioClientTransport({
  command: process.env.I4J_MCP_COMMAND,
  args: JSON.parse(process.env.I4J_MCP_ARGS),
  env: { ...getDefaultEnvironment(), ...JSON.parse(process.env.I4J_MCP_ENV ?? "{}") },
  stderr: "inherit",
});
const client = new Client({ name: "i4j-mcp-test", version: "1.0.0" });
const logged = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logged.push(n.params.data));
const timeout = { timeout: 120_000 };
const text = (result) => result.content.map((c) => c.text).join("");

const scenarios = {
  // listTools, execute twice in one interpreter, a non-zero exit, rm -rf ~ refused
  async tools() {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const progress = [];
    const first = await client.callTool({ name: "execute", arguments: { language: "python", code: "x = 41\nprint('set')" } },
      undefined, { ...timeout, onprogress: (p) => progress.push(p.message) });
    const second = await client.callTool({ name: "execute", arguments: { language: "python", code: "print(x + 1)" } },
      undefined, timeout);
    const failing = await client.callTool({ name: "execute", arguments: { language: "bash", code: "echo about to fail; exit 3" } },
      undefined, timeout);
    const dangerous = await client.callTool({ name: "execute", arguments: { language: "bash", code: "rm -rf ~" } },
      undefined, timeout);
    const languages = await client.callTool({ name: "list_languages", arguments: {} }, undefined, timeout);
    return {
      tools,
      first: { text: text(first), isError: first.isError ?? false },
      second: { text: text(second), isError: second.isError ?? false },
      failing: { text: text(failing), isError: failing.isError ?? false },
      dangerous: { text: text(dangerous), isError: dangerous.isError ?? false },
      languages: text(languages),
      progress,
      logged,
    };
  },

  // a cancelled call interrupts its block; the session takes the next call at once
  async cancel() {
    const controller = new AbortController();
    let cancelled = null;
    try {
      await client.callTool({ name: "execute", arguments: { language: "bash", code: "echo started; sleep 120; echo never" } },
        undefined, { ...timeout, signal: controller.signal,
          onprogress: (p) => { if (p.message?.includes("started")) controller.abort("the user pressed stop"); } });
    } catch (e) {
      cancelled = e.name ?? e.constructor.name;
    }
    const next = await client.callTool({ name: "execute", arguments: { language: "bash", code: "echo next" } },
      undefined, timeout);
    return { cancelled, next: text(next) };
  },

  // run_task with the configured (replay) model, then the session's transcript resource
  async task() {
    const result = await client.callTool({ name: "run_task", arguments: { prompt: "What is 6 times 7?" } },
      undefined, timeout);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    const transcript = (await client.readResource({ uri: resources[0] })).contents[0];
    return { text: text(result), isError: result.isError ?? false, templates, resources,
      transcript: { mimeType: transcript.mimeType, text: transcript.text } };
  },

};

const name = process.argv[2];
if (!scenarios[name]) {
  console.error(`unknown scenario '${name}'; one of: ${Object.keys(scenarios).join(", ")}`);
  process.exit(2);
}
try {
  await client.connect(transport, { timeout: 120_000 }); // a child JVM on a busy machine starts slowly
  const seen = await scenarios[name]();
  await client.close();
  console.log(JSON.stringify(seen));
} catch (e) {
  console.error(`${name} failed: ${e.constructor.name}: ${e.message}`);
  await client.close().catch(() => {});
  process.exit(1);
}
