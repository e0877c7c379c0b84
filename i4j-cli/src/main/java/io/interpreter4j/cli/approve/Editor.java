package io.interpreter4j.cli.approve;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Opens code in the user's editor ({@code $EDITOR}, else {@code vi}) and returns what they saved. */
public final class Editor {
  private final Map<String, String> env;
  private final boolean inheritTerminal;

  /** {@code inheritTerminal}: the editor gets our terminal (interactive); else its stdin is /dev/null. */
  public Editor(Map<String, String> env, boolean inheritTerminal) {
    this.env = env;
    this.inheritTerminal = inheritTerminal;
  }

  public String edit(String code, String language) throws IOException {
    String suffix = switch (language) {
      case "python" -> ".py";
      case "bash" -> ".sh";
      default -> ".txt";
    };
    Path file = Files.createTempFile("i4j-block-", suffix);
    try {
      Files.writeString(file, code.endsWith("\n") ? code : code + "\n", StandardCharsets.UTF_8);
      String editor = env.getOrDefault("EDITOR", "").isBlank() ? "vi" : env.get("EDITOR");
      List<String> argv = new ArrayList<>(List.of("sh", "-c", editor + " \"$1\"", "i4j-editor", file.toString()));
      ProcessBuilder pb = new ProcessBuilder(argv);
      if (inheritTerminal) {
        pb.inheritIO();
      } else {
        pb.redirectInput(new File("/dev/null")).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.INHERIT);
      }
      Process p = pb.start();
      int exit = p.waitFor();
      if (exit != 0) {
        throw new IOException("the editor '" + editor + "' exited with code " + exit);
      }
      String edited = Files.readString(file, StandardCharsets.UTF_8);
      return edited.endsWith("\n") ? edited.substring(0, edited.length() - 1) : edited;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while editing", e);
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
