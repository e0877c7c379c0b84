package io.interpreter4j.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = Main.class.getPackage().getImplementationVersion();
    return new String[] {"interpreter4j " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
  }
}
