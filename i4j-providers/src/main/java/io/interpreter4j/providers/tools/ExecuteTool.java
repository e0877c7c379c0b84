package io.interpreter4j.providers.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ChatMessage.Role;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import java.util.ArrayList;
import java.util.List;

/** The one function a model calls in tool mode, {@code execute(language, code)}, in each provider's dialect. */
public final class ExecuteTool {

  public static final String NAME = "execute";

  static final String DESCRIPTION = "Run code on the user's machine and get back its exit code and output. "
      + "Send one block at a time and wait for its result before the next. Each language keeps one persistent "
      + "session: variables, imports and the shell's current directory carry over from call to call.";

  /** Added to the system prompt in tool mode, which otherwise asks for markdown code blocks. */
  public static final String SYSTEM_NOTE = """
      # Running code
      In this conversation you run code by calling the `execute` function with `language` and `code`, one call \
      at a time; its result comes back as the function's result. Write everything else as plain text.""";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ExecuteTool() {}

  /** JSON Schema of the arguments: {@code language} (one of the session's languages) and {@code code}. */
  static ObjectNode parameters() {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    ObjectNode language = properties.putObject("language").put("type", "string")
        .put("description", "The language of the code");
    LanguageRegistry.shared().discover().forEach(l -> language.withArray("enum").add(l.name()));
    properties.putObject("code").put("type", "string").put("description", "The code to run");
    schema.putArray("required").add("language").add("code");
    return schema;
  }

  /** An element of Chat Completions' {@code tools}. */
  public static ObjectNode openAi() {
    ObjectNode tool = JSON.createObjectNode().put("type", "function");
    tool.putObject("function").put("name", NAME).put("description", DESCRIPTION).set("parameters", parameters());
    return tool;
  }

  /** An element of the Messages API's {@code tools}. */
  public static ObjectNode anthropic() {
    ObjectNode tool = JSON.createObjectNode().put("name", NAME).put("description", DESCRIPTION);
    tool.set("input_schema", parameters());
    return tool;
  }

  /** The conversation with {@link #SYSTEM_NOTE} added to its system prompt (or as one, when it has none). */
  public static List<ChatMessage> withSystemNote(List<ChatMessage> messages) {
    List<ChatMessage> out = new ArrayList<>(messages);
    String note = ComputerTool.active() ? SYSTEM_NOTE + "\n\n" + ComputerTool.SYSTEM_NOTE : SYSTEM_NOTE;
    if (!out.isEmpty() && out.get(0).role() == Role.SYSTEM) {
      out.set(0, ChatMessage.system(out.get(0).content().stripTrailing() + "\n\n" + note));
    } else {
      out.add(0, ChatMessage.system(note));
    }
    return out;
  }
}
