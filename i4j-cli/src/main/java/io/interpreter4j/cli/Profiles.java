package io.interpreter4j.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.interpreter4j.core.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Named bundles of settings: {@code $XDG_CONFIG_HOME/interpreter4j/profiles/NAME.conf}, HOCON with settings under
 * {@code interpreter4j { }} (a model, flags such as {@code approval.mode}, custom instructions) and an optional
 * top-level {@code description}. {@code --profile NAME} (or {@code I4J_PROFILE}) layers one between the config
 * file and the environment.
 */
final class Profiles {

  /** description and model are "" when the profile does not set them. */
  record Profile(String name, Path file, String description, String model) {}

  private Profiles() {}

  static Path dir(Map<String, String> env) {
    return ConfigLoader.configDir(env).resolve("profiles");
  }

  /** The profile named on the command line or in I4J_PROFILE, as a config layer; empty when none is named. */
  static Config layer(String flag, Map<String, String> env) {
    String name = flag != null ? flag : env.get("I4J_PROFILE");
    if (name == null || name.isBlank()) {
      return ConfigFactory.empty();
    }
    return parse(file(name, env));
  }

  /** A profile's file: NAME in the profiles folder, or a path to a .conf file. */
  static Path file(String name, Map<String, String> env) {
    Path file = name.contains("/") || name.endsWith(".conf") ? Path.of(name) : dir(env).resolve(name + ".conf");
    if (!Files.isRegularFile(file)) {
      List<String> names = list(env).stream().map(Profile::name).toList();
      throw new ModelFactory.UsageException("profile '" + name + "' not found: no file " + file
          + (names.isEmpty() ? " (there are no profiles yet; create " + dir(env) + "/NAME.conf)"
              : " (profiles: " + String.join(", ", names) + ")"));
    }
    return file;
  }

  static List<Profile> list(Map<String, String> env) {
    Path dir = dir(env);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Profile> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(f -> f.getFileName().toString().endsWith(".conf")).sorted(Comparator.naturalOrder())
          .forEach(f -> out.add(describe(f)));
    } catch (IOException e) {
      throw new ModelFactory.UsageException("cannot list the profiles in " + dir + ": " + e.getMessage());
    }
    return out;
  }

  private static Profile describe(Path file) {
    String name = file.getFileName().toString().replaceFirst("\\.conf$", "");
    try {
      Config c = parse(file);
      String description = c.hasPath("description") ? c.getString("description") : "";
      String model = c.hasPath("interpreter4j.model") ? c.getString("interpreter4j.model") : "";
      return new Profile(name, file, description, model);
    } catch (ModelFactory.UsageException | ConfigException e) {
      return new Profile(name, file, "(unreadable: " + e.getMessage() + ")", "");
    }
  }

  private static Config parse(Path file) {
    try {
      return ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
    } catch (ConfigException e) {
      throw new ModelFactory.UsageException(ConfigLoader.parseError("profile", file, e));
    }
  }
}
