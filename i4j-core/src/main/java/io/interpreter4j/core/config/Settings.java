package io.interpreter4j.core.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.safety.PolicyRules;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Typed view of the {@code interpreter4j { }} configuration, read once; flags override it with the {@code with*} copies. */
public record Settings(
    String model,
    String apiBase,
    Path dataDir,
    Path workdir,
    String customInstructions,
    String defaultLanguage,
    InterceptorMode interceptorMode,
    ApprovalMode approvalMode,
    PolicyRules approvalRules,
    boolean dangerouslyAllowAll,
    Duration timeout,
    Duration interruptGrace,
    int maxOutput,
    long liveOutputLimit,
    Duration idleTimeout,
    String python,
    int maxIterations,
    int maxConsecutiveFailures,
    int modelAttempts,
    Duration minBackoff,
    Duration maxBackoff,
    List<String> passEnv) {

  public Settings {
    passEnv = List.copyOf(passEnv);
  }

  public enum InterceptorMode { FIRST_BLOCK, ALL_BLOCKS }

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  public enum ApprovalMode { ASK, AUTO }

  /** Reads settings from a config whose {@code interpreter4j} root is complete (reference.conf provides defaults). */
  public static Settings from(Config root, Map<String, String> env) {
    Config c = root.getConfig("interpreter4j");
    try {
      return new Settings(
          c.getString("model"),
          c.getString("api-base"),
          dataDir(c.getString("data-dir"), env),
          path(c.getString("workdir"), Path.of("").toAbsolutePath()),
          c.getString("custom-instructions"),
          c.getString("default-language"),
          parseInterceptorMode(c.getString("interceptor.mode")),
          parseApprovalMode(c.getString("approval.mode")),
          PolicyRules.fromConfig(root),
          c.getBoolean("approval.dangerously-allow-all"),
          positive(c, "execution.timeout"),
          c.getDuration("execution.interrupt-grace"),
          atLeast(c, "execution.max-output", 200),
          c.getBytes("execution.live-output-limit"),
          positive(c, "execution.idle-timeout"),
          c.getString("execution.python"),
          atLeast(c, "healing.max-iterations", 1),
          atLeast(c, "healing.max-consecutive-failures", 1),
          atLeast(c, "model-retry.attempts", 1),
          c.getDuration("model-retry.min-backoff"),
          c.getDuration("model-retry.max-backoff"),
          passEnv(root));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /** Defaults from reference.conf (and the environment overrides it names). */
  public static Settings defaults() {
    return from(ConfigFactory.load(), System.getenv());
  }

  /**
   * {@code interpreter4j.execution.pass-env}: the variables interpreters get although interpreter4j withholds them
   * (see {@code ChildEnvironment}); empty when the setting is absent.
   */
  public static List<String> passEnv(Config root) {
    String key = "interpreter4j.execution.pass-env";
    if (!root.hasPath(key)) {
      return List.of();
    }
    List<String> names = root.getStringList(key);
    for (String name : names) {
      if (!ENV_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(key + " holds '" + name + "', which is not an environment variable name "
            + "(letters, digits and _, not starting with a digit)");
      }
    }
    return List.copyOf(names);
  }

  public static InterceptorMode parseInterceptorMode(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "first-block" -> InterceptorMode.FIRST_BLOCK;
      case "all-blocks" -> InterceptorMode.ALL_BLOCKS;
      default -> throw new IllegalArgumentException(
          "interpreter4j.interceptor.mode must be first-block or all-blocks, not '" + value + "'");
    };
  }

  public static ApprovalMode parseApprovalMode(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "ask" -> ApprovalMode.ASK;
      case "auto" -> ApprovalMode.AUTO;
      default -> throw new IllegalArgumentException(
          "interpreter4j.approval.mode must be ask or auto, not '" + value + "'");
    };
  }

  private static Duration positive(Config c, String key) {
    Duration d = c.getDuration(key);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException("interpreter4j." + key + " must be positive, not " + d);
    }
    return d;
  }

  private static int atLeast(Config c, String key, int min) {
    int v = c.getInt(key);
    if (v < min) {
      throw new IllegalArgumentException("interpreter4j." + key + " must be at least " + min + ", not " + v);
    }
    return v;
  }

  private static Path path(String value, Path fallback) {
    return value.isBlank() ? fallback : Path.of(value).toAbsolutePath().normalize();
  }

  private static Path dataDir(String configured, Map<String, String> env) {
    if (!configured.isBlank()) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    String xdg = env.get("XDG_DATA_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Path.of(xdg, "interpreter4j").toAbsolutePath();
    }
    return Path.of(System.getProperty("user.home"), ".local", "share", "interpreter4j");
  }

  /** A copy for one session (server, batch) with its own model, working directory, approval mode and bound. */
  public Settings forSession(String sessionModel, Path sessionWorkdir, ApprovalMode sessionApproval,
                             int sessionMaxIterations) {
    return new Settings(sessionModel, apiBase, dataDir, sessionWorkdir, customInstructions, defaultLanguage,
        interceptorMode, sessionApproval, approvalRules, dangerouslyAllowAll, timeout, interruptGrace, maxOutput,
        liveOutputLimit, idleTimeout, python, sessionMaxIterations, maxConsecutiveFailures, modelAttempts,
        minBackoff, maxBackoff, passEnv);
  }
}
