package io.interpreter4j.cli;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.safety.PolicyRules;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code i4j doctor}: which protections are active here, and how to get the others. */
@Command(name = "doctor", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"Say which protections of the code a model writes are active here (the sandbox and whether it "
        + "can run, its network, the masked paths, the danger analysis, approval rules, secret redaction, isolated "
        + "installs) and how to get the others.",
        "Reads the same configuration as a session (--config, --profile, --sandbox, ...). Exit code 0; 2 for an "
            + "invalid configuration."},
    footer = {"", "Examples:", "  i4j doctor", "  i4j doctor --sandbox=none --json"})
final class DoctorCommand implements Callable<Integer> {

  @Mixin SandboxOptions sandbox = new SandboxOptions();

  @Option(names = "--config", paramLabel = "FILE",
      description = "HOCON config file (default: $XDG_CONFIG_HOME/interpreter4j/config.conf if present).")
  Path config;

  @Option(names = "--profile", paramLabel = "NAME", description = "Use a profile (see i4j profiles). Default: "
      + "I4J_PROFILE.")
  String profile;

  @Option(names = "--json", description = "Print the report as one JSON object.")
  boolean json;

  @Override
  public Integer call() {
    Map<String, String> env = System.getenv();
    PrintStream out = System.out;
    Map<String, Object> overrides = new LinkedHashMap<>();
    sandbox.addTo(overrides);
    ProtectionReport report;
    try {
      Config loaded = ConfigLoader.load(config, Profiles.layer(profile, env), overrides, env,
          ConfigWarnings.stderr("i4j"));
      Settings settings = Settings.from(loaded, env);
      SandboxSettings sandboxSettings = SandboxSettings.from(loaded);
      Containment containment = Containment.of(sandboxSettings,
          MaskedPaths.standard(env, settings.dataDir(), sandboxSettings.maskedPaths()));
      report = ProtectionReport.of(containment, settings, rules(loaded, "deny"), rules(loaded, "ask"),
          rules(loaded, "allow"), VenvMode.from(loaded), env);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    out.print(json ? report.json().toString() + "\n" : report.text());
    out.flush();
    return 0;
  }

  private static int rules(Config config, String kind) {
    String path = PolicyRules.CONFIG_PATH + "." + kind;
    List<String> list = config.hasPath(path) ? config.getStringList(path) : List.of();
    return list.size();
  }
}
