package io.interpreter4j.runtime.sandbox;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.Locale;
import java.util.Objects;

/**
 * Typed view of {@code interpreter4j.sandbox { }}: which sandbox the REPL workers' interpreters run in. The CLI's
 * {@code --sandbox[=KIND]} and {@code --sandbox-network} override it through {@link #withFlag} and
 * {@link #withNetwork}.
 *
 * @param kind        none, bwrap, docker, seatbelt, or auto (the platform's: bwrap on Linux, seatbelt on macOS)
 * @param network     whether sandboxed code may use the network
 * @param dockerImage the image the docker sandbox runs
 */
public record SandboxSettings(Kind kind, boolean network, String dockerImage) {

  public static final String DEFAULT_DOCKER_IMAGE = "python:3.12-slim";

  /** No sandbox, as reference.conf has it. */
  public static final SandboxSettings NONE = new SandboxSettings(Kind.NONE, false, DEFAULT_DOCKER_IMAGE);

  /** The sandboxes there are. */
  public enum Kind {
    NONE, BWRAP, DOCKER, SEATBELT, AUTO;

    /** "none", "bwrap" (or "bubblewrap"), "docker", "seatbelt" (or "sandbox-exec"), "auto"; any case. */
    public static Kind parse(String value) {
      String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
      return switch (v) {
        case "none", "off", "false" -> NONE;
        case "bwrap", "bubblewrap" -> BWRAP;
        case "docker" -> DOCKER;
        case "seatbelt", "sandbox-exec" -> SEATBELT;
        case "auto", "true", "" -> AUTO;
        default -> throw new IllegalArgumentException(
            "unknown sandbox '" + value + "': use none, bwrap, docker, seatbelt or auto");
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
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public SandboxSettings {
    Objects.requireNonNull(kind, "kind");
    dockerImage = dockerImage == null || dockerImage.isBlank() ? DEFAULT_DOCKER_IMAGE : dockerImage.strip();
  }

  /** Reads {@code interpreter4j.sandbox} from a config whose defaults come from reference.conf. */
  public static SandboxSettings from(Config root) {
    try {
      Config c = root.getConfig("interpreter4j.sandbox");
      return new SandboxSettings(Kind.parse(c.getString("kind")), c.getBoolean("network"),
          c.getString("docker-image"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("interpreter4j.sandbox.kind: " + e.getMessage(), e);
    }
  }

  /** {@code --sandbox} (value null or empty: auto, the platform's sandbox) or {@code --sandbox=KIND}. */
  public SandboxSettings withFlag(String value) {
    return withKind(Kind.parse(value));
  }

  public SandboxSettings withKind(Kind value) {
    return new SandboxSettings(value, network, dockerImage);
  }

  /** {@code --sandbox-network}: let sandboxed code use the network. */
  public SandboxSettings withNetwork(boolean value) {
    return new SandboxSettings(kind, value, dockerImage);
  }

  public SandboxSettings withDockerImage(String value) {
    return new SandboxSettings(kind, network, value);
  }

  /** The kind with AUTO replaced by this platform's sandbox (NONE when the platform has none). */
  public Kind resolvedKind() {
    return kind == Kind.AUTO ? Kind.platformDefault(System.getProperty("os.name", "")) : kind;
  }
}
