package io.interpreter4j.providers.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.intercept.Fences;
import io.interpreter4j.core.model.ModelException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns the tool calls of one streamed reply into markdown, so that the block interceptor sees them as code blocks
 * while they are being written: an opening fence once the call's {@code language} is known, then the code as its
 * JSON string is decoded, then the closing fence when the arguments' object is complete. The reply's text passes
 * through {@link #text}; calls and text come out in the order they started, a later call waiting for an earlier one
 * to finish. Each complete call is handed to {@code completed} (the provider's {@link ToolCallLedger}), so the next
 * request can give it back to the API in its own form. Each method returns the markdown to emit now ("" for none).
 * Pure; one instance per reply.
 */
public final class ToolCallFences {

  /**
   * Longer than any fence a program is likely to print, so that code containing markdown fences (a README written
   * by a heredoc, say) cannot close the block early. The session shows and keeps the block with its own fences.
   */
  public static final String FENCE = "````````";
  /** Bound of one call's arguments, in characters. */
  public static final int MAX_ARGUMENTS = 4 * 1024 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> LANGUAGE_NAMES = Set.of("python", "python3", "py", "bash", "sh", "shell", "zsh");

  private final Consumer<ExecuteCall> completed;
  private final String idPrefix;
  private final boolean nativeComputerTool;
  private final Map<Integer, Call> calls = new HashMap<>();
  /** Text and calls waiting for the active call to finish, in order. */
  private final Deque<Object> waiting = new ArrayDeque<>();
  private Call active;
  /** A call cut before its end whose fence is still open: closed before anything else is written. */
  private boolean dangling;
  private boolean atLineStart = true;
  private StringBuilder out = new StringBuilder();

  /**
   * @param completed hears each complete call
   * @param idPrefix  prefix of the ids made up for calls the server sent without one ({@code call_}, {@code toolu_})
   */
  public ToolCallFences(Consumer<ExecuteCall> completed, String idPrefix) {
    this(completed, idPrefix, false);
  }

  /** @param nativeComputerTool the model calls Anthropic's native computer tool: its screenshots carry no grid */
  public ToolCallFences(Consumer<ExecuteCall> completed, String idPrefix, boolean nativeComputerTool) {
    this.completed = completed;
    this.idPrefix = idPrefix;
    this.nativeComputerTool = nativeComputerTool;
  }

  /** Text of the reply. */
  public String text(String text) {
    if (text.isEmpty()) {
      return "";
    }
    if (active != null) {
      waiting.add(text);
    } else {
      write(text);
    }
    return drain();
  }

  /**
   * A piece of the call {@code key} (its index in the reply): {@code id} and {@code name} count the first time they
   * are not empty; {@code arguments} is the next piece of its arguments' JSON.
   *
   * @throws ModelException when the arguments grow beyond {@value #MAX_ARGUMENTS} characters
   */
  public String call(int key, String id, String name, String arguments) {
    Call call = calls.get(key);
    if (call == null) {
      call = new Call();
      calls.put(key, call);
      if (active == null) {
        active = call;
      } else {
        waiting.add(call);
      }
    }
    if (call.id.isEmpty() && id != null) {
      call.id = id;
    }
    if (call.name.isEmpty() && name != null) {
      call.name = name;
    }
    if (arguments != null && !arguments.isEmpty() && !call.ended) {
      call.feed(arguments, ComputerToolCode.handles(call.name));
    }
    render();
    return drain();
  }

  /** The server says the call {@code key} is over (its content block stopped), complete or not. */
  public String end(int key) {
    Call call = calls.get(key);
    if (call != null && !call.ended) {
      call.end();
      render();
    }
    return drain();
  }

  /** The reply is over: every call ends. A call cut short stays an open fence, which the interceptor marks so. */
  public String finish() {
    for (Call call : calls.values()) {
      if (!call.ended) {
        call.end();
      }
    }
    render();
    return drain();
  }

  /** Writes what the active call has ready; moves on to what waits behind it once it ended. */
  private void render() {
    while (active != null) {
      Call call = active;
      if (ComputerToolCode.handles(call.name) && !call.fenceWritten) {
        if (!call.ended) {
          return;
        }
        // a computer or browser call becomes the python block that performs it, written whole once complete
        call.language = "python";
        call.code.setLength(0);
        call.code.append(ComputerToolCode.python(call.name, call.raw.toString(), !nativeComputerTool));
        call.complete = true;
        call.codeDone = true;
      }
      if (!call.fenceWritten && call.canOpen()) {
        write(lineStart() + FENCE + call.info() + "\n");
        call.fenceWritten = true;
      }
      if (call.fenceWritten && call.codeWritten < call.code.length()) {
        write(call.code.substring(call.codeWritten));
        call.codeWritten = call.code.length();
      }
      if (!call.ended) {
        return;
      }
      if (call.fenceWritten) {
        if (call.complete) {
          write("\n" + FENCE + "\n");
          completed.accept(new ExecuteCall(call.id.isEmpty() ? madeUpId() : call.id, call.name, call.arguments(),
              call.info(), call.code.toString()));
        } else {
          dangling = true;
        }
      }
      active = null;
      while (active == null && !waiting.isEmpty()) {
        Object next = waiting.poll();
        if (next instanceof Call c) {
          active = c;
        } else {
          write((String) next);
        }
      }
    }
  }

  private void write(String s) {
    if (dangling) {
      dangling = false;
      out.append("\n" + FENCE + "\n");
      atLineStart = true;
    }
    if (!s.isEmpty()) {
      out.append(s);
      atLineStart = s.charAt(s.length() - 1) == '\n';
    }
  }

  private String lineStart() {
    return atLineStart || dangling ? "" : "\n";
  }

  private String drain() {
    String s = out.toString();
    out = new StringBuilder();
    return s;
  }

  private String madeUpId() {
    return idPrefix + "i4j_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
  }

  /** One call's state. */
  private static final class Call {
    String id = "";
    String name = "";
    final StringBuilder raw = new StringBuilder();
    final StreamingJsonFields parser = new StreamingJsonFields();
    String language;
    /** The {@code language} value while it streams; it counts once complete. */
    final StringBuilder languageSoFar = new StringBuilder();
    final StringBuilder code = new StringBuilder();
    boolean codeDone;
    boolean complete;
    boolean ended;
    boolean fenceWritten;
    int codeWritten;

    void feed(String piece, boolean computer) {
      raw.append(piece);
      if (raw.length() > MAX_ARGUMENTS) {
        throw new ModelException("a tool call's arguments exceed " + MAX_ARGUMENTS + " characters", false);
      }
      for (StreamingJsonFields.Event e : parser.feed(piece)) {
        if (computer) {
          if (e instanceof StreamingJsonFields.ObjectEnd) {
            complete = true;
            ended = true;
          }
        } else if (e instanceof StreamingJsonFields.FieldText t) {
          if (t.field().equals("code") && !codeDone) {
            code.append(t.text());
          } else if (t.field().equals("language") && language == null) {
            languageSoFar.append(t.text());
          }
        } else if (e instanceof StreamingJsonFields.FieldEnd f) {
          if (f.field().equals("code")) {
            codeDone = true;
          } else if (f.field().equals("language") && language == null) {
            language = languageSoFar.toString();
          }
        } else if (e instanceof StreamingJsonFields.ObjectEnd) {
          complete = true;
          ended = true;
        }
      }
    }

    void end() {
      ended = true;
      if (!complete && parser.invalid() && !raw.toString().isBlank() && raw.toString().strip().charAt(0) != '{') {
        // Arguments that are not JSON at all: a weak server passing the code itself.
        code.setLength(0);
        code.append(raw);
        complete = true;
      }
    }

    /** The arguments as streamed; arguments that were not JSON as the object they stood for, for the API's sake. */
    String arguments() {
      if (!parser.invalid()) {
        return raw.toString();
      }
      if (ComputerToolCode.handles(name)) {
        return "{}"; // its block says what was wrong with them
      }
      ObjectNode args = JSON.createObjectNode();
      if (!info().isEmpty()) {
        args.put("language", info());
      }
      return args.put("code", code.toString()).toString();
    }

    /** The fence can open once the language is known, or when the call ended (default language) with some code. */
    boolean canOpen() {
      return language != null || (ended && (complete || code.length() > 0));
    }

    /** The info string: the language, reduced to characters a fence tag can hold, or the tool's name as one. */
    String info() {
      String lang = language != null ? language : LANGUAGE_NAMES.contains(name.toLowerCase(Locale.ROOT)) ? name : "";
      String tag = Fences.infoTag(lang);
      return tag.length() > 40 ? tag.substring(0, 40) : tag;
    }
  }
}
