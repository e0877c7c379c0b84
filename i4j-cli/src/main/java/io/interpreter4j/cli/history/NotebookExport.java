package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.ApprovalDecision;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A conversation as a Jupyter notebook (nbformat 4.5, {@code %jupyter}): the user's messages and the model's prose
 * become markdown cells, each code block a code cell with the code that ran (the edited code if it was edited),
 * its outputs as stdout/stderr streams, and its block number as the execution count. Bash blocks start with the
 * {@code %%bash} cell magic so the notebook runs in a Python kernel.
 */
public final class NotebookExport {

  private static final ObjectMapper JSON = EventCodec.mapper();

  private NotebookExport() {}

  public static ObjectNode render(TurnLog log) {
    ObjectNode nb = JSON.createObjectNode();
    ArrayNode cells = nb.putArray("cells");
    markdown(cells, "# " + log.title() + "\n\n*interpreter4j session `" + log.session() + "` · model `"
        + log.model() + "`*");
    for (EventPayload.Message m : log.restored()) {
      markdown(cells, m.role().equals("user") ? "**You:** " + m.content() : m.content());
    }
    for (TurnLog.Turn turn : log.turns()) {
      markdown(cells, "**You:** " + turn.userText());
      turn(cells, turn.events());
    }
    ObjectNode meta = nb.putObject("metadata");
    ObjectNode kernel = meta.putObject("kernelspec");
    kernel.put("display_name", "Python 3");
    kernel.put("language", "python");
    kernel.put("name", "python3");
    meta.putObject("language_info").put("name", "python");
    ObjectNode origin = meta.putObject("interpreter4j");
    origin.put("session", log.session());
    origin.put("model", log.model());
    for (int i = 0; i < cells.size(); i++) {
      ((ObjectNode) cells.get(i)).put("id", "cell-" + (i + 1));
    }
    nb.put("nbformat", 4);
    nb.put("nbformat_minor", 5);
    return nb;
  }

  private static void turn(ArrayNode cells, List<EventPayload> events) {
    Deque<EventPayload.CodeBlockEvent> blocks = new ArrayDeque<>();
    Map<Integer, ObjectNode> codeCells = new HashMap<>();
    Map<Integer, String> languages = new HashMap<>();
    for (EventPayload p : events) {
      if (p instanceof EventPayload.CodeBlockEvent c) {
        blocks.add(c);
        languages.put(c.block(), c.language());
      } else if (p instanceof EventPayload.AssistantMessage m) {
        prose(cells, m.text(), blocks, codeCells);
      } else if (p instanceof EventPayload.Approval a) {
        ObjectNode cell = codeCells.get(a.block());
        if (cell != null) {
          ObjectNode info = blockInfo(cell);
          info.put("approval", a.decision().wire());
          info.put("approved_by", a.by().wire());
          if (a.decision() == ApprovalDecision.EDITED && a.code() != null) {
            cell.set("source", lines(source(languages.getOrDefault(a.block(), "python"), a.code())));
          }
        }
      } else if (p instanceof EventPayload.Output o) {
        ObjectNode cell = codeCells.get(o.block());
        if (cell != null) {
          appendStream((ArrayNode) cell.get("outputs"), o.stream().wire(), o.text());
        }
      } else if (p instanceof EventPayload.Image i) {
        ObjectNode cell = codeCells.get(i.block());
        if (cell != null) {
          appendImage((ArrayNode) cell.get("outputs"), i);
        }
      } else if (p instanceof EventPayload.Html h) {
        ObjectNode cell = codeCells.get(h.block());
        if (cell != null) {
          appendHtml((ArrayNode) cell.get("outputs"), h);
        }
      } else if (p instanceof EventPayload.ExecFinished f) {
        ObjectNode cell = codeCells.get(f.block());
        if (cell != null) {
          cell.put("execution_count", f.block());
          ObjectNode info = blockInfo(cell);
          info.put("exit_code", f.exit_code());
          info.put("duration_ms", f.duration_ms());
          if (f.timed_out() || f.interrupted()) {
            info.put("stopped", f.timed_out() ? "timed out" : "interrupted");
          }
          if (f.exit_code() != 0) {
            appendStream((ArrayNode) cell.get("outputs"), "stderr", "[exit code " + f.exit_code() + "]\n");
          }
        }
      }
    }
  }

  /** Splits the model's answer into prose (markdown cells) and its runnable blocks (code cells). */
  private static void prose(ArrayNode cells, String answer, Deque<EventPayload.CodeBlockEvent> blocks,
                            Map<Integer, ObjectNode> codeCells) {
    FenceScanner scanner = new FenceScanner("python", 1);
    List<Segment> segments = new ArrayList<>(scanner.feed(answer));
    segments.addAll(scanner.finish());
    StringBuilder text = new StringBuilder();
    for (Segment s : segments) {
      if (s instanceof Segment.Text t) {
        text.append(t.text());
      } else if (s instanceof Segment.BlockClosed b) {
        if (!text.toString().isBlank()) {
          markdown(cells, text.toString().strip());
        }
        text.setLength(0);
        EventPayload.CodeBlockEvent event = blocks.poll();
        int index = event == null ? -1 : event.block();
        String language = event == null ? b.block().language() : event.language();
        ObjectNode cell = codeCell(source(language, b.block().code()));
        blockInfo(cell).put("block", index).put("language", language);
        cells.add(cell);
        if (index > 0) {
          codeCells.put(index, cell);
        }
      }
    }
    if (!text.toString().isBlank()) {
      markdown(cells, text.toString().strip());
    }
  }

  private static ObjectNode blockInfo(ObjectNode cell) {
    ObjectNode metadata = (ObjectNode) cell.get("metadata");
    return metadata.has("interpreter4j") ? (ObjectNode) metadata.get("interpreter4j")
        : metadata.putObject("interpreter4j");
  }

  private static String source(String language, String code) {
    return switch (language) {
      case "python" -> code;
      case "bash" -> "%%bash\n" + code;
      default -> "%%script " + language + "\n" + code;
    };
  }

  private static void markdown(ArrayNode cells, String text) {
    ObjectNode cell = cells.addObject();
    cell.put("cell_type", "markdown");
    cell.putObject("metadata");
    cell.set("source", lines(text));
  }

  private static ObjectNode codeCell(String code) {
    ObjectNode cell = JSON.createObjectNode();
    cell.put("cell_type", "code");
    cell.putNull("execution_count");
    cell.putObject("metadata");
    cell.set("source", lines(code));
    cell.putArray("outputs");
    return cell;
  }

  /** Adds to the last output if it is the same stream, else a new stream output. */
  private static void appendStream(ArrayNode outputs, String stream, String text) {
    if (text.isEmpty()) {
      return;
    }
    ObjectNode last = outputs.isEmpty() ? null : (ObjectNode) outputs.get(outputs.size() - 1);
    if (last != null && stream.equals(last.path("name").asText())) {
      StringBuilder all = new StringBuilder();
      last.get("text").forEach(n -> all.append(n.asText()));
      last.set("text", lines(all + text));
      return;
    }
    ObjectNode out = outputs.addObject();
    out.put("output_type", "stream");
    out.put("name", stream);
    out.set("text", lines(text));
  }

  /**
   * An image as Jupyter shows one: a display_data output with the file's bytes in base64 under its media type, and
   * a text line with its size and path (all that is left when the file is gone).
   */
  private static void appendImage(ArrayNode outputs, EventPayload.Image image) {
    ObjectNode out = outputs.addObject();
    out.put("output_type", "display_data");
    ObjectNode data = out.putObject("data");
    ObjectNode metadata = out.putObject("metadata");
    try {
      byte[] bytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(image.path()));
      data.put(image.mime(), java.util.Base64.getEncoder().encodeToString(bytes));
      metadata.putObject(image.mime()).put("width", image.width()).put("height", image.height());
    } catch (java.io.IOException | RuntimeException e) {
      // the file was removed since: the text line still says what was shown
    }
    data.set("text/plain", lines("<image " + image.width() + "x" + image.height() + " " + image.mime() + ": "
        + image.path() + ">"));
  }

  /** HTML as Jupyter shows it: a display_data output with the document under text/html, and a text line. */
  private static void appendHtml(ArrayNode outputs, EventPayload.Html html) {
    ObjectNode out = outputs.addObject();
    out.put("output_type", "display_data");
    ObjectNode data = out.putObject("data");
    out.putObject("metadata");
    try {
      data.set("text/html", lines(java.nio.file.Files.readString(java.nio.file.Path.of(html.path()))));
    } catch (java.io.IOException | RuntimeException e) {
      // the file was removed since: the text line still says what was shown
    }
    data.set("text/plain", lines("<html " + html.bytes() + " bytes: " + html.path() + ">"));
  }

  /** nbformat's multi-line strings: a list of lines, each but the last ending with its newline. */
  static ArrayNode lines(String text) {
    ArrayNode lines = JSON.createArrayNode();
    int start = 0;
    for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      lines.add(text.substring(start, nl + 1));
      start = nl + 1;
    }
    if (start < text.length()) {
      lines.add(text.substring(start));
    }
    return lines;
  }
}
