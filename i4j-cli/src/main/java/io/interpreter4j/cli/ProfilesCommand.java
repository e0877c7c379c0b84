package io.interpreter4j.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code i4j profiles}: the profiles in the config folder, for {@code --profile NAME}. */
@Command(name = "profiles", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"List the profiles: $XDG_CONFIG_HOME/interpreter4j/profiles/NAME.conf, used with --profile NAME.",
        "A profile is HOCON: settings under interpreter4j { } (model, approval, custom-instructions, ...) and an "
            + "optional description."})
final class ProfilesCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    PrintStream out = System.out;
    var env = System.getenv();
    List<Profiles.Profile> profiles = Profiles.list(env);
    if (profiles.isEmpty()) {
      out.println("no profiles yet in " + Profiles.dir(env) + ". Create one, e.g. " + Profiles.dir(env)
          + "/local.conf:");
      out.println();
      out.println("  description = \"Llama on Ollama, asks before running code\"");
      out.println("  interpreter4j {");
      out.println("    model = \"ollama/llama3.1\"");
      out.println("    approval.mode = ask");
      out.println("    custom-instructions = \"Prefer the standard library.\"");
      out.println("  }");
      out.println();
      out.println("then: i4j --profile local");
      return 0;
    }
    int width = Math.max(4, profiles.stream().mapToInt(p -> p.name().length()).max().orElse(4));
    int modelWidth = Math.max(5, profiles.stream().mapToInt(p -> p.model().length()).max().orElse(5));
    String format = "%-" + width + "s  %-" + modelWidth + "s  %s%n";
    out.printf(format, "NAME", "MODEL", "DESCRIPTION");
    for (Profiles.Profile p : profiles) {
      out.printf(format, p.name(), p.model().isEmpty() ? "-" : p.model(), p.description());
    }
    out.println();
    out.println("in " + Profiles.dir(env) + "; use one with --profile NAME (or I4J_PROFILE=NAME)");
    return 0;
  }
}
