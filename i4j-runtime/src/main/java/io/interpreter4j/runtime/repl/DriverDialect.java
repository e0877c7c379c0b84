package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.repl.jshell.JShellDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A persistent interpreter that runs a driver speaking the python driver's protocol: one line
 * {@code "<marker> <code file>"} per block on its command channel, then {@code "\u0002<marker> <status> <flags>"} on
 * private copies of stdout and stderr. Drivers that cannot duplicate file descriptors themselves (node, R, pwsh, the
 * JVM) are started behind a shell that moves the command channel to fd 3, copies stdout and stderr to fds 4 and 5,
 * and points fd 0 at /dev/null.
 */
final class DriverDialect extends ReplDialect {

  /**
   * Moves the channels, then becomes the interpreter: {@code sh -c MOVE_CHANNELS i4j argv...}. These drivers never
   * leave their process group, so the sandbox's note that the group is shared is of no use to the code.
   */
  static final String MOVE_CHANNELS = "unset I4J_SHARED_PROCESS_GROUP; exec 3<&0 4>&1 5>&2 </dev/null; exec \"$@\"";

  /** Environment variable that carries the R driver: {@code Rscript -e} cannot take a long expression. */
  static final String R_DRIVER_VARIABLE = "I4J_R_DRIVER";

  static final DriverDialect JAVASCRIPT = new DriverDialect("javascript", "node process",
      "earlier state (variables, functions, required modules)", "js", true, false,
      config -> List.of("node", "--expose-internals", "-e", resource("javascript_driver.js")),
      Map.of());

  static final DriverDialect RUBY = new DriverDialect("ruby", "ruby process",
      "earlier state (local variables, methods, classes)", "rb", false, true,
      config -> List.of("ruby", "-EUTF-8", "-e", resource("ruby_driver.rb")), Map.of());

  static final DriverDialect R = new DriverDialect("r", "R process",
      "earlier state (variables, functions, loaded packages)", "R", true, false,
      config -> List.of("Rscript", "--vanilla", "-e", "eval(parse(text = Sys.getenv('" + R_DRIVER_VARIABLE + "')))"),
      Map.of(R_DRIVER_VARIABLE, resource("r_driver.R")),
      // R dies of a SIGINT that comes before it has set its own handler (a block interrupted or timed out while its
      // R was still starting): started with SIGINT ignored, it ignores one until then, and its handler replaces that
      true);

  static final DriverDialect POWERSHELL = new DriverDialect("powershell", "PowerShell process",
      "earlier state (variables, functions)", "ps1", true, false,
      config -> List.of("pwsh", "-NoLogo", "-NoProfile", "-NonInteractive", "-Command",
          resource("powershell_driver.ps1")),
      Map.of());

  static final DriverDialect JAVA = new DriverDialect("java", "JShell process",
      "earlier state (variables, methods, classes, imports)", "jsh", true, false,
      config -> javaArgv(), Map.of());

  private final boolean movesChannels;
  private final boolean leadsOwnGroup;
  private final Function<ReplConfig, List<String>> interpreter;
  private final Map<String, String> environment;
  /** Starts with SIGINT ignored (the interpreter sets its own handler as it starts), else at its default. */
  private final boolean ignoresSigintUntilReady;

  private DriverDialect(String name, String processName, String earlierState, String codeExtension,
      boolean movesChannels, boolean leadsOwnGroup, Function<ReplConfig, List<String>> interpreter,
      Map<String, String> environment) {
    this(name, processName, earlierState, codeExtension, movesChannels, leadsOwnGroup, interpreter, environment,
        false);
  }

  private DriverDialect(String name, String processName, String earlierState, String codeExtension,
      boolean movesChannels, boolean leadsOwnGroup, Function<ReplConfig, List<String>> interpreter,
      Map<String, String> environment, boolean ignoresSigintUntilReady) {
    super(name, processName, "process", earlierState, NEW_PROCESS_NEXT, codeExtension);
    this.movesChannels = movesChannels;
    this.leadsOwnGroup = leadsOwnGroup;
    this.interpreter = interpreter;
    this.environment = environment;
    this.ignoresSigintUntilReady = ignoresSigintUntilReady;
  }

  @Override
  List<String> argv(ReplConfig config) {
    List<String> argv = new ArrayList<>();
    if (movesChannels) {
      argv.addAll(List.of("sh", "-c", MOVE_CHANNELS, "i4j-" + name()));
    }
    argv.addAll(interpreter.apply(config));
    return withSetsid(ignoresSigintUntilReady ? ReplProcess.withIgnoredSigint(argv)
        : ReplProcess.withDefaultSigint(argv));
  }

  @Override
  boolean ownsProcessGroup() {
    // a driver that calls setsid itself leads its group even where the setsid command is missing
    return leadsOwnGroup || ReplProcess.SETSID != null;
  }

  @Override
  Map<String, String> environment() {
    return environment;
  }

  /** The JVM running interpreter4j, with the JShell driver from interpreter4j's own jar or classes folder. */
  private static List<String> javaArgv() {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classes = classesOf(JShellDriver.class);
    return List.of(java.toString(),
        "-Dfile.encoding=UTF-8", "-Dstdout.encoding=UTF-8", "-Dstderr.encoding=UTF-8",
        "-Dsun.stdout.encoding=UTF-8", "-Dsun.stderr.encoding=UTF-8",
        // one small heap and GC: this JVM only compiles and runs snippets
        "-XX:+UseSerialGC", "-Xss4m",
        "-cp", classes, JShellDriver.class.getName());
  }

  /** The jar or classes folder {@code type} was loaded from, for a child JVM's class path. */
  static String classesOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException | RuntimeException e) {
      throw new UncheckedIOException(new IOException("cannot locate the classes of " + type.getName() + ": " + e, e));
    }
  }
}
