package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.ApprovalDecision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.model.ChatMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** %markdown, %jupyter, %save and %load on journals. */
class ExportTest {
  @TempDir Path tmp;

  private static Journals twoTurns() {
    return new Journals("s1", Instant.parse("2026-01-01T10:00:00Z"))
        .add(new EventPayload.SessionStarted("replay:x.json", "/w"))
        .turn("count files", 1, "ls | wc -l", "3\n", 0, "There are **3** files.")
        .turn("fail please", 2, "false", "", 1, "It failed.");
  }

  @Test
  void theTurnLogFollowsUndoAndReset() {
    Journals j = twoTurns();
    assertEquals(List.of("count files", "fail please"), turns(j));
    j.add(new EventPayload.Conversation("undo", null, List.of()));
    assertEquals(List.of("count files"), turns(j));
    j.add(new EventPayload.Conversation("reset", null, List.of()));
    assertEquals(List.of(), turns(j));
    j.add(new EventPayload.UserMessage("again"));
    assertEquals(List.of("again"), turns(j));
    TurnLog loaded = TurnLog.of(j.add(new EventPayload.Conversation("load", "/tmp/c.json",
        List.of(new EventPayload.Message("user", "old question"), new EventPayload.Message("assistant", "old")))).events());
    assertEquals("/tmp/c.json", loaded.restoredFrom());
    assertEquals("old question", loaded.title());
    assertEquals(0, loaded.turns().size());
  }

  @Test
  void sessionsShowAndMarkdownFollowOneRuleAfterAnUndo() throws Exception {
    Journals j = twoTurns().add(new EventPayload.Conversation("undo", null, List.of()));
    j.write(tmp);
    SessionCatalog.Entry listed = SessionCatalog.list(tmp).get(0);
    assertEquals("count files", listed.title());
    assertEquals(1, listed.turns(), "the undone exchange is not counted");
    TurnLog log = TurnLog.of(j.events());
    assertEquals(listed.title(), log.title());
    String markdown = MarkdownExport.render(log);
    assertTrue(markdown.startsWith("# count files\n"), markdown);
    assertFalse(markdown.contains("fail please"), markdown);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (var plain = new io.interpreter4j.cli.render.PlainRenderer(new java.io.PrintStream(bytes, true,
        java.nio.charset.StandardCharsets.UTF_8), false, true)) {
      log.transcript().forEach(p -> plain.accept(new io.interpreter4j.core.event.Event("s1", 0, log.started(), p)));
    }
    String shown = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(shown.contains("> count files"), shown);
    assertFalse(shown.contains("fail please"), "i4j show leaves out what --markdown leaves out: " + shown);

    j.add(new EventPayload.Conversation("undo", null, List.of())).write(tmp);
    SessionCatalog.Entry emptied = SessionCatalog.list(tmp).get(0);
    assertEquals("(no message)", emptied.title(), "everything undone: listed, untitled");
    assertEquals(0, emptied.turns());
    assertEquals(emptied.title(), TurnLog.of(j.events()).title());
  }

  private static List<String> turns(Journals j) {
    return TurnLog.of(j.events()).turns().stream().map(TurnLog.Turn::userText).toList();
  }

  @Test
  void markdownHasMessagesCodeOutputsAndExitCodes() {
    String md = MarkdownExport.render(TurnLog.of(twoTurns().events()));
    assertTrue(md.startsWith("# count files\n"), md);
    assertTrue(md.contains("> **You:** count files\n\nRunning it.\n\n```bash\nls | wc -l\n```\n\n"
        + "Output of block 1:\n\n```text\n3\n```\n\n*exit 0 · 12 ms*\n\nThere are **3** files."), md);
    assertTrue(md.contains("Output of block 2:\n\n*(no output)*\n\n*exit 1 · 12 ms*"), md);
  }

  @Test
  void theNotebookHasCodeCellsWithTheirOutputs() {
    Journals j = twoTurns().add(new EventPayload.UserMessage("python too"),
        new EventPayload.CodeBlockEvent(3, "python", "print('hi')\nprint(1/0)", false),
        new EventPayload.AssistantMessage("Now python:\n```python\nprint('hi')\nprint(1/0)\n```\n"),
        new EventPayload.Approval(3, ApprovalDecision.EDITED, DecidedBy.USER, null, "low", List.of(), "print('hi')"),
        new EventPayload.ExecStarted(3, "python"),
        new EventPayload.Output(3, StreamName.STDOUT, "h"), new EventPayload.Output(3, StreamName.STDOUT, "i\n"),
        new EventPayload.Output(3, StreamName.STDERR, "oops\n"),
        new EventPayload.ExecFinished(3, 0, false, false, 5, false, null),
        new EventPayload.TurnFinished(TurnStatus.DONE, 1, null));
    ObjectNode nb = NotebookExport.render(TurnLog.of(j.events()));
    assertEquals(4, nb.get("nbformat").asInt());
    List<JsonNode> code = new java.util.ArrayList<>();
    nb.get("cells").forEach(c -> {
      assertTrue(c.hasNonNull("id"));
      if (c.get("cell_type").asText().equals("code")) {
        code.add(c);
      }
    });
    assertEquals(3, code.size());
    JsonNode bash = code.get(0);
    assertEquals("%%bash\n", bash.get("source").get(0).asText());
    assertEquals("ls | wc -l", bash.get("source").get(1).asText());
    assertEquals(1, bash.get("execution_count").asInt());
    assertEquals("3\n", bash.get("outputs").get(0).get("text").get(0).asText());
    JsonNode python = code.get(2);
    assertEquals("print('hi')", python.get("source").get(0).asText(), "the edited code is what ran");
    assertEquals("stdout", python.get("outputs").get(0).get("name").asText());
    assertEquals("hi\n", python.get("outputs").get(0).get("text").get(0).asText(), "chunks of a stream are joined");
    assertEquals("stderr", python.get("outputs").get(1).get("name").asText());
    assertEquals("edited", python.get("metadata").get("interpreter4j").get("approval").asText());
    JsonNode failed = code.get(1);
    assertEquals("[exit code 1]\n", failed.get("outputs").get(0).get("text").get(0).asText());
    String markdown = nb.get("cells").get(2).get("source").get(0).asText();
    assertEquals("Running it.", markdown, "prose is split from its code");
  }

  @Test
  void theNotebookShowsABlocksImagesAsJupyterDoes() throws Exception {
    Path png = tmp.resolve("block-1-1.png");
    java.awt.image.BufferedImage picture = new java.awt.image.BufferedImage(4, 3,
        java.awt.image.BufferedImage.TYPE_INT_RGB);
    javax.imageio.ImageIO.write(picture, "png", png.toFile());
    Journals j = new Journals("s1", Instant.parse("2026-01-01T10:00:00Z"))
        .add(new EventPayload.SessionStarted("replay:x.json", "/w"), new EventPayload.UserMessage("plot"),
            new EventPayload.CodeBlockEvent(1, "python", "display('p.png')", false),
            new EventPayload.AssistantMessage("```python\ndisplay('p.png')\n```\n"),
            new EventPayload.ExecStarted(1, "python"),
            new EventPayload.Output(1, StreamName.STDOUT, "shown\n"),
            new EventPayload.Image(1, "image/png", png.toString(), 4, 3, io.interpreter4j.core.image.ImageSource.DISPLAY),
            new EventPayload.Image(1, "image/png", tmp.resolve("gone.png").toString(), 8, 6,
                io.interpreter4j.core.image.ImageSource.MATPLOTLIB),
            new EventPayload.ExecFinished(1, 0, false, false, 5, false, null),
            new EventPayload.TurnFinished(TurnStatus.DONE, 1, null));
    ObjectNode nb = NotebookExport.render(TurnLog.of(j.events()));
    JsonNode outputs = null;
    for (JsonNode cell : nb.get("cells")) {
      if (cell.get("cell_type").asText().equals("code")) {
        outputs = cell.get("outputs");
      }
    }
    assertEquals(3, outputs.size());
    JsonNode image = outputs.get(1);
    assertEquals("display_data", image.get("output_type").asText());
    assertEquals(java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(png)),
        image.get("data").get("image/png").asText());
    assertEquals(4, image.get("metadata").get("image/png").get("width").asInt());
    assertEquals("<image 4x3 image/png: " + png + ">", image.get("data").get("text/plain").get(0).asText());
    JsonNode gone = outputs.get(2);
    assertFalse(gone.get("data").has("image/png"), "a removed file leaves its text line only");
    assertEquals("<image 8x6 image/png: " + tmp.resolve("gone.png") + ">",
        gone.get("data").get("text/plain").get(0).asText());
  }

  @Test
  void theNotebookShowsABlocksHtmlAsJupyterDoes() throws Exception {
    Path html = Files.writeString(tmp.resolve("block-1-1.html"), "<table>\n<tr><td>1</td></tr>\n</table>");
    Journals j = new Journals("s1", Instant.parse("2026-01-01T10:00:00Z"))
        .add(new EventPayload.SessionStarted("replay:x.json", "/w"), new EventPayload.UserMessage("table"),
            new EventPayload.CodeBlockEvent(1, "python", "display(df)", false),
            new EventPayload.AssistantMessage("```python\ndisplay(df)\n```\n"),
            new EventPayload.ExecStarted(1, "python"),
            new EventPayload.Output(1, StreamName.STDOUT, "1\n"),
            new EventPayload.Html(1, html.toString(), 37),
            new EventPayload.ExecFinished(1, 0, false, false, 5, false, null),
            new EventPayload.TurnFinished(TurnStatus.DONE, 1, null));
    ObjectNode nb = NotebookExport.render(TurnLog.of(j.events()));
    JsonNode outputs = null;
    for (JsonNode cell : nb.get("cells")) {
      if (cell.get("cell_type").asText().equals("code")) {
        outputs = cell.get("outputs");
      }
    }
    assertEquals(2, outputs.size());
    JsonNode shown = outputs.get(1);
    assertEquals("display_data", shown.get("output_type").asText());
    assertEquals("<table>\n|<tr><td>1</td></tr>\n|</table>", String.join("|",
        java.util.stream.StreamSupport.stream(shown.get("data").get("text/html").spliterator(), false)
            .map(JsonNode::asText).toList()));
    assertEquals("<html 37 bytes: " + html + ">", shown.get("data").get("text/plain").get(0).asText());
  }

  @Test
  void conversationsSaveAndLoad() throws Exception {
    Path file = tmp.resolve("sub/c.json");
    List<ChatMessage> history = List.of(ChatMessage.system("sys"), ChatMessage.user("q"), ChatMessage.assistant("a"));
    ConversationFile.write(file, "s1", "m", history);
    String json = Files.readString(file);
    assertTrue(json.contains("\"format\" : \"interpreter4j-conversation\""), json);
    assertFalse(json.contains("sys"), "the system prompt is not saved");
    assertEquals(history.subList(1, 3), ConversationFile.read(file, 4000));
    Path openAi = tmp.resolve("oi.json");
    Files.writeString(openAi, "[{\"role\":\"system\",\"content\":\"x\"},{\"role\":\"user\",\"content\":"
        + "[{\"type\":\"text\",\"text\":\"hello\"}]},{\"role\":\"assistant\",\"content\":\"hi\"}]");
    assertEquals(List.of(ChatMessage.user("hello"), ChatMessage.assistant("hi")), ConversationFile.read(openAi, 4000));
    Path journal = twoTurns().write(tmp.resolve("data"));
    List<ChatMessage> rebuilt = ConversationFile.read(journal, 4000);
    assertEquals(8, rebuilt.size());
    assertEquals("Block 1 (bash) finished with exit code 0.\nOutput:\n```output\n3\n```", rebuilt.get(2).content());
    Path bad = tmp.resolve("bad.json");
    Files.writeString(bad, "{\"nope\": 1}");
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> ConversationFile.read(bad, 4000));
    assertTrue(e.getMessage().contains("holds no conversation"), e.getMessage());
  }
}
