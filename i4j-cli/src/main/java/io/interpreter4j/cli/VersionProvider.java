package io.interpreter4j.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {version()};
  }

  /**
   * "interpreter4j 0.1.0 (Java 17.0.15+6)": what {@code i4j --version} prints. Built with a StringBuilder and the
   * JDK's version from its {@code java.runtime.version} property (the string {@link Runtime#version()} is parsed
   * from): a {@code +} concatenation is the JVM's first invokedynamic here and spins method handles, and
   * {@code Runtime.version().toString()} runs a stream; together about half the CPU of {@code java -jar --version}.
   */
  static String version() {
    String v = Main.class.getPackage().getImplementationVersion();
    String java = System.getProperty("java.runtime.version");
    return new StringBuilder("interpreter4j ").append(v == null ? "dev" : v).append(" (Java ")
        .append(java == null ? Runtime.version().toString() : java).append(')').toString();
  }
}
