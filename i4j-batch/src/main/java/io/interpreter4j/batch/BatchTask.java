package io.interpreter4j.batch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * One task of a batch, validated: a prompt for a new session, and what that session may differ in.
 *
 * @param id            unique in the batch (the line number for plain-text task files)
 * @param line          line of the task file it came from, for messages
 * @param prompt        the user message that starts the session's turn
 * @param model         model spec (e.g. {@code openai/gpt-4o}), or null for the batch's model
 * @param workdir       absolute working directory, or null for the batch's
 * @param timeout       wall-clock limit of the whole task, or null for the batch's default
 * @param maxIterations model calls allowed, or null for the configured value
 * @param cassette      absolute path of a replay cassette (means {@code model = replay:<path>}), or null
 */
public record BatchTask(String id, int line, String prompt, String model, Path workdir, Duration timeout,
                        Integer maxIterations, Path cassette) {

  /** A task that is only a prompt, as a line of a plain-text task file. */
  public static BatchTask ofPrompt(String id, int line, String prompt) {
    return new BatchTask(id, line, prompt, null, null, null, null, null);
  }

  /** The model spec this task asks for, or null to use the batch's: a cassette is {@code replay:<path>}. */
  public String modelSpec() {
    if (cassette != null) {
      return "replay:" + cassette;
    }
    return model;
  }

  /**
   * A short fingerprint of what the task asks for (not its line): a resumed batch reruns a task whose
   * definition changed since it finished.
   */
  public String fingerprint() {
    String canonical = String.join("\u0000", prompt, String.valueOf(model), String.valueOf(workdir),
        String.valueOf(timeout), String.valueOf(maxIterations), String.valueOf(cassette));
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
