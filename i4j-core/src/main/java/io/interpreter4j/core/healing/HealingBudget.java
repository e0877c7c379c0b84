package io.interpreter4j.core.healing;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Bounds the self-healing loop of one user message: at most {@code maxIterations} model calls, at most
 * {@code maxConsecutiveFailures} failed blocks in a row, and the same code failing with the same error twice
 * stops at once. Each method returns the reason to give up, if any.
 */
public final class HealingBudget {
  private static final Pattern HEX_ADDRESS = Pattern.compile("0x[0-9a-fA-F]+");
  // Each block runs from its own file, so tracebacks name different files for the same code.
  private static final Pattern FILE_NAME = Pattern.compile("File \"[^\"]*\"|block-\\d+");
  private static final int SIGNATURE_TAIL = 600;

  private final int maxIterations;
  private final int maxConsecutiveFailures;
  private final Set<String> failureSignatures = new HashSet<>();
  private int iterations;
  private int consecutiveFailures;

  public HealingBudget(int maxIterations, int maxConsecutiveFailures) {
    this.maxIterations = maxIterations;
    this.maxConsecutiveFailures = maxConsecutiveFailures;
  }

  /** Call before each model call; counts it, or says why it must not happen. */
  public Optional<String> beforeModelCall() {
    if (iterations >= maxIterations) {
      return Optional.of("reached max-iterations: " + maxIterations + " model calls for this message");
    }
    iterations++;
    return Optional.empty();
  }

  /** Call after each block that ran; {@code failed} means a non-zero exit code or a timeout. */
  public Optional<String> afterBlock(String code, boolean failed, String output) {
    if (!failed) {
      consecutiveFailures = 0;
      return Optional.empty();
    }
    consecutiveFailures++;
    if (!failureSignatures.add(signature(code, output))) {
      return Optional.of("the same code failed twice with the same error");
    }
    if (consecutiveFailures >= maxConsecutiveFailures) {
      return Optional.of(consecutiveFailures + " failed blocks in a row (max-consecutive-failures)");
    }
    return Optional.empty();
  }

  /** A block that did not run (declined, blocked) breaks no streak but is no success either. */
  public int iterations() {
    return iterations;
  }

  public int consecutiveFailures() {
    return consecutiveFailures;
  }

  /** The code and the end of its output, with memory addresses blanked so reruns compare equal. */
  static String signature(String code, String output) {
    String out = output == null ? "" : output;
    String tail = out.length() > SIGNATURE_TAIL ? out.substring(out.length() - SIGNATURE_TAIL) : out;
    String normalised = FILE_NAME.matcher(HEX_ADDRESS.matcher(tail).replaceAll("0x?")).replaceAll("?");
    return code.strip() + "\u0000" + normalised.strip();
  }
}
