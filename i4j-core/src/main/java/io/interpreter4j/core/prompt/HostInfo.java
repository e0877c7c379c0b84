package io.interpreter4j.core.prompt;

import java.util.List;

/** Facts about the machine the code runs on, gathered once at start and told to the model. */
public record HostInfo(String osName, String osVersion, String arch, String user, String cwd, String shell,
                       String pythonVersion, List<String> languages) {

  public HostInfo {
    languages = List.copyOf(languages);
  }
}
