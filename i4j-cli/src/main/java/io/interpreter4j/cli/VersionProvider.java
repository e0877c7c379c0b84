package io.interpreter4j.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {version()};
  }

  /** "interpreter4j 0.1.0 (Java 17.0.15+6)": what {@code i4j --version} prints. */
  static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    return "interpreter4j " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")";
  }
}
