package io.interpreter4j.runtime.sandbox;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Typed view of {@code interpreter4j.sandbox { }}: which sandbox the REPL workers' interpreters run in. The CLI's
 * {@code --sandbox[=KIND]} and {@code --sandbox-network[=on|off]} override it through {@link #withFlag} and
 * {@link #withNetwork}.
 *
 * @param kind        auto-run (the platform's sandbox for sessions whose blocks run without asking, none for the
 *                    others), none, bwrap, docker, seatbelt, or auto (the platform's sandbox for every session)
 * @param network     whether sandboxed code may use the network
 * @param dockerImage the image the docker sandbox runs
 * @param maskedPaths paths hidden from sandboxed code besides the standard ones ({@link MaskedPaths}): absolute or
 *                    {@code ~/...}
 */
public record SandboxSettings(Kind kind, boolean network, String dockerImage, List<String> maskedPaths) {

  public static final String DEFAULT_DOCKER_IMAGE = "python:3.12-slim";

  /** No sandbox and no network, the starting point of tests that name one sandbox. */
  public static final SandboxSettings NONE = new SandboxSettings(Kind.NONE, false, DEFAULT_DOCKER_IMAGE);

  /** As reference.conf has it: the platform's sandbox for auto-run sessions, with the network. */
  public static final SandboxSettings DEFAULT = new SandboxSettings(Kind.AUTO_RUN, true, DEFAULT_DOCKER_IMAGE);

  /** The sandboxes there are, and the two ways of choosing the platform's. */
  public enum Kind {
    NONE, BWRAP, DOCKER, SEATBELT, AUTO, AUTO_RUN;

    /**
     * "auto-run", "none", "bwrap" (or "bubblewrap"), "docker", "seatbelt" (or "sandbox-exec"), "auto"; any case.
     * An empty value is auto ({@code --sandbox} alone).
     */
    public static Kind parse(String value) {
      String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
      return switch (v) {
        case "auto-run", "auto_run" -> AUTO_RUN;
        case "none", "off", "false" -> NONE;
        case "bwrap", "bubblewrap" -> BWRAP;
        case "docker" -> DOCKER;
        case "seatbelt", "sandbox-exec" -> SEATBELT;
        case "auto", "true", "" -> AUTO;
        default -> throw new IllegalArgumentException(
            "unknown sandbox '" + value + "': use auto-run, none, bwrap, docker, seatbelt or auto");
      };
    }

    /** The platform's sandbox: bwrap on Linux, seatbelt on macOS, NONE where there is none (then AUTO is an error). */
    public static Kind platformDefault(String osName) {
      String os = osName.toLowerCase(Locale.ROOT);
      if (os.contains("linux")) {
        return BWRAP;
      }
      if (os.contains("mac") || os.contains("darwin")) {
        return SEATBELT;
      }
      return NONE;
    }

    /** The name as written in the configuration. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public SandboxSettings {
    Objects.requireNonNull(kind, "kind");
    dockerImage = dockerImage == null || dockerImage.isBlank() ? DEFAULT_DOCKER_IMAGE : dockerImage.strip();
    maskedPaths = maskedPaths == null ? List.of() : List.copyOf(maskedPaths);
  }

  public SandboxSettings(Kind kind, boolean network, String dockerImage) {
    this(kind, network, dockerImage, List.of());
  }

  /** Reads {@code interpreter4j.sandbox} from a config whose defaults come from reference.conf. */
  public static SandboxSettings from(Config root) {
    Config c;
    try {
      c = root.getConfig("interpreter4j.sandbox");
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
    Kind kind;
    try {
      kind = Kind.parse(c.getString("kind"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("interpreter4j.sandbox.kind: " + e.getMessage(), e);
    }
    try {
      return new SandboxSettings(kind, network(c), c.getString("docker-image"), c.getStringList("masked-paths"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /** {@code network}: a boolean, or on / off as the flag writes it. */
  private static boolean network(Config c) {
    try {
      return c.getBoolean("network");
    } catch (ConfigException.WrongType e) {
      try {
        return parseNetwork(c.getString("network"));
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException("interpreter4j.sandbox.network: " + bad.getMessage(), bad);
      }
    }
  }

  /** {@code --sandbox-network[=on|off]}: on, off, true, false, yes, no; empty (the flag alone) is on. */
  public static boolean parseNetwork(String value) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "", "on", "true", "yes" -> true;
      case "off", "false", "no" -> false;
      default -> throw new IllegalArgumentException("'" + value + "' is not on or off");
    };
  }

  /** {@code --sandbox} (value null or empty: auto, the platform's sandbox) or {@code --sandbox=KIND}. */
  public SandboxSettings withFlag(String value) {
    return withKind(Kind.parse(value));
  }

  public SandboxSettings withKind(Kind value) {
    return new SandboxSettings(value, network, dockerImage, maskedPaths);
  }

  /** {@code --sandbox-network[=on|off]}: whether sandboxed code may use the network. */
  public SandboxSettings withNetwork(boolean value) {
    return new SandboxSettings(kind, value, dockerImage, maskedPaths);
  }

  public SandboxSettings withDockerImage(String value) {
    return new SandboxSettings(kind, network, value, maskedPaths);
  }

  public SandboxSettings withMaskedPaths(List<String> value) {
    return new SandboxSettings(kind, network, dockerImage, value);
  }

  /** The kind with AUTO and AUTO_RUN replaced by this platform's sandbox (NONE when the platform has none). */
  public Kind resolvedKind() {
    return kind == Kind.AUTO || kind == Kind.AUTO_RUN
        ? Kind.platformDefault(System.getProperty("os.name", "")) : kind;
  }
}
