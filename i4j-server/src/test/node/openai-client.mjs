// The official OpenAI SDK driving i4j serve's /v1 endpoint, one scenario per run:
//   node openai-client.mjs SCENARIO    with I4J_BASE_URL (http://127.0.0.1:PORT/v1) and I4J_TOKEN set
// Prints one JSON object with what the client saw; OpenAiClientTest checks it. Exits 1 on an unexpected error.
import OpenAI from "openai";

const baseURL = process.env.I4J_BASE_URL;
const apiKey = process.env.I4J_TOKEN;
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 60_000 });
const ask = (content) => [{ role: "user", content }];

const scenarios = {
  // for await over the chunks of a streamed answer, the session id from the response header
  async stream() {
    const { data: stream, response } = await client.chat.completions
      .create({ model: "i4j", messages: ask("compute"), stream: true, stream_options: { include_usage: true } })
      .withResponse();
    let content = "";
    let role = null;
    let finish = null;
    let usage = null;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices) {
        if (choice.delta.role) role = choice.delta.role;
        if (choice.delta.content) content += choice.delta.content;
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    }
    return { content, role, finish, usage, chunks, session: response.headers.get("x-i4j-session") };
  },

  // the SDK's stream helper and its finalChatCompletion()
  async final() {
    const stream = client.chat.completions.stream({ model: "i4j", messages: ask("compute") });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0];
    return { content: choice.message.content, role: choice.message.role, finish: choice.finish_reason,
      object: completion.object, model: completion.model };
  },

  async plain() {
    const completion = await client.chat.completions.create({ model: "i4j", messages: ask("compute") });
    const choice = completion.choices[0];
    return { content: choice.message.content, finish: choice.finish_reason, usage: completion.usage,
      object: completion.object, id: completion.id };
  },

  async badToken() {
    const wrong = new OpenAI({ baseURL, apiKey: "not-the-token", maxRetries: 0 });
    try {
      await wrong.chat.completions.create({ model: "i4j", messages: ask("hello") });
      return { raised: null };
    } catch (e) {
      return { raised: e.constructor.name, authenticationError: e instanceof OpenAI.AuthenticationError,
        status: e.status, type: e.type, code: e.code, message: e.message };
    }
  },

  // two turns in one session: the second names it with X-I4J-Session and sees the first one's variable
  async continueSession() {
    const first = await client.chat.completions
      .create({ model: "i4j", messages: ask("set x") }).withResponse();
    const session = first.response.headers.get("x-i4j-session");
    const second = await client.chat.completions.create(
      { model: "i4j", messages: [...ask("set x"), first.data.choices[0].message, ...ask("use x")] },
      { headers: { "X-I4J-Session": session } });
    const again = await client.chat.completions
      .create({ model: "i4j", messages: ask("use x") }, { headers: { "X-I4J-Session": session } })
      .withResponse();
    return { session, first: first.data.choices[0].message.content, second: second.choices[0].message.content,
      sameSession: again.response.headers.get("x-i4j-session") === session,
      third: again.data.choices[0].message.content };
  },

  // abort the request while a long block runs: the turn and its code are interrupted
  async abort() {
    const controller = new AbortController();
    const { data: stream, response } = await client.chat.completions
      .create({ model: "i4j", messages: ask("wait"), stream: true }, { signal: controller.signal })
      .withResponse();
    let content = "";
    let aborted = false;
    try {
      for await (const chunk of stream) {
        for (const choice of chunk.choices) content += choice.delta.content ?? "";
        if (!aborted && content.includes("```output\nlong block started")) {
          aborted = true;
          controller.abort();
        }
      }
    } catch (e) {
      if (!(aborted && (e instanceof OpenAI.APIUserAbortError || e.name === "AbortError"))) throw e;
    }
    return { aborted, content, session: response.headers.get("x-i4j-session") };
  },
};

const name = process.argv[2];
if (!scenarios[name]) {
  console.error(`unknown scenario '${name}'; one of: ${Object.keys(scenarios).join(", ")}`);
  process.exit(2);
}
try {
  console.log(JSON.stringify(await scenarios[name]()));
} catch (e) {
  console.error(`${name} failed: ${e.constructor.name}: ${e.message}`);
  process.exit(1);
}
