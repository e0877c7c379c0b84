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
import java.util.function.Function;
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

  /**
   * Reads settings from a config whose {@code interpreter4j} root is complete (reference.conf provides defaults). A
   * bad value is an {@link IllegalArgumentException} that names where the user wrote it ({@link SettingSource}) and
   * what is accepted.
   */
  public static Settings from(Config root, Map<String, String> env) {
    Config c = root.getConfig("interpreter4j");
    Values v = new Values(root);
    try {
      return read(root, c, v, env);
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  private static Settings read(Config root, Config c, Values v, Map<String, String> env) {
    return new Settings(
        c.getString("model"),
        c.getString("api-base"),
        dataDir(c.getString("data-dir"), env),
        path(c.getString("workdir"), Path.of("").toAbsolutePath()),
        c.getString("custom-instructions"),
        c.getString("default-language"),
        v.read("interceptor.mode", "must be first-block or all-blocks", k -> parseInterceptorMode(c.getString(k))),
        v.read("approval.mode", "must be ask or auto", k -> parseApprovalMode(c.getString(k))),
        PolicyRules.fromConfig(root),
        v.read("approval.dangerously-allow-all", "must be true or false", c::getBoolean),
        v.positive("execution.timeout"),
        v.duration("execution.interrupt-grace"),
        v.atLeast("execution.max-output", 200),
        v.read("execution.live-output-limit", "is not a size in bytes (1048576, 512k, 1m)", c::getBytes),
        v.positive("execution.idle-timeout"),
        c.getString("execution.python"),
        v.atLeast("healing.max-iterations", 1),
        v.atLeast("healing.max-consecutive-failures", 1),
        v.atLeast("model-retry.attempts", 1),
        v.duration("model-retry.min-backoff"),
        v.duration("model-retry.max-backoff"),
        passEnv(root));
  }

  /** Reads the values that can be wrong, each failure phrased with where the user wrote the value. */
  private record Values(Config root) {
    private static final String DURATION = "is not a duration: write a number with a unit (500ms, 90s, 5m)";

    <T> T read(String key, String accepted, Function<String, T> getter) {
      try {
        return getter.apply(key);
      } catch (ConfigException | IllegalArgumentException e) {
        throw invalid(key, accepted);
      }
    }

    Duration duration(String key) {
      return read(key, DURATION, root.getConfig("interpreter4j")::getDuration);
    }

    Duration positive(String key) {
      Duration d = duration(key);
      if (d.isZero() || d.isNegative()) {
        throw invalid(key, "must be positive");
      }
      return d;
    }

    int atLeast(String key, int min) {
      int v = read(key, "is not a whole number", root.getConfig("interpreter4j")::getInt);
      if (v < min) {
        throw invalid(key, "must be at least " + min);
      }
      return v;
    }

    IllegalArgumentException invalid(String key, String accepted) {
      return new IllegalArgumentException(SettingSource.of(root, "interpreter4j." + key) + " " + accepted);
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
