package io.interpreter4j.providers.testing;

import static io.interpreter4j.providers.testing.FakeModelServer.jsonString;

/**
 * A reply whose code is {@value #CODE}, in one wire format and mode, in parts: {@link #head} (up to the code),
 * {@link #firstHalf} (the code up to its last parenthesis), then either the rest with the natural end
 * ({@link #whole}) or a natural end right there (the model ran out of tokens: {@link #endOfTokens}).
 */
public enum WireReply {
  OPENAI_MARKDOWN("openai/gpt-4o-mini", false, "finish_reason or [DONE]"),
  OPENAI_TOOLS("openai/gpt-4o-mini", true, "finish_reason or [DONE]"),
  ANTHROPIC_MARKDOWN("anthropic/claude-sonnet-4-5", false, "message_stop"),
  ANTHROPIC_TOOLS("anthropic/claude-sonnet-4-5", true, "message_stop");

  /** The code of a whole reply. */
  public static final String CODE = "print(str(6*7))";
  /** The code as far as {@link #firstHalf} goes. */
  public static final String HALF = "print(str(6*7)";

  private final String model;
  private final boolean tools;
  private final String expectedEnd;

  WireReply(String model, boolean tools, String expectedEnd) {
    this.model = model;
    this.tools = tools;
    this.expectedEnd = expectedEnd;
  }

  public String model() {
    return model;
  }

  public boolean tools() {
    return tools;
  }

  public String expectedEnd() {
    return expectedEnd;
  }

  private boolean openAi() {
    return this == OPENAI_MARKDOWN || this == OPENAI_TOOLS;
  }

  /** The reply's first events, which carry no text. */
  public String silentHead() {
    return openAi()
        ? openAi("{\"role\":\"assistant\",\"content\":\"\"}", null)
        : anthropic("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"role\":"
            + "\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":20,\"output_tokens\":1}}}");
  }

  public String head() {
    if (openAi()) {
      return silentHead() + (tools
          ? openAi("{\"content\":\"Computing.\"}", null) + openAi("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
              + "\"type\":\"function\",\"function\":{\"name\":\"execute\",\"arguments\":\"\"}}]}", null)
          : openAi("{\"content\":" + jsonString("Computing.\n\n```python\n") + "}", null));
    }
    String text = anthropic("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
        + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
        + textDelta(tools ? "Computing." : "Computing.\n\n```python\n");
    return silentHead() + text + (tools
        ? anthropic("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
            + anthropic("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"execute\",\"input\":{}}}")
        : "");
  }

  public String firstHalf() {
    return piece(tools ? "{\"language\": \"python\", \"code\": \"" + HALF : HALF);
  }

  public String whole() {
    String rest = piece(tools ? ")\"}" : ")\n```\nDone.");
    return head() + firstHalf() + rest + (openAi()
        ? openAi("{}", tools ? "tool_calls" : "stop") + openAiUsage() + "data: [DONE]\n\n"
        : blockStop() + messageEnd(tools ? "tool_use" : "end_turn"));
  }

  /** A whole reply of {@code text} alone. */
  public String text(String text) {
    return openAi()
        ? silentHead() + openAi("{\"content\":" + jsonString(text) + "}", null) + openAi("{}", "stop") + openAiUsage()
            + "data: [DONE]\n\n"
        : silentHead() + anthropic("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,"
            + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}") + textDelta(text)
            + anthropic("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
            + messageEnd("end_turn");
  }

  /** The natural end of a reply that ran out of tokens where it stands. */
  public String endOfTokens() {
    return openAi()
        ? openAi("{}", "length") + openAiUsage() + "data: [DONE]\n\n"
        : blockStop() + messageEnd("max_tokens");
  }

  private String piece(String text) {
    if (openAi()) {
      return tools
          ? openAi("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":" + jsonString(text) + "}}]}", null)
          : openAi("{\"content\":" + jsonString(text) + "}", null);
    }
    return tools
        ? anthropic("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
            + "{\"type\":\"input_json_delta\",\"partial_json\":" + jsonString(text) + "}}")
        : textDelta(text);
  }

  private String blockStop() {
    return anthropic("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + (tools ? 1 : 0) + "}");
  }

  private static String openAi(String delta, String finishReason) {
    return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":" + delta
        + ",\"finish_reason\":" + (finishReason == null ? "null" : "\"" + finishReason + "\"") + "}]}\n\n";
  }

  private static String openAiUsage() {
    return "data: {\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":9}}\n\n";
  }

  private static String textDelta(String text) {
    return anthropic("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
        + "\"delta\":{\"type\":\"text_delta\",\"text\":" + jsonString(text) + "}}");
  }

  private static String messageEnd(String stopReason) {
    return anthropic("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason
        + "\"},\"usage\":{\"output_tokens\":9}}") + anthropic("message_stop", "{\"type\":\"message_stop\"}");
  }

  private static String anthropic(String event, String data) {
    return "event: " + event + "\ndata: " + data + "\n\n";
  }
}
