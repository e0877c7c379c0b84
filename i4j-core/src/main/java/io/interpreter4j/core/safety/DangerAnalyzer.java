package io.interpreter4j.core.safety;

import io.interpreter4j.core.intercept.Languages;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.Risk;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.bash.BashAnalyzer;
import io.interpreter4j.core.safety.python.PythonAnalyzer;
import io.interpreter4j.core.safety.script.ScriptAnalyzer;
import io.interpreter4j.core.safety.script.ScriptLexer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Rates how dangerous a code block is before it runs, so auto-run ({@code -y}) can run harmless code unattended
 * and stop at destructive, privileged or exfiltrating code. Pure and fast: no I/O, no state between calls.
 *
 * <p>The only entry to the analysis. bash (and sh/zsh, already normalised), python, and JavaScript, Ruby and R are
 * analysed by their analyzers in the packages below; other languages are LOW unless they shell out with a literal
 * command string, which is then analysed as bash. The analyzers never know each other: a program embedded in another
 * comes back here through {@link NestedCode} and goes to the analyzer of its language.
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
      new Nested(judge, findings).analyzeAs(lang, code, 0, ctx.workdir(), ctx.venvActive());
      GateBypassRules.check(code, findings);
      BLOCK_TEXT_RULES.forEach(rule -> rule.apply(code).forEach(findings::add));
    } catch (RuntimeException | StackOverflowError e) {
      // an analyzer bug must not wave code through: refuse what cannot be understood
      findings.add(Flag.high("analysis-failed", "could not be analysed (" + e.getClass().getSimpleName() + ")"));
    }
    return findings.toRisk();
  }

  /**
   * The shell command lines a python block runs with literal strings ({@code subprocess.run}, {@code os.system},
   * {@code !cmd}), as far as they can be read: the approval rules match them as commands of their own.
   */
  static List<String> pythonShellCommands(String code, AnalysisContext ctx, boolean venvActive) {
    PathJudge judge = new PathJudge(ctx);
    Findings findings = new Findings();
    PythonAnalyzer python = new PythonAnalyzer(judge, findings, new Nested(judge, findings), 0, ctx.workdir(), venvActive);
    try {
      python.analyze(code);
    } catch (RuntimeException e) {
      // the block itself is still checked; unreadable shell-outs only lose their own rules
    }
    return python.shellCommands();
  }

  /**
   * The analyzers of one block, handing each other the programs they embed: code the block runs indirectly (a
   * script it wrote, then ran with an interpreter; {@code python -c}; a shell-out) is analysed in the language the
   * interpreter speaks ("python3", "bash", "node", "Rscript"...).
   */
  private record Nested(PathJudge judge, Findings findings) implements NestedCode {

    @Override
    public void analyze(String language, String code, int depth, Path cwd, boolean venv) {
      analyzeAs(languageOf(language), code, depth, cwd, venv);
    }

    /** {@code code} in {@code lang}, a normalised language name; languages without an analyzer by their shell-outs. */
    void analyzeAs(String lang, String code, int depth, Path cwd, boolean venv) {
      switch (lang) {
        case Languages.BASH -> new BashAnalyzer(judge, findings, this, cwd, venv, depth).analyze(code);
        case Languages.PYTHON -> new PythonAnalyzer(judge, findings, this, depth, cwd, venv).analyze(code);
        case Languages.JAVASCRIPT, Languages.RUBY, Languages.R ->
            new ScriptAnalyzer(dialect(lang), judge, findings, this, depth, cwd, venv).analyze(code);
        default -> analyzeOther(code, judge, findings, this, depth, cwd, venv);
      }
    }

    @Override
    public ShellEffects shell(int depth, Path cwd, boolean venv) {
      return new BashAnalyzer(judge, findings, this, cwd, venv, depth);
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
  private static void analyzeOther(String code, PathJudge judge, Findings findings, NestedCode nested, int depth, Path cwd,
                                   boolean venv) {
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
        new BashAnalyzer(judge, findings, nested, cwd, venv, depth + 1).analyze(sb.toString());
      }
      i = j;
    }
  }
}
