package io.interpreter4j.core.safety.analysis;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a block runs, as the danger analysis needs it: paths are judged relative to the working directory and
 * the home directory; paths the session itself created may be deleted freely.
 *
 * @param workdir          the directory the code runs in (absolute)
 * @param home             the user's home directory (absolute)
 * @param createdBySession files and directories the session created (may be empty, never null)
 * @param venvActive       whether the interpreter runs inside a virtual environment, so {@code pip install} is local
 */
public record AnalysisContext(Path workdir, Path home, Set<Path> createdBySession, boolean venvActive) {

  public AnalysisContext {
    workdir = Objects.requireNonNull(workdir, "workdir").toAbsolutePath().normalize();
    home = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
    createdBySession = createdBySession == null ? Set.of()
        : createdBySession.stream().map(p -> p.toAbsolutePath().normalize()).collect(Collectors.toUnmodifiableSet());
  }

  public AnalysisContext(Path workdir, Path home, Set<Path> createdBySession) {
    this(workdir, home, createdBySession, false);
  }

  public static AnalysisContext of(Path workdir, Path home) {
    return new AnalysisContext(workdir, home, Set.of(), false);
  }

  /** The context of this JVM: its working directory, {@code user.home}, and VIRTUAL_ENV or CONDA_PREFIX for venvs. */
  public static AnalysisContext current() {
    boolean venv = System.getenv("VIRTUAL_ENV") != null || System.getenv("CONDA_PREFIX") != null;
    return new AnalysisContext(Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")), Set.of(), venv);
  }

  public AnalysisContext withVenvActive(boolean active) {
    return new AnalysisContext(workdir, home, createdBySession, active);
  }

  public AnalysisContext withCreatedBySession(Set<Path> created) {
    return new AnalysisContext(workdir, home, created, venvActive);
  }
}
