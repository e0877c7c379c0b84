package io.interpreter4j.cli;

import io.interpreter4j.runtime.sandbox.SandboxSettings;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --sandbox[=KIND]} and {@code --sandbox-network[=on|off]}: the session commands' and {@code i4j doctor}'s. */
public final class SandboxOptions {

  @Option(names = "--sandbox", arity = "0..1", paramLabel = "KIND", fallbackValue = "auto",
      converter = KindConverter.class,
      description = "Where code runs. Default (auto-run): in the platform's sandbox (bwrap on Linux, seatbelt on "
          + "macOS) when it runs without asking (-y), unconfined when you approve each block. Alone: the platform's "
          + "sandbox for every block; or none, bwrap, docker, seatbelt, auto-run. The sandbox: writable working "
          + "directory, private /tmp, read-only rest, secrets (~/.ssh, ~/.aws, ...) hidden.")
  String kind;

  @Option(names = "--sandbox-network", arity = "0..1", paramLabel = "on|off", fallbackValue = "on",
      converter = NetworkConverter.class,
      description = "Whether sandboxed code may use the network: on (the default; the flag alone) or off.")
  Boolean network;

  /** The flags that were given, as configuration paths. */
  void addTo(Map<String, Object> overrides) {
    if (kind != null) {
      overrides.put("interpreter4j.sandbox.kind", kind);
    }
    if (network != null) {
      overrides.put("interpreter4j.sandbox.network", network);
    }
  }

  /** A sandbox kind as the configuration writes it; an unknown one is a usage error naming the choices. */
  public static final class KindConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        return SandboxSettings.Kind.parse(value).configName();
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** on, off (also true, false, yes, no). */
  public static final class NetworkConverter implements ITypeConverter<Boolean> {
    @Override
    public Boolean convert(String value) {
      try {
        return SandboxSettings.parseNetwork(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
