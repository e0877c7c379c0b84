package io.interpreter4j.core.safety.analysis;

import java.nio.file.Path;

/**
 * How an analyzer hands on a program embedded in the one it reads ({@code python -c}, {@code bash -c}, a heredoc fed
 * to an interpreter, a {@code subprocess} string, {@code os.system}, R's {@code system()}, a script the block wrote
 * and then ran) to whichever analyzer reads that language, without knowing it. One is made per analysed block, bound
 * to that block's {@link PathJudge} and {@link Findings}, so what the embedded program does counts for the block.
 */
public interface NestedCode {

  /**
   * Analyses {@code code} as {@code language}, which is a language name ("python", "bash") or the program name of the
   * interpreter that runs it ("python3.12", "sh", "node", "Rscript"), {@code depth} levels of nesting down, in
   * {@code cwd} (null when unknown) with or without a virtualenv active.
   */
  void analyze(String language, String code, int depth, Path cwd, boolean venvActive);

  /**
   * A fresh shell analysis for a program in another language, {@code depth} levels down in {@code cwd}: the shell
   * commands it runs and its file effects are judged there as bash's own, sharing its folder, downloads and writes.
   */
  ShellEffects shell(int depth, Path cwd, boolean venvActive);
}
