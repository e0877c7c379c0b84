package io.interpreter4j.providers.record;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The replay model's script: the model's replies in order. {@code expect} (optional) is text the request's last
 * message should contain; {@code chunk_chars} and {@code delay_ms} say how the reply is streamed back.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Cassette(List<Turn> turns) {

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Cassette {
    turns = List.copyOf(turns);
  }

  /** One reply. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Turn(
      @JsonProperty("expect") String expect,
      @JsonProperty("reply") String reply,
      @JsonProperty("chunk_chars") int chunkChars,
      @JsonProperty("delay_ms") int delayMs) {}

  public static Cassette read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), Cassette.class);
  }

  /** Writes the whole cassette to a temporary file beside {@code file}, then moves it over: readers never see half. */
  public void writeAtomically(Path file) throws IOException {
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
    try {
      JSON.writeValue(temp.toFile(), this);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
