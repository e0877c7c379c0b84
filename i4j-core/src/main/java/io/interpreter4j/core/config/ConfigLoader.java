package io.interpreter4j.core.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

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
    return layers(configFile, profile, flags, env, warnings, ConfigFactory.defaultReference()).over(whole());
  }

  /** {@link ConfigFactory#load()}: every library's defaults under system properties and application.conf. */
  private static Config whole() {
    try {
      return ConfigFactory.load();
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /**
   * A configuration read before a chat's prompt: {@code config} has the settings under {@code interpreter4j} that
   * {@link #load(Path, Config, Map, Map, Consumer)} gives, read over interpreter4j's own defaults
   * ({@link #ownDefaults}) without parsing every library's; {@code whole()} is the one {@code load} gives, with
   * Pekko's settings for an actor system, read at its first call (the layers and their warnings are not read again).
   */
  public record Early(Config config, Supplier<Config> whole) {}

  /**
   * As {@link #load(Path, Config, Map, Map, Consumer)}, read for a chat's prompt ({@link Early}). The same warnings,
   * and the same errors: where the own defaults are missing, or a setting refers to one only a library defines,
   * this is {@code load} itself.
   */
  public static Early loadEarly(Path configFile, Config profile, Map<String, Object> flags, Map<String, String> env,
                                Consumer<String> warnings) {
    Optional<OwnDefaults> own;
    try {
      own = ownDefaults();
    } catch (ConfigException e) {
      own = Optional.empty(); // an application.conf or system property that does not parse: said as load says it
    }
    if (own.isEmpty()) {
      Config config = load(configFile, profile, flags, env, warnings);
      return new Early(config, () -> config);
    }
    Layers layers = layers(configFile, profile, flags, env, warnings, own.get().reference());
    Config config;
    try {
      config = layers.over(own.get().defaults());
    } catch (IllegalArgumentException e) {
      Config whole = layers.over(whole()); // a substitution of a library's setting, say
      return new Early(whole, () -> whole);
    }
    Config[] whole = new Config[1];
    return new Early(config, () -> {
      synchronized (whole) {
        if (whole[0] == null) {
          whole[0] = layers.over(whole());
        }
        return whole[0];
      }
    });
  }

  /**
   * The user's layers of a configuration: flags over {@code I4J_*} variables over the profile over the config file,
   * unresolved, to be put over defaults with {@link #over}. Reading them checks the file (it must parse) and passes
   * the settings the file and the profile write under {@code interpreter4j} but {@code reference} does not know to
   * {@code warnings}.
   */
  private record Layers(Config user) {

    /** The layers over {@code defaults}, resolved; a substitution that cannot be resolved is said as before. */
    Config over(Config defaults) {
      try {
        return user.withFallback(defaults).resolve();
      } catch (ConfigException e) {
        throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
      }
    }
  }

  /** The {@link Layers} of a configuration; see {@link #load(Path, Config, Map, Map, Consumer)}. */
  private static Layers layers(Path configFile, Config profile, Map<String, Object> flags, Map<String, String> env,
                              Consumer<String> warnings, Config reference) {
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
    return new Layers(ConfigFactory.parseMap(flags, SettingSource.FLAGS)
        .withFallback(fromEnv)
        .withFallback(profile)
        .withFallback(fileLayer));
  }

  /**
   * Where each module's build puts a copy of its reference.conf (the parent pom): interpreter4j's defaults alone,
   * which {@code i4j.jar} appends into one resource as it does every library's reference.conf.
   */
  static final String OWN_REFERENCE = "interpreter4j/reference.conf";

  /**
   * interpreter4j's own defaults: {@code reference}, the copies of the modules' reference.conf, and {@code defaults},
   * what {@link ConfigFactory#load()} gives with them in place of every library's reference.conf (system properties
   * over {@code application.conf} over them), the same under {@code interpreter4j} for a fortieth of the parsing.
   */
  record OwnDefaults(Config reference, Config defaults) {}

  private static volatile OwnDefaults ownDefaults;

  /**
   * The {@link OwnDefaults}, read once; empty when the copies are missing (modules built before them). An
   * {@code application.conf} or system property that does not parse throws its {@link ConfigException} (not kept).
   */
  static Optional<OwnDefaults> ownDefaults() {
    OwnDefaults own = ownDefaults;
    if (own == null) {
      synchronized (ConfigLoader.class) {
        own = ownDefaults;
        if (own == null) {
          Config reference = ConfigFactory.parseResources(OWN_REFERENCE);
          if (reference.isEmpty()) {
            return Optional.empty();
          }
          reference = reference.resolve();
          own = new OwnDefaults(reference, ConfigFactory.defaultOverrides()
              .withFallback(ConfigFactory.defaultApplication()).withFallback(reference).resolve());
          ownDefaults = own;
        }
      }
    }
    return Optional.of(own);
  }

  /**
   * Reads {@link #ownDefaults} ahead (a chat's start does it on a thread of its own); what goes wrong is said when
   * they are read for the configuration.
   */
  public static void readOwnDefaults() {
    try {
      ownDefaults();
    } catch (ConfigException e) {
      // said by loadEarly's reading
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
