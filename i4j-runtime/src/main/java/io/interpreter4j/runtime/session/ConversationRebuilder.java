package io.interpreter4j.runtime.session;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.output.OutputTruncator;
import io.interpreter4j.core.prompt.PromptBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the conversation a session had with its model from its journal, the way the session built it: user
 * messages, the model's answers, and each block's result (exit code and output, cut to {@code maxOutput}
 * characters head and tail as the model got it; read from the block's output file when it is still there),
 * declines and refusals. A {@code conversation} event (reset, undo, load, resume) replaces what came before.
 * What the journal does not hold is left out: notices about restarted interpreters.
 */
public final class ConversationRebuilder {

  /** The conversation without its system prompt, and the model and working folder the session had. */
  public record Rebuilt(List<ChatMessage> messages, String model, String cwd) {}

  private final int maxOutput;
  private final List<ChatMessage> messages = new ArrayList<>();
  private final List<String> results = new ArrayList<>();
  private final List<ImageRef> resultImages = new ArrayList<>();
  private final Map<Integer, String> languages = new HashMap<>();
  private final Map<Integer, StringBuilder> outputs = new HashMap<>();
  private final Map<Integer, List<String>> images = new HashMap<>();
  private final Map<Integer, List<ImageRef>> imageRefs = new HashMap<>();
  private String model = "";
  private String cwd = "";

  private ConversationRebuilder(int maxOutput) {
    this.maxOutput = maxOutput;
  }

  public static Rebuilt rebuild(List<Event> events, int maxOutput) {
    ConversationRebuilder r = new ConversationRebuilder(maxOutput);
    events.forEach(e -> r.accept(e.payload()));
    r.flushResults();
    return new Rebuilt(List.copyOf(r.messages), r.model, r.cwd);
  }

  private void accept(EventPayload p) {
    if (p instanceof EventPayload.SessionStarted s) {
      model = s.model();
      cwd = s.cwd();
    } else if (p instanceof EventPayload.Conversation c) {
      messages.clear();
      results.clear();
      resultImages.clear();
      messages.addAll(ConversationEdits.restorable(ConversationEdits.fromEvent(c.messages())));
    } else if (p instanceof EventPayload.UserMessage m) {
      flushResults();
      addUser(m.text(), List.of());
    } else if (p instanceof EventPayload.AssistantMessage m) {
      flushResults();
      if (!m.text().isBlank()) {
        messages.add(ChatMessage.assistant(m.text()));
      }
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      languages.put(c.block(), c.language());
    } else if (p instanceof EventPayload.Approval a && a.decision() == ApprovalDecision.DENIED) {
      results.add(a.by() == DecidedBy.POLICY ? PromptBuilder.blockedByPolicy(a.block(), a.reason())
          : PromptBuilder.declined(a.block(), a.reason()));
    } else if (p instanceof EventPayload.Error e && ConversationEdits.isGenerated(e.message())) {
      results.add(e.message());
    } else if (p instanceof EventPayload.Output o) {
      outputs.computeIfAbsent(o.block(), b -> new StringBuilder()).append(o.text());
    } else if (p instanceof EventPayload.Image i) {
      io.interpreter4j.core.image.ImageFormat format = io.interpreter4j.core.image.ImageFormat.ofMime(i.mime());
      images.computeIfAbsent(i.block(), b -> new ArrayList<>()).add(PromptBuilder.imageNote(i.width(), i.height(),
          format == null ? i.mime() : format.name(), i.path()));
      if (stillThere(i.path())) { // a file gone since: the model reads the line, without the picture
        imageRefs.computeIfAbsent(i.block(), b -> new ArrayList<>())
            .add(new ImageRef(i.path(), i.mime(), i.width(), i.height()));
      }
    } else if (p instanceof EventPayload.ExecFinished f) {
      String output = fullOutput(f);
      String forModel = OutputTruncator.truncate(output, maxOutput, f.output_file());
      results.add(PromptBuilder.blockResult(f.block(), languages.getOrDefault(f.block(), "code"), f.exit_code(),
          f.timed_out(), f.interrupted(), forModel, null, images.getOrDefault(f.block(), List.of())));
      resultImages.addAll(imageRefs.getOrDefault(f.block(), List.of()));
      outputs.remove(f.block());
      images.remove(f.block());
      imageRefs.remove(f.block());
    } else if (p instanceof EventPayload.TurnFinished) {
      flushResults();
    }
  }

  private String fullOutput(EventPayload.ExecFinished f) {
    if (f.output_file() != null) {
      try {
        Path file = Path.of(f.output_file());
        if (Files.isRegularFile(file) && Files.size(file) < 64L * 1024 * 1024) {
          return Files.readString(file, StandardCharsets.UTF_8);
        }
      } catch (IOException | RuntimeException e) {
        // fall back to the live output in the journal
      }
    }
    StringBuilder live = outputs.get(f.block());
    return live == null ? "" : live.toString();
  }

  private static boolean stillThere(String path) {
    try {
      return Files.isRegularFile(Path.of(path));
    } catch (RuntimeException badPath) {
      return false;
    }
  }

  private void flushResults() {
    if (!results.isEmpty()) {
      addUser(String.join("\n\n", results), resultImages);
      results.clear();
      resultImages.clear();
    }
  }

  private void addUser(String text, List<ImageRef> with) {
    int last = messages.size() - 1;
    if (last >= 0 && messages.get(last).role() == ChatMessage.Role.USER) {
      messages.set(last, messages.get(last).append(text, with));
    } else {
      messages.add(ChatMessage.user(text, with));
    }
  }
}
