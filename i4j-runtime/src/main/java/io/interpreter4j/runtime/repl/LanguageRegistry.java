package io.interpreter4j.runtime.repl;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValueType;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.intercept.Languages;
import io.interpreter4j.core.safety.ChildEnvironment;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The languages a session can run: the built-in ones and those added under {@code interpreter4j.languages}, their
 * aliases, and which of them are installed here. Installed interpreters and their versions are found once per
 * registry, all at the same time, each probe with a short timeout; registries are shared per configuration, so
 * the system prompt and the session ask the same one.
 */
public final class LanguageRegistry {

  /** An installed language: {@code ("javascript", "20.20.2", "javascript (node 20.20.2)")}. */
  public record Installed(String name, String version, String label) {}

  /** How a language's blocks run. */
  public enum Style {
    /** one persistent interpreter keeps state across blocks */
    REPL,
    /** each block is a new process */
    PER_BLOCK,
    /** not run: saved to a file (html) */
    SAVED
  }

  /**
   * One language.
   *
   * @param name    canonical name, the fence tag after {@link Languages#normalize}
   * @param aliases other tags for it beyond those {@link Languages} knows (configured languages)
   * @param style   how blocks run
   * @param probe   whether it is installed here, and its version; blocking, called off the actor threads
   * @param dialect the worker's dialect; null for the built-in ones ({@link ReplDialect#of})
   */
  public record Language(String name, List<String> aliases, Style style, Supplier<Optional<Installed>> probe,
                         ReplDialect dialect) {}

  /** Longest wait for one version command. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private static final Pattern VERSION = Pattern.compile("\\d+(?:\\.\\d+)+");
  private static final Map<String, LanguageRegistry> SHARED = new ConcurrentHashMap<>();
  private static volatile LanguageRegistry processRegistry;
  private static final ExecutorService PROBES = Executors.newCachedThreadPool(task -> {
    Thread thread = new Thread(task, "i4j-language-probe");
    thread.setDaemon(true);
    return thread;
  });

  private final Map<String, Language> languages;
  private final Map<String, String> aliases;
  private final List<String> passEnv;
  private volatile CompletableFuture<List<Installed>> discovery;

  private LanguageRegistry(Map<String, Language> languages, List<String> passEnv) {
    this.languages = languages;
    this.passEnv = passEnv;
    Map<String, String> all = new LinkedHashMap<>();
    languages.values().forEach(l -> l.aliases().forEach(a -> all.put(a.toLowerCase(Locale.ROOT), l.name())));
    this.aliases = all;
  }

  /**
   * The registry for a configuration: the built-in languages with {@code interpreter4j.execution.python}, plus
   * {@code interpreter4j.languages}, its workers given {@code interpreter4j.execution.pass-env}. One instance per
   * distinct setting, so discovery runs once for each.
   */
  public static LanguageRegistry of(Config root) {
    String python = root.hasPath("interpreter4j.execution.python") ? root.getString("interpreter4j.execution.python")
        : "";
    String configured = root.hasPath("interpreter4j.languages")
        ? root.getValue("interpreter4j.languages").render(ConfigRenderOptions.concise()) : "";
    List<String> passEnv = Settings.passEnv(root);
    return SHARED.computeIfAbsent(python + "\u0000" + configured + "\u0000" + passEnv,
        key -> create(root, python, passEnv));
  }

  /**
   * Makes {@code root}'s registry the one {@link #shared} answers, and starts its discovery in the background. The
   * CLI calls it once at start with the configuration it loaded (flags, profile, config file), the same one its
   * actor system gets, so the system prompt and the sessions agree.
   *
   * @throws IllegalArgumentException when {@code interpreter4j.languages} is invalid, naming the setting
   */
  public static LanguageRegistry configure(Config root) {
    LanguageRegistry registry = of(root);
    processRegistry = registry;
    registry.discovery();
    return registry;
  }

  /**
   * The registry {@link #configure} set; before that, the one of the user's default configuration (config file,
   * {@code I4J_*} variables, reference.conf).
   */
  public static LanguageRegistry shared() {
    LanguageRegistry configured = processRegistry;
    if (configured != null) {
      return configured;
    }
    Config config;
    try {
      config = ConfigLoader.load(null, Map.of(), System.getenv());
    } catch (IllegalArgumentException e) {
      config = ConfigFactory.load();
    }
    return of(config);
  }

  private static LanguageRegistry create(Config root, String python, List<String> passEnv) {
    Map<String, Language> all = new LinkedHashMap<>();
    for (Language builtIn : builtIns(python)) {
      all.put(builtIn.name(), builtIn);
    }
    if (root.hasPath("interpreter4j.languages")) {
      Config section = root.getConfig("interpreter4j.languages");
      for (String key : section.root().keySet()) {
        Language configured = configured(key, section);
        all.put(configured.name(), configured); // a configured language replaces a built-in one of that name
      }
    }
    return new LanguageRegistry(Map.copyOf(all), passEnv);
  }

  // ---- queries

  /** The canonical name of a fence tag: "js" -> "javascript", a configured alias -> its language. */
  public String canonical(String tag) {
    String normalized = Languages.normalize(tag.strip().toLowerCase(Locale.ROOT), "");
    return aliases.getOrDefault(normalized, normalized);
  }

  /** Every language this registry knows, installed or not. */
  public List<Language> languages() {
    return languages.values().stream().sorted(Comparator.comparing(LanguageRegistry::order)).toList();
  }

  /** The installed languages, in a stable order (python and bash first). Probes once, then answers from memory. */
  public List<Installed> discover() {
    try {
      return discovery().get(PROBE_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } catch (ExecutionException | TimeoutException e) {
      return List.of();
    }
  }

  /** {@link #discover} without waiting: completes when every probe has answered or timed out. */
  public CompletableFuture<List<Installed>> discovery() {
    CompletableFuture<List<Installed>> known = discovery;
    if (known != null) {
      return known;
    }
    synchronized (this) {
      if (discovery == null) {
        discovery = probeAll();
      }
      return discovery;
    }
  }

  /** Labels for the system prompt: "python 3.11.7", "javascript (node 20.20.2)", ... */
  public List<String> labels() {
    return discover().stream().map(Installed::label).toList();
  }

  /** Whether {@code language} (canonical) is installed; probes first if nobody has yet. */
  public Optional<Installed> installed(String language) {
    return discover().stream().filter(i -> i.name().equals(language)).findFirst();
  }

  /**
   * A worker for {@code config.language()} (canonical), built-in or configured, given the pass-env variables that
   * are set here (interpreters otherwise do not inherit them, see {@link ChildEnvironment}).
   */
  public Behavior<ReplWorker.Command> worker(ReplConfig given) {
    Map<String, String> env = new LinkedHashMap<>(ChildEnvironment.passed(System.getenv(), passEnv));
    env.putAll(given.extraEnv());
    ReplConfig config = given.withExtraEnv(env);
    Language language = languages.get(canonical(config.language()));
    if (language != null && language.dialect() != null) {
      return ReplWorker.create(config, language.dialect());
    }
    return ReplWorker.create(config);
  }

  private CompletableFuture<List<Installed>> probeAll() {
    List<Language> ordered = languages();
    List<CompletableFuture<Optional<Installed>>> probes = new ArrayList<>();
    for (Language language : ordered) {
      probes.add(CompletableFuture.supplyAsync(language.probe(), PROBES)
          .exceptionally(e -> Optional.empty())
          // a probe that hangs past its own timeout counts as absent
          .completeOnTimeout(Optional.empty(), PROBE_TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS));
    }
    return CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new))
        .thenApply(v -> probes.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList());
  }

  private static int order(Language language) {
    List<String> builtIn = List.of(Languages.PYTHON, Languages.BASH, Languages.JAVASCRIPT, Languages.R,
        Languages.RUBY, Languages.JAVA, Languages.POWERSHELL, Languages.APPLESCRIPT, Languages.HTML);
    int at = builtIn.indexOf(language.name());
    return at >= 0 ? at : builtIn.size();
  }

  // ---- the built-in languages

  private static List<Language> builtIns(String python) {
    return List.of(
        repl(Languages.PYTHON, () -> {
          String executable = python.isBlank() ? ReplDialect.PythonExecutable.resolve() : python;
          return version(List.of(executable, "--version")).map(v -> installed(Languages.PYTHON, v, "python " + v));
        }),
        repl(Languages.BASH, () -> version(List.of("bash", "--version"))
            .map(v -> installed(Languages.BASH, v, "bash " + v))),
        repl(Languages.JAVASCRIPT, () -> version(List.of("node", "--version"))
            .map(v -> installed(Languages.JAVASCRIPT, v, "javascript (node " + v + ")"))),
        repl(Languages.R, () -> version(List.of("Rscript", "--version"))
            .map(v -> installed(Languages.R, v, "r (R " + v + ")"))),
        repl(Languages.RUBY, () -> version(List.of("ruby", "--version"))
            .map(v -> installed(Languages.RUBY, v, "ruby " + v))),
        repl(Languages.JAVA, LanguageRegistry::jshell),
        repl(Languages.POWERSHELL, () -> version(List.of("pwsh", "-NoLogo", "-NoProfile", "-Command",
            "$PSVersionTable.PSVersion.ToString()")).map(v -> installed(Languages.POWERSHELL, v, "powershell " + v))),
        new Language(Languages.APPLESCRIPT, List.of(), Style.PER_BLOCK, LanguageRegistry::appleScript, null),
        new Language(Languages.HTML, List.of(), Style.SAVED, () -> {
          Path browser = PerBlockDialect.browser();
          String how = browser == null ? "saved to a file, not run" : "saved to a file and rendered as text, not run";
          return Optional.of(installed(Languages.HTML, "", "html (" + how + ")"));
        }, null));
  }

  private static Language repl(String name, Supplier<Optional<Installed>> probe) {
    return new Language(name, List.of(), Style.REPL, probe, null);
  }

  private static Installed installed(String name, String version, String label) {
    return new Installed(name, version, label);
  }

  /** jshell needs a JDK: the jdk.jshell module in this JVM, whose java starts the driver. */
  private static Optional<Installed> jshell() {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    if (ModuleLayer.boot().findModule("jdk.jshell").isEmpty() || !Files.isExecutable(java)) {
      return Optional.empty();
    }
    Runtime.Version v = Runtime.version();
    String version = v.feature() + "." + v.interim() + "." + v.update();
    return Optional.of(installed(Languages.JAVA, version, "java " + version + " (jshell)"));
  }

  private static Optional<Installed> appleScript() {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac")
        || Executables.find("osascript").isEmpty()) {
      return Optional.empty();
    }
    String version = version(List.of("osascript", "-e", "AppleScript's version")).orElse("");
    return Optional.of(installed(Languages.APPLESCRIPT, version,
        "applescript" + (version.isEmpty() ? "" : " " + version) + " (osascript, a new process per block)"));
  }

  // ---- configured languages

  private static Language configured(String key, Config section) {
    String name = key.strip().toLowerCase(Locale.ROOT);
    String where = "interpreter4j.languages." + key;
    try {
      if (section.getValue(ConfigUtil.joinPath(key)).valueType() != ConfigValueType.OBJECT) {
        throw new IllegalArgumentException(where + " must be an object such as { command = [\"lua\", \"{file}\"] }");
      }
      Config c = section.getConfig(ConfigUtil.joinPath(key));
      List<String> command = c.getStringList("command");
      if (command.isEmpty() || command.get(0).isBlank()) {
        throw new IllegalArgumentException(where + ".command must name a program, e.g. [\"lua\", \"{file}\"]");
      }
      List<String> aliases = c.hasPath("aliases") ? c.getStringList("aliases") : List.of();
      String extension = c.hasPath("extension") ? c.getString("extension") : name;
      extension = extension.startsWith(".") ? extension.substring(1) : extension;
      if (extension.isBlank() || extension.contains("/")) {
        throw new IllegalArgumentException(where + ".extension must be a file extension such as \".lua\"");
      }
      List<String> versionCommand = c.hasPath("version-command") && c.getValue("version-command").valueType()
          == ConfigValueType.LIST ? c.getStringList("version-command") : List.of();
      PerBlockDialect dialect = new PerBlockDialect(name, command, extension);
      String program = command.get(0);
      Supplier<Optional<Installed>> probe = () -> {
        if (Executables.find(program).isEmpty()) {
          return Optional.empty();
        }
        String version = versionCommand.isEmpty() ? "" : version(versionCommand).orElse("");
        String label = name + (version.isEmpty() ? "" : " " + version) + " (a new process per block)";
        return Optional.of(installed(name, version, label));
      };
      return new Language(name, aliases.stream().map(a -> a.strip().toLowerCase(Locale.ROOT)).toList(),
          Style.PER_BLOCK, probe, dialect);
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  // ---- probing

  /** The first dotted version number in what {@code argv} prints within the probe timeout, if it runs at all. */
  static Optional<String> version(List<String> argv) {
    if (Executables.find(argv.get(0)).isEmpty()) {
      return Optional.empty();
    }
    try {
      Process p = new ProcessBuilder(argv).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
      // wait first: version lines fit in the pipe, and a hung interpreter must not hang us
      if (!p.waitFor(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        return Optional.of("");
      }
      String out = new String(p.getInputStream().readNBytes(8192), StandardCharsets.UTF_8);
      Matcher m = VERSION.matcher(out);
      return Optional.of(m.find() ? m.group() : "");
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
