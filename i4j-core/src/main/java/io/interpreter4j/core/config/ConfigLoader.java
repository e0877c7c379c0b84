package io.interpreter4j.core.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Layers the configuration: command-line flags over {@code I4J_*} environment variables over a profile (if any)
 * over the config file over reference.conf. Each layer is a HOCON config; the result is read once into {@link Settings}.
 */
public final class ConfigLoader {

  /** Environment variables and the settings they override. */
  public static final Map<String, String> ENVIRONMENT = Map.ofEntries(
      Map.entry("I4J_MODEL", "interpreter4j.model"),
      Map.entry("I4J_API_BASE", "interpreter4j.api-base"),
      Map.entry("I4J_HOME", "interpreter4j.data-dir"),
      Map.entry("I4J_WORKDIR", "interpreter4j.workdir"),
      Map.entry("I4J_CUSTOM_INSTRUCTIONS", "interpreter4j.custom-instructions"),
      Map.entry("I4J_APPROVAL", "interpreter4j.approval.mode"),
      Map.entry("I4J_INTERCEPTOR_MODE", "interpreter4j.interceptor.mode"),
      Map.entry("I4J_TIMEOUT", "interpreter4j.execution.timeout"),
      Map.entry("I4J_MAX_OUTPUT", "interpreter4j.execution.max-output"),
      Map.entry("I4J_MAX_ITERATIONS", "interpreter4j.healing.max-iterations"),
      Map.entry("I4J_PYTHON", "interpreter4j.execution.python"),
      Map.entry("I4J_VISION", "interpreter4j.vision.mode"),
      Map.entry("I4J_CLUSTER_HOST", "interpreter4j.cluster.host"),
      Map.entry("I4J_CLUSTER_PORT", "interpreter4j.cluster.port"),
      Map.entry("I4J_SEED_NODES", "interpreter4j.cluster.seed-nodes"),
      Map.entry("I4J_JOURNAL_URL", "interpreter4j.journal.url"),
      Map.entry("I4J_JOURNAL_USER", "interpreter4j.journal.user"),
      Map.entry("I4J_JOURNAL_PASSWORD", "interpreter4j.journal.password"));

  private ConfigLoader() {}

  /**
   * @param configFile an explicit {@code --config FILE} (must exist), or null to use the user's default file if any
   * @param flags      settings from command-line flags, keyed by path ({@code interpreter4j.model})
   */
  public static Config load(Path configFile, Map<String, Object> flags, Map<String, String> env) {
    return load(configFile, ConfigFactory.empty(), flags, env);
  }

  /**
   * As {@link #load(Path, Map, Map)} with one more layer between the config file and the environment: a profile
   * ({@code --profile NAME}), whose settings override the file's and are overridden by {@code I4J_*} and flags.
   */
  public static Config load(Path configFile, Config profile, Map<String, Object> flags, Map<String, String> env) {
    return load(configFile, profile, flags, env, warning -> { });
  }

  /**
   * As {@link #load(Path, Config, Map, Map)}; the settings under {@code interpreter4j} that the file and the profile
   * write but no module knows are passed to {@code warnings}, one message each ({@link UnknownSettings}).
   */
  public static Config load(Path configFile, Config profile, Map<String, Object> flags, Map<String, String> env,
                            Consumer<String> warnings) {
    Config fileLayer = ConfigFactory.empty();
    Path file = configFile != null ? configFile : defaultConfigFile(env);
    if (configFile != null && !Files.isRegularFile(configFile)) {
      throw new IllegalArgumentException("config file not found: " + configFile
          + " (give an existing HOCON file to --config)");
    }
    if (file != null && Files.isRegularFile(file)) {
      try {
        fileLayer = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
      } catch (ConfigException e) {
        throw new IllegalArgumentException(parseError("config file", file, e), e);
      }
    }
    Config reference = ConfigFactory.defaultReference();
    for (Config layer : List.of(fileLayer, profile)) {
      UnknownSettings.find(layer, reference).forEach(u -> warnings.accept(u.message()));
    }
    // one layer per variable, so that an error can name the variable (see SettingSource)
    Config fromEnv = ConfigFactory.empty();
    for (Map.Entry<String, String> e : new TreeMap<>(ENVIRONMENT).entrySet()) {
      String value = env.get(e.getKey());
      if (value != null && !value.isEmpty()) {
        fromEnv = fromEnv.withFallback(ConfigFactory.parseMap(Map.of(e.getValue(), value), e.getKey()));
      }
    }
    try {
      return ConfigFactory.parseMap(flags, SettingSource.FLAGS)
          .withFallback(fromEnv)
          .withFallback(profile)
          .withFallback(fileLayer)
          .withFallback(ConfigFactory.load())
          .resolve();
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /**
   * A HOCON syntax error in the user's words: "config file FILE, line N: expecting a value, not '}'"; the path and
   * line are said once, and the parser's hint to rename the file to .properties is left out.
   */
  public static String parseError(String what, Path file, ConfigException e) {
    String message = e.getMessage();
    int cut = message.indexOf(" (if you intended");
    if (cut > 0) {
      message = message.substring(0, cut);
    }
    if (e.origin() != null && e.origin().description() != null
        && message.startsWith(e.origin().description() + ": ")) {
      message = message.substring(e.origin().description().length() + 2);
    }
    message = message.replace("Expecting a value but got wrong token: ", "expecting a value, not ")
        .replace("a close parentheses ')'", "a closing '}'");
    int line = e.origin() == null ? -1 : e.origin().lineNumber();
    return what + " " + file + (line > 0 ? ", line " + line : "") + ": " + message;
  }

  /** {@code $XDG_CONFIG_HOME/interpreter4j/config.conf}, else {@code ~/.config/interpreter4j/config.conf}. */
  public static Path defaultConfigFile(Map<String, String> env) {
    return configDir(env).resolve("config.conf");
  }

  public static Path configDir(Map<String, String> env) {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
    return base.resolve("interpreter4j");
  }
}
