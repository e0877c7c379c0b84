package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.joinTexts;
import static io.interpreter4j.core.safety.shell.ShellWords.isVersioned;

import io.interpreter4j.core.safety.analysis.BlockFacts;
import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.analysis.Place;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.rules.Block;
import io.interpreter4j.core.safety.rules.ToolCall;
import io.interpreter4j.core.safety.rules.ToolRules;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds dangerous commands in a bash block: walks its simple commands in order, keeping track of the current
 * directory ({@code cd}), variables assigned in the block, directories it creates and files it downloads (its
 * {@link BashScope}), so that {@code rm -rf build} is judged by where {@code build} really is. Each command goes
 * through the checks every command gets (substitutions, assignments, redirections, interpreters, the tool rules of
 * {@code safety.rules}), then to the rule family that judges its name ({@link CommandHandler}).
 */
public final class BashAnalyzer implements Block, ShellEffects {

  /** The rule families of this package by the command names they judge. */
  private static final Map<String, CommandHandler> HANDLERS = handlers();

  private final PathJudge judge;
  private final Findings findings;
  private final NestedCode nested;
  private final int depth;
  private final BashScope scope;
  private final PathEffects paths;

  /** The analysis of one shell program; {@code nested} analyses the programs in other languages it runs. */
  public BashAnalyzer(PathJudge judge, Findings findings, NestedCode nested, Path cwd, boolean venvActive, int depth) {
    this(judge, findings, nested, depth, new BashScope(judge, cwd, venvActive));
  }

  private BashAnalyzer(PathJudge judge, Findings findings, NestedCode nested, int depth, BashScope scope) {
    this.judge = judge;
    this.findings = findings;
    this.nested = nested;
    this.depth = depth;
    this.scope = scope;
    this.paths = new PathEffects(judge, findings, scope);
  }

  private static Map<String, CommandHandler> handlers() {
    Map<String, CommandHandler> table = new HashMap<>();
    FileCommands.register(table);
    DeleteCommands.register(table);
    NetworkCommands.register(table);
    PackageCommands.register(table);
    MachineCommands.register(table);
    GitCommands.register(table);
    EnvironmentCommands.register(table);
    InterpreterCommands.register(table);
    return Map.copyOf(table);
  }

  /** A subshell, function body or command string one level down: a copy of the variables, the same downloads. */
  BashAnalyzer child() {
    return new BashAnalyzer(judge, findings, nested, depth + 1, scope.child());
  }

  /** Hands a program in another language (or a shell's, by its interpreter's name) to the analyzer that reads it. */
  void nested(String language, String code) {
    nested.analyze(language, code, depth + 1, scope.cwd(), scope.venvActive());
  }

  PathJudge judge() {
    return judge;
  }

  Findings findings() {
    return findings;
  }

  BashScope scope() {
    return scope;
  }

  PathEffects paths() {
    return paths;
  }

  @Override
  public void analyze(String code) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    Functions.definitions(this, code);
    Invocation before = null;
    for (Command c : ShellLexer.parse(code)) {
      // one at a time: "x=rm; $x -rf ~" needs x from the command before; look-backs only see earlier commands
      Invocation inv = Invocation.of(c, scope, before);
      analyzeCommand(inv);
      before = inv;
    }
  }

  /** One command: the checks every command gets, then the family that judges its name. */
  void analyzeCommand(Invocation inv) {
    Command c = inv.command();
    InterpreterCommands.substitutions(this, c);
    EnvironmentCommands.secretVariables(this, c);
    if (c.words().size() >= 3 && "for".equals(c.words().get(0).literal()) && "in".equals(c.words().get(2).literal())) {
      scope.loopVariable(c.words().get(1).text(), c.words().subList(3, c.words().size()));
    }
    if (inv.sudo()) {
      findings.add(Flag.high("sudo", "runs as root with sudo"));
    }
    if (inv.envDump()) {
      findings.environmentRead();
    }
    for (Word a : inv.assignments()) {
      EnvironmentCommands.assignment(this, a, inv.nameWord() == null);
    }
    Redirections.judge(this, inv);
    if (inv.nameWord() == null) {
      return;
    }
    if (inv.nameWord().literal() == null) {
      computedName(inv);
      return;
    }
    String name = inv.name();
    List<Word> args = inv.args();
    if (inv.nameWord().literal().indexOf(' ') >= 0) {
      // watch 'rm -rf x' and the like hand one string to sh -c
      List<Word> all = new ArrayList<>();
      all.add(inv.nameWord());
      all.addAll(args);
      child().analyze(joinTexts(all));
      return;
    }
    NetworkCommands.networkTool(this, inv);
    FileCommands.reads(this, inv);
    InterpreterCommands.runsPath(this, inv);
    if (MachineCommands.formats(this, inv)) {
      return;
    }
    if (isVersioned(name, "pip")) {
      PackageCommands.pip(this, args, inv.nameWord(), "pip");
      return;
    }
    if (InterpreterCommands.interprets(this, inv)) {
      return;
    }
    if (ToolRules.judges(name)) {
      ToolRules.judge(new ToolCall(name, scope.expanded(args), inv.sudo(), Redirections.stdin(this, c)), this);
    }
    String body = findings.functionBody(name);
    if (body != null) {
      Functions.call(this, name, body, args);
    }
    NetworkCommands.observe(this, inv);
    MachineCommands.observe(this, inv);
    CommandHandler handler = HANDLERS.get(name);
    if (handler != null) {
      handler.judge(this, inv);
    }
  }

  /** A command whose name is a variable or substitution: judged by what it stands for when the block knows it. */
  private void computedName(Invocation inv) {
    for (Part p : inv.nameWord().parts()) {
      if (p.kind() == PartKind.VAR && findings.isFetchedVariable(p.text())) {
        findings.add(Flag.high("run-downloaded", "runs a command fetched from the network ($" + p.text() + ")"));
      }
      if (p.kind() == PartKind.SUBST && FetchedCode.runsDownloader(this, p.text())) {
        findings.add(Flag.high("pipe-to-shell", "runs the output of a download as a command"));
      }
    }
    List<Part> parts = inv.nameWord().parts();
    String value = parts.size() == 1 && !parts.get(0).quoted() && parts.get(0).kind() != PartKind.TEXT
        ? scope.valueOf(inv.nameWord()) : null;
    if (value != null && value.indexOf(' ') > 0) {
      // $CMD unquoted is split into words: the command it holds runs, with the rest of the line as arguments
      child().analyze(value + " " + joinTexts(inv.args()));
    }
  }

  // the rule families' interface (Block)

  @Override
  public Place place(String path) {
    BashScope.Resolved r = scope.resolve(ShellLexer.word(path));
    return r.target() == null ? Place.UNKNOWN : judge.place(r.target().path());
  }

  @Override
  public void flag(Flag flag) {
    findings.add(flag);
  }

  /** Code another machine or a container runs: its paths are not this block's, so its folder is unknown. */
  @Override
  public void runShell(String code) {
    new BashAnalyzer(judge, findings, nested, null, false, depth + 1).analyze(code);
  }

  @Override
  public void sends(String path) {
    findings.network();
    paths.uploaded(ShellLexer.word(path));
  }

  @Override
  public BlockFacts facts() {
    return findings.facts();
  }

  // the file effects other languages lend to this analysis (ShellEffects), as bash's own commands do

  @Override
  public Target write(Word w, boolean append) {
    return paths.write(w, append);
  }

  @Override
  public void created(Word w) {
    paths.created(w);
  }

  @Override
  public void read(Word w) {
    paths.read(w);
  }

  @Override
  public void delete(Word w) {
    paths.delete(w);
  }

  @Override
  public void recursiveDelete(Word w) {
    paths.recursiveDelete(w);
  }

  @Override
  public void move(Word source, Word destination) {
    paths.move(source, destination);
  }

  @Override
  public void permissions(Word w, String tool) {
    paths.permissions(w, tool, null);
  }

  @Override
  public void permissions(Word w, String tool, String mode) {
    paths.permissions(w, tool, mode);
  }

  @Override
  public void linked(Word target, Word link, boolean intoDir) {
    paths.linked(target, link, intoDir);
  }

  @Override
  public void extractInto(Word dir, String how) {
    paths.extractInto(dir, how);
  }

  @Override
  public void downloaded(Word w) {
    paths.downloaded(w);
  }

  @Override
  public boolean isDownloaded(Word w) {
    return paths.isDownloaded(w);
  }

  @Override
  public String writtenContent(Word w) {
    return paths.writtenContent(w);
  }

  /** {@code os.chdir}: later relative paths resolve against the new directory. */
  @Override
  public void chdir(Word w) {
    scope.changeDirectory("cd", List.of(w));
  }

  @Override
  public Path cwd() {
    return scope.cwd();
  }

  @Override
  public Place place(Word w) {
    return paths.place(w);
  }
}
