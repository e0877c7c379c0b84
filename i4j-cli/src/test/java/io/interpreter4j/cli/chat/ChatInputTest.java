package io.interpreter4j.cli.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.EOFError;
import org.jline.reader.LineReader;
import org.jline.reader.Parser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatInputTest {
  @TempDir Path tmp;

  @Test
  void tripleQuotesOpenAndCloseAMultiLineMessage() {
    assertTrue(ChatInput.opensBlock("\"\"\""));
    assertTrue(ChatInput.opensBlock("\"\"\"\nfirst line"));
    assertFalse(ChatInput.opensBlock("\"\"\"\nfirst\nsecond\n\"\"\""));
    assertFalse(ChatInput.opensBlock("say \"hi\""));
    assertEquals("first\nsecond", ChatInput.message("\"\"\"\nfirst\nsecond\n\"\"\""));
    assertEquals("plain", ChatInput.message("  plain "));
    ChatInput.Parser parser = new ChatInput.Parser();
    assertThrows(EOFError.class, () -> parser.parse("\"\"\"\nhalf", 8, Parser.ParseContext.ACCEPT_LINE));
    assertEquals("done", parser.parse("\"\"\"\ndone\n\"\"\"", 12, Parser.ParseContext.ACCEPT_LINE).words().get(1));
  }

  @Test
  void linesAreReadLiterallyAndKeptInTheHistoryFile() throws Exception {
    Path history = tmp.resolve("data/history");
    Files.createDirectories(history.getParent());
    String typed = "C:\\temp\\x and !! and \"quotes'\r\"\"\"\rline one\rline two\r\"\"\"\r";
    List<String> lines = new ArrayList<>();
    try (Terminal terminal = new DumbTerminal(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)),
        new ByteArrayOutputStream())) {
      LineReader reader = ChatInput.reader(terminal, history, () -> tmp);
      lines.add(reader.readLine("> "));
      lines.add(reader.readLine("> "));
    }
    assertEquals("C:\\temp\\x and !! and \"quotes'", lines.get(0));
    assertEquals("\"\"\"\nline one\nline two\n\"\"\"", lines.get(1));
    String saved = Files.readString(history);
    assertTrue(saved.contains("C:\\\\temp"), saved);
    assertTrue(saved.contains("line one\\nline two"), saved);
  }

  @Test
  void aHistoryFileSetAfterTheReaderIsMadeIsLoadedAndKept() throws Exception {
    Path history = tmp.resolve("data/history");
    Files.createDirectories(history.getParent());
    try (Terminal terminal = new DumbTerminal(new ByteArrayInputStream("earlier\r".getBytes(StandardCharsets.UTF_8)),
        new ByteArrayOutputStream())) {
      ChatInput.reader(terminal, history, () -> tmp).readLine("> ");
    }
    try (Terminal terminal = new DumbTerminal(new ByteArrayInputStream("later\r".getBytes(StandardCharsets.UTF_8)),
        new ByteArrayOutputStream())) {
      LineReader reader = ChatInput.reader(terminal, null, () -> tmp); // as the chat makes it, before its settings
      reader.setVariable(LineReader.HISTORY_FILE, history);
      assertEquals("later", reader.readLine("> "));
      List<String> remembered = new ArrayList<>();
      reader.getHistory().forEach(entry -> remembered.add(entry.line()));
      assertEquals(List.of("earlier", "later"), remembered);
    }
    String saved = Files.readString(history);
    assertTrue(saved.contains("earlier") && saved.contains("later"), saved);
  }

  @Test
  void tabCompletesCommandsAndPaths() throws Exception {
    Files.createDirectories(tmp.resolve("src/main"));
    Files.writeString(tmp.resolve("setup.py"), "");
    ChatInput.InputCompleter completer = new ChatInput.InputCompleter(() -> tmp);
    ChatInput.Parser parser = new ChatInput.Parser();
    List<Candidate> commands = new ArrayList<>();
    try (Terminal terminal = TerminalBuilder.builder().streams(new ByteArrayInputStream(new byte[0]),
        new ByteArrayOutputStream()).type("xterm").build()) {
      LineReader reader = ChatInput.reader(terminal, null, () -> tmp);
      completer.complete(reader, parser.parse("%un", 3, Parser.ParseContext.COMPLETE), commands);
      assertEquals(List.of("%undo"), commands.stream().map(Candidate::value).toList());
      List<Candidate> files = new ArrayList<>();
      completer.complete(reader, parser.parse("look at s", 9, Parser.ParseContext.COMPLETE), files);
      List<String> values = files.stream().map(Candidate::value).sorted().toList();
      assertEquals(List.of("setup.py", "src/"), values);
    }
  }
}
