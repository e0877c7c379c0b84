package io.interpreter4j.core.safety;

import io.interpreter4j.core.intercept.Languages;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Rates how dangerous a code block is before it runs, so auto-run ({@code -y}) can run harmless code unattended
 * and stop at destructive, privileged or exfiltrating code. Pure and fast: no I/O, no state between calls.
 *
 * <p>bash (and sh/zsh, already normalised) and python are analysed properly; other languages are LOW unless they
 * shell out with a literal command string, which is then analysed as bash.
 */
public final class DangerAnalyzer {

  /** Calls that run a shell command in languages without their own analyzer. */
  private static final List<String> SHELL_OUT_MARKERS = List.of(
      "system(", "exec(", "execSync(", "spawn(", "spawnSync(", "execFile", "popen(", "Runtime.getRuntime()",
      "ProcessBuilder", "shell_exec", "passthru(", "%x(", "exec.Command", "Process.Start", "Start-Process",
      "Invoke-Expression", "child_process", "os/exec", "Command::new", "sh(");

  /** Rules judged on the text of a block in any language, whatever its language's analyzer makes of it. */
  private static final List<java.util.function.Function<String, List<Flag>>> BLOCK_TEXT_RULES = List.of(
      io.interpreter4j.core.safety.rules.RemoteShells::judge, io.interpreter4j.core.safety.rules.SecretSends::judge,
      io.interpreter4j.core.safety.rules.RemoteApis::judge, io.interpreter4j.core.safety.rules.WideFileEffects::judge);

  /** The risk of running {@code code} as {@code language} in {@code ctx}; LOW for null or blank code. */
  public Risk analyze(String language, String code, AnalysisContext ctx) {
    java.util.Objects.requireNonNull(ctx, "ctx");
    if (code == null || code.isBlank()) {
      return Risk.low();
    }
    String lang = Languages.normalize(language == null ? "" : language.strip(), "");
    Findings findings = new Findings();
    PathJudge judge = new PathJudge(ctx);
    try {
      switch (lang) {
        case Languages.BASH -> new BashAnalyzer(judge, findings, ctx.workdir(), ctx.venvActive(), 0).analyze(code);
        case Languages.PYTHON -> new PythonAnalyzer(judge, findings, 0, ctx.workdir(), ctx.venvActive()).analyze(code);
        case Languages.JAVASCRIPT, Languages.RUBY, Languages.R ->
            new ScriptAnalyzer(dialect(lang), judge, findings, 0, ctx.workdir(), ctx.venvActive()).analyze(code);
        default -> analyzeOther(code, judge, findings, 0, ctx.workdir(), ctx.venvActive());
      }
      GateBypassRules.check(code, findings);
      BLOCK_TEXT_RULES.forEach(rule -> rule.apply(code).forEach(findings::add));
    } catch (RuntimeException | StackOverflowError e) {
      // an analyzer bug must not wave code through: refuse what cannot be understood
      findings.add(Flag.high("analysis-failed", "could not be analysed (" + e.getClass().getSimpleName() + ")"));
    }
    return findings.toRisk();
  }

  /**
   * Code the block runs indirectly (a script it wrote, then ran with {@code interpreter}): analysed in the language
   * the interpreter speaks ("python3", "bash", "node", "Rscript"...).
   */
  static void analyzeNested(String interpreter, String code, PathJudge judge, Findings findings, int depth, Path cwd,
                            boolean venv) {
    String lang = languageOf(interpreter);
    switch (lang) {
      case Languages.BASH -> new BashAnalyzer(judge, findings, cwd, venv, depth).analyze(code);
      case Languages.PYTHON -> new PythonAnalyzer(judge, findings, depth, cwd, venv).analyze(code);
      case Languages.JAVASCRIPT, Languages.RUBY, Languages.R ->
          new ScriptAnalyzer(dialect(lang), judge, findings, depth, cwd, venv).analyze(code);
      default -> analyzeOther(code, judge, findings, depth, cwd, venv);
    }
  }

  private static ScriptLexer.Dialect dialect(String lang) {
    return switch (lang) {
      case Languages.RUBY -> ScriptLexer.Dialect.RUBY;
      case Languages.R -> ScriptLexer.Dialect.R;
      default -> ScriptLexer.Dialect.JAVASCRIPT;
    };
  }

  /** The language of an interpreter's program name: python3.12 is python, sh and zsh are bash, node is javascript. */
  static String languageOf(String interpreter) {
    String name = interpreter == null ? "" : interpreter.strip();
    int slash = name.lastIndexOf('/');
    name = slash >= 0 ? name.substring(slash + 1) : name;
    if (name.startsWith("python") || name.equals("py") || name.startsWith("pypy")) {
      return Languages.PYTHON;
    }
    if (Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox", "source", ".").contains(name)) {
      return Languages.BASH;
    }
    if (name.equals("Rscript") || name.equals("R")) {
      return Languages.R;
    }
    if (name.equals("deno") || name.equals("bun")) {
      return Languages.JAVASCRIPT;
    }
    return Languages.normalize(name, Languages.BASH);
  }

  /** Languages without an analyzer: the string literals of code that shells out are analysed as bash commands. */
  static void analyzeOther(String code, PathJudge judge, Findings findings, int depth, Path cwd, boolean venv) {
    boolean shellsOut = false;
    for (String marker : SHELL_OUT_MARKERS) {
      if (code.contains(marker)) {
        shellsOut = true;
        break;
      }
    }
    if (!shellsOut) {
      return;
    }
    int n = code.length();
    for (int i = 0; i < n; i++) {
      char q = code.charAt(i);
      if (q != '"' && q != '\'' && q != '`') {
        continue;
      }
      StringBuilder sb = new StringBuilder();
      int j = i + 1;
      while (j < n && code.charAt(j) != q && code.charAt(j) != '\n') {
        char c = code.charAt(j);
        if (c == '\\' && j + 1 < n) {
          sb.append(code.charAt(j + 1));
          j += 2;
          continue;
        }
        sb.append(c);
        j++;
      }
      if (sb.indexOf(" ") >= 0) {
        new BashAnalyzer(judge, findings, cwd, venv, depth + 1).analyze(sb.toString());
      }
      i = j;
    }
  }
}
