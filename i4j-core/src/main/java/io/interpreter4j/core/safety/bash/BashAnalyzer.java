package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.shell.ShellWords.OTHER_INTERPRETERS;
import static io.interpreter4j.core.safety.shell.ShellWords.SHELLS;
import static io.interpreter4j.core.safety.shell.ShellWords.WRAPPERS;
import static io.interpreter4j.core.safety.shell.ShellWords.afterWrapper;
import static io.interpreter4j.core.safety.shell.ShellWords.basename;
import static io.interpreter4j.core.safety.shell.ShellWords.isAssignment;
import static io.interpreter4j.core.safety.shell.ShellWords.isVersioned;

import io.interpreter4j.core.intercept.Languages;
import io.interpreter4j.core.safety.analysis.BlockFacts;
import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Level;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge.Kind;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.Place;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.rules.Block;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.rules.ToolCall;
import io.interpreter4j.core.safety.rules.ToolRules;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Redirect;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellValues;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds dangerous commands in a bash block: walks its simple commands in order, keeping track of the current
 * directory ({@code cd}), variables assigned in the block, directories it creates and files it downloads, so
 * that {@code rm -rf build} is judged by where {@code build} really is.
 */
public final class BashAnalyzer implements Block, ShellEffects {


  private static final Set<String> DOWNLOADERS = Set.of("curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lwp-download");
  private static final Set<String> NETWORK = Set.of(
      "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "sftp", "ftp", "lftp", "http", "https", "xh",
      "aria2c", "mail", "mailx", "sendmail", "mutt", "openssl");
  private static final Set<String> READERS = Set.of(
      "cat", "tac", "less", "more", "head", "tail", "nl", "base64", "base32", "xxd", "od", "hexdump", "strings",
      "gzip", "bzip2", "xz", "zstd", "tar", "zip", "7z", "gpg", "cp", "scp", "rsync", "grep", "egrep", "fgrep", "rg",
      "awk", "sed", "cut", "sort", "uniq", "jq", "yq", "openssl", "dd", "install", "paste", "column", "bat");
  /** Tools that resolve a host name: a name built at run time can carry data out through DNS. */
  private static final Set<String> RESOLVERS = Set.of(
      "dig", "nslookup", "host", "drill", "kdig", "delv", "getent", "ping", "ping6", "resolvectl", "traceroute", "mtr");
  private static final Set<String> RAW_SOCKETS = Set.of("nc", "ncat", "netcat", "socat", "telnet");
  /** Tools that list processes by name, port or file: their pids are other programs'. */
  private static final Set<String> PROCESS_LISTERS = Set.of("pgrep", "pidof", "lsof", "fuser", "ps", "pstree", "pgrep.exe");
  private static final Set<String> ARCHIVERS = Set.of("tar", "zip", "7z", "rsync", "scp", "cp");
  private static final Set<String> NOT_COMMANDS = Set.of(
      "for", "case", "select", "function", "fi", "done", "esac", "}", "in", "return", "break", "continue", "alias",
      "[[", "]]");
  private static final Set<String> NARROWING_FIND_TESTS = Set.of(
      "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-mtime", "-mmin",
      "-atime", "-amin", "-ctime", "-cmin", "-newer", "-size", "-empty", "-links", "-inum", "-samefile", "-user");
  private static final Set<String> SYSTEM_PACKAGE_VERBS = Set.of(
      "install", "reinstall", "remove", "purge", "autoremove", "upgrade", "dist-upgrade", "full-upgrade", "update",
      "build-dep", "in", "rm", "erase", "up", "downgrade", "dup", "groupinstall", "add", "del", "fix", "refresh",
      "uninstall", "delete");
  private static final Pattern FUNCTION_BODY = Pattern.compile("\\(\\s*\\)\\s*\\{");
  private static final Pattern FUNCTION_KEYWORD = Pattern.compile("\\bfunction\\s+([\\w:.-]+)\\s*(?:\\(\\s*\\))?\\s*\\{");
  private static final Pattern PACKAGE_FILE_OPTION =
      Pattern.compile("-[a-zA-Z]*[iUerPF][a-zA-Z]*|--(install|upgrade|erase|remove|purge|configure)");
  private static final Pattern CHMOD_SYMBOLIC_MINUS = Pattern.compile("-[rwxXst]+");
  private static final Pattern OCTAL_MODE = Pattern.compile("[0-7]{3,4}");
  private static final Pattern SED_IN_PLACE = Pattern.compile("-[nEsrzu]*i.*");
  private static final Pattern SHUTDOWN_TARGET = Pattern.compile("(rescue|emergency|poweroff|reboot|halt)(\\.target)?");
  private static final Pattern URL_TAIL = Pattern.compile("[?#].*$");
  private static final char GLOB_STAR = '\uE000';
  private static final char GLOB_QUESTION = '\uE001';
  private static final char GLOB_BRACKET = '\uE002';

  /** A command with its wrappers ({@code sudo}, {@code env}, {@code nohup}, {@code xargs}...) peeled off. */
  private record Invocation(String name, Word nameWord, List<Word> args, List<Word> assignments, boolean sudo,
                            boolean viaXargs, boolean envDump, Command command) {

    List<String> argTexts() {
      List<String> out = new ArrayList<>(args.size());
      for (Word w : args) {
        out.add(w.text());
      }
      return out;
    }
  }

  /** A word's path after expansion: known, or what it becomes if its unknown variables are empty. */
  private record Resolved(Target target, Target ifEmpty, String unknown, String relativeToUnknownCwd) {}

  private final PathJudge judge;
  private final Findings findings;
  private final NestedCode nested;
  private final int depth;
  private Path cwd;
  private final Deque<Path> dirStack = new ArrayDeque<>();
  private final Map<String, String> vars;
  private final Set<Path> downloaded;
  /** Variables holding the pid of a process the block started ({@code PID=$!}). */
  private final Set<String> ownPids = new HashSet<>();
  private boolean venvActive;

  /** The analysis of one shell program; {@code nested} analyses the programs in other languages it runs. */
  public BashAnalyzer(PathJudge judge, Findings findings, NestedCode nested, Path cwd, boolean venvActive, int depth) {
    this(judge, findings, nested, cwd, venvActive, depth, new HashMap<>(), new HashSet<>());
  }

  private BashAnalyzer(PathJudge judge, Findings findings, NestedCode nested, Path cwd, boolean venvActive, int depth,
                       Map<String, String> vars, Set<Path> downloaded) {
    this.judge = judge;
    this.findings = findings;
    this.nested = nested;
    this.cwd = cwd;
    this.venvActive = venvActive;
    this.depth = depth;
    this.vars = vars;
    this.downloaded = downloaded;
  }

  private BashAnalyzer child() {
    return new BashAnalyzer(judge, findings, nested, cwd, venvActive, depth + 1, new HashMap<>(vars), downloaded);
  }

  @Override
  public Place place(String path) {
    Resolved r = resolve(ShellLexer.word(path));
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
    uploaded(ShellLexer.word(path));
  }

  @Override
  public BlockFacts facts() {
    return findings.facts();
  }

  @Override
  public void analyze(String code) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    definitions(code);
    List<Command> commands = ShellLexer.parse(code);
    List<Invocation> invocations = new ArrayList<>(commands.size());
    for (int k = 0; k < commands.size(); k++) {
      // one at a time: "x=rm; $x -rf ~" needs x from the command before; look-backs only see earlier commands
      invocations.add(normalise(commands.get(k)));
      analyzeCommand(commands.get(k), invocations.get(k), invocations, k);
    }
  }

  // ---------------------------------------------------------------- structure

  /**
   * Function definitions ({@code name() { ... }}, {@code function name { ... }}): each is checked for a fork bomb and
   * remembered, so a later call runs its body with its arguments. The code is masked once for both.
   */
  private void definitions(String code) {
    if (code.indexOf('{') < 0 || !(hasEmptyParentheses(code) || code.contains("function"))) {
      return;
    }
    String masked = ShellLexer.maskQuotesAndComments(code);
    // a fork bomb needs a function definition, a pipe and a background job
    boolean mayForkBomb = code.indexOf('|') >= 0 && code.indexOf('&') >= 0;
    eachDefinition(masked, (name, bodyStart) -> {
      if (mayForkBomb) {
        checkForkBomb(masked, name, bodyStart);
      }
      if (!name.isEmpty()) {
        int close = ShellLexer.closing(masked, bodyStart, '{', '}');
        findings.function(name, code.substring(bodyStart, Math.min(close, code.length())));
      }
    });
  }

  /** Each definition in masked code: its name (empty when none stands before {@code () {}) and where its body starts. */
  private static void eachDefinition(String masked, java.util.function.ObjIntConsumer<String> definition) {
    Matcher m = FUNCTION_BODY.matcher(masked);
    while (m.find()) {
      int end = m.start();
      while (end > 0 && Character.isWhitespace(masked.charAt(end - 1))) {
        end--;
      }
      int start = end;
      while (start > 0 && isNameChar(masked.charAt(start - 1))) {
        start--;
      }
      definition.accept(masked.substring(start, end), m.end());
    }
    if (masked.contains("function")) {
      Matcher f = FUNCTION_KEYWORD.matcher(masked);
      while (f.find()) {
        definition.accept(f.group(1), f.end());
      }
    }
  }

  /** A call of a function the block defined: its body runs with $1, $2, $@ set to the call's arguments. */
  private void callFunction(String name, String body, List<Word> args) {
    BashAnalyzer inner = child();
    List<String> values = new ArrayList<>();
    for (int k = 0; k < args.size(); k++) {
      String v = valueOf(args.get(k));
      if (v == null) {
        inner.vars.remove(String.valueOf(k + 1));
      } else {
        inner.vars.put(String.valueOf(k + 1), v);
        values.add(v);
      }
    }
    if (values.size() == args.size()) {
      inner.vars.put("@", String.join(" ", values));
      inner.vars.put("*", String.join(" ", values));
    }
    findings.calling(name, true);
    try {
      inner.analyze(body);
    } finally {
      findings.calling(name, false);
    }
  }

  private static boolean hasEmptyParentheses(String code) {
    int at = code.indexOf('(');
    while (at >= 0) {
      int k = at + 1;
      while (k < code.length() && (code.charAt(k) == ' ' || code.charAt(k) == '\t')) {
        k++;
      }
      if (k < code.length() && code.charAt(k) == ')') {
        return true;
      }
      at = code.indexOf('(', at + 1);
    }
    return false;
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == ':' || c == '.' || c == '-';
  }

  private void checkForkBomb(String masked, String name, int bodyStart) {
    if (name.isEmpty()) {
      return;
    }
    int close = ShellLexer.closing(masked, bodyStart, '{', '}');
    String body = masked.substring(bodyStart, Math.min(close, masked.length())).replace(" ", "").replace("\t", "").replace("\n", "");
    if (body.contains(name + "|" + name) && body.indexOf('&') >= 0) {
      findings.add(Flag.high("fork-bomb", "defines a fork bomb (" + name + " pipes into itself in the background)"));
    }
  }

  private Invocation normalise(Command c) {
    List<Word> words = c.words();
    List<Word> assignments = new ArrayList<>();
    boolean sudo = false;
    boolean xargs = false;
    int idx = 0;
    while (idx < words.size()) {
      Word w = words.get(idx);
      if (isAssignment(w)) {
        assignments.add(w);
        idx++;
        continue;
      }
      String lit = nameOf(w);
      if (lit == null) {
        break;
      }
      String base = basename(lit);
      if (NOT_COMMANDS.contains(base)) {
        return new Invocation("", null, List.of(), assignments, sudo, xargs, false, c);
      }
      if (base.equals("env")) {
        idx++;
        while (idx < words.size()) {
          String t = words.get(idx).text();
          if (t.equals("-u") || t.equals("-C") || t.equals("-S") || t.equals("--unset") || t.equals("--chdir")) {
            idx += 2;
          } else if (t.startsWith("-")) {
            idx++;
          } else if (isAssignment(words.get(idx))) {
            assignments.add(words.get(idx));
            idx++;
          } else {
            break;
          }
        }
        if (idx >= words.size()) {
          return new Invocation("", null, List.of(), assignments, sudo, xargs, true, c);
        }
        continue;
      }
      if (base.equals("command")) {
        if (idx + 1 < words.size() && (words.get(idx + 1).text().equals("-v") || words.get(idx + 1).text().equals("-V"))) {
          return new Invocation("", null, List.of(), assignments, sudo, xargs, false, c);
        }
        idx++;
        if (idx < words.size() && words.get(idx).text().equals("-p")) {
          idx++;
        }
        continue;
      }
      Set<String> optsWithArg = WRAPPERS.get(base);
      if (optsWithArg == null) {
        break;
      }
      if (base.equals("sudo") || base.equals("doas") || base.equals("pkexec")) {
        sudo = true;
      }
      if (base.equals("xargs")) {
        xargs = true;
      }
      idx = afterWrapper(words, idx, base, optsWithArg);
    }
    if (idx >= words.size()) {
      return new Invocation("", null, List.of(), assignments, sudo, xargs, false, c);
    }
    Word nameWord = words.get(idx);
    String lit = nameOf(nameWord);
    if (lit != null && nameWord.literal() == null) {
      // "$x" or "$(echo rm)" as the command: judge the command it stands for
      nameWord = new Word(List.of(new Part(PartKind.TEXT, lit, true, false)), nameWord.raw());
    }
    String name = lit == null ? "" : basename(lit);
    return new Invocation(name, nameWord, List.copyOf(words.subList(idx + 1, words.size())), assignments, sudo, xargs,
        false, c);
  }

  /** A command word's value: literal, or built from variables and substitutions known in the block. */
  private String nameOf(Word w) {
    String lit = w.literal();
    if (lit != null) {
      return lit;
    }
    String v = valueOf(w);
    return v == null || v.isEmpty() || v.indexOf(' ') >= 0 ? null : v;
  }

  // ---------------------------------------------------------------- per command

  private void analyzeCommand(Command c, Invocation inv, List<Invocation> all, int index) {
    nestedSubstitutions(c);
    secretVariables(c);
    if (c.words().size() >= 3 && "for".equals(c.words().get(0).literal()) && "in".equals(c.words().get(2).literal())) {
      loopVariable(c.words().get(1).text(), c.words().subList(3, c.words().size()));
    }
    if (inv.sudo()) {
      findings.add(Flag.high("sudo", "runs as root with sudo"));
    }
    if (inv.envDump()) {
      findings.environmentRead();
    }
    for (Word a : inv.assignments()) {
      assignment(a, inv.nameWord() == null);
    }
    redirects(c, inv);
    if (inv.nameWord() == null) {
      return;
    }
    if (inv.nameWord().literal() == null) {
      for (Part p : inv.nameWord().parts()) {
        if (p.kind() == PartKind.VAR && findings.isFetchedVariable(p.text())) {
          findings.add(Flag.high("run-downloaded", "runs a command fetched from the network ($" + p.text() + ")"));
        }
        if (p.kind() == PartKind.SUBST && runsDownloader(p.text())) {
          findings.add(Flag.high("pipe-to-shell", "runs the output of a download as a command"));
        }
      }
      List<Part> parts = inv.nameWord().parts();
      String value = parts.size() == 1 && !parts.get(0).quoted() && parts.get(0).kind() != PartKind.TEXT
          ? valueOf(inv.nameWord()) : null;
      if (value != null && value.indexOf(' ') > 0) {
        // $CMD unquoted is split into words: the command it holds runs, with the rest of the line as arguments
        child().analyze(value + " " + joinTexts(inv.args()));
      }
      return;
    }
    String name = inv.name();
    List<Word> args = inv.args();
    List<String> texts = inv.argTexts();
    if (inv.nameWord().literal().indexOf(' ') >= 0) {
      // watch 'rm -rf x' and the like hand one string to sh -c
      List<Word> all2 = new ArrayList<>();
      all2.add(inv.nameWord());
      all2.addAll(args);
      child().analyze(joinTexts(all2));
      return;
    }
    if (NETWORK.contains(name)) {
      findings.network();
      secretPipedOut(inv, all, index);
    }
    if (READERS.contains(name)) {
      readsFiles(name, args, texts);
    }
    if (inv.nameWord().literal().contains("/")) {
      Resolved r = resolve(inv.nameWord());
      if (r.target() != null && downloaded.contains(r.target().path())) {
        findings.add(Flag.high("run-downloaded", "runs a file downloaded in the same block"));
      }
      runWritten(r.target(), null);
    }
    if (name.startsWith("mkfs")) {
      findings.add(Flag.high("disk-format", "formats a disk (" + name + ")"));
      return;
    }
    if (isVersioned(name, "pip")) {
      pip(args, inv.nameWord(), "pip");
      return;
    }
    if (isVersioned(name, "python") || name.equals("py") || isVersioned(name, "pypy")) {
      python(inv, all, index);
      return;
    }
    if (SHELLS.contains(name)) {
      shell(inv, all, index);
      return;
    }
    if (OTHER_INTERPRETERS.contains(name)) {
      otherInterpreter(inv, all, index);
      return;
    }
    if (ToolRules.judges(name)) {
      ToolRules.judge(new ToolCall(name, expanded(args), inv.sudo(), stdin(c)), this);
    }
    String body = findings.functionBody(name);
    if (body != null) {
      callFunction(name, body, args);
    }
    observe(name, inv, args);
    switch (name) {
      case "rm" -> rm(inv, all, index);
      case "unlink" -> args.forEach(a -> delete(a));
      case "find" -> find(args, texts);
      case "mke2fs", "mkswap", "wipefs", "sfdisk", "cfdisk", "sgdisk", "gdisk", "mkdosfs", "mkntfs", "fdisk", "parted" -> {
        if (!(texts.contains("-l") || texts.contains("--list") || texts.contains("print"))) {
          findings.add(Flag.high("disk-format", "formats or repartitions a disk (" + name + ")"));
        }
      }
      case "diskutil" -> {
        if (!texts.isEmpty() && (texts.get(0).startsWith("erase") || texts.get(0).startsWith("zero")
            || texts.get(0).equals("partitionDisk") || texts.get(0).equals("secureErase"))) {
          findings.add(Flag.high("disk-format", "erases a disk (diskutil " + texts.get(0) + ")"));
        }
      }
      case "dd" -> dd(args);
      case "shred" -> shred(args, texts);
      case "chmod", "chown", "chgrp" -> permissions(name, args, texts);
      case "git" -> git(texts);
      case "kill" -> kill(inv, texts);
      case "killall", "killall5" -> {
        // signal 0 only checks that the processes exist; -l lists signal names
        if (!(texts.contains("-0") || texts.contains("-l") || texts.contains("--list") || texts.contains("--help"))) {
          findings.add(Flag.high("killall", "kills processes by name (" + name + ")"));
        }
      }
      case "shutdown" -> {
        if (!(texts.contains("-c") || texts.contains("--help"))) {
          findings.add(Flag.high("shutdown", "shuts down or reboots the machine (shutdown)"));
        }
      }
      case "reboot", "halt", "poweroff" -> {
        if (!texts.contains("--help")) {
          findings.add(Flag.high("shutdown", "shuts down or reboots the machine (" + name + ")"));
        }
      }
      case "init", "telinit" -> {
        if (!texts.isEmpty() && Set.of("0", "6", "1", "s", "S").contains(texts.get(0))) {
          findings.add(Flag.high("shutdown", "changes the runlevel, shutting down or rebooting (" + name + " " + texts.get(0) + ")"));
        }
      }
      case "systemctl", "loginctl" -> systemctl(texts);
      case "crontab" -> crontab(texts);
      case "history" -> {
        if (texts.stream().anyMatch(t -> t.startsWith("-") && t.contains("c"))) {
          findings.add(Flag.high("history-wipe", "clears shell history (history -c)"));
        }
      }
      case "unset" -> {
        if (texts.contains("HISTFILE")) {
          findings.add(Flag.high("history-wipe", "disables shell history (unset HISTFILE)"));
        }
      }
      case "set" -> {
        if (texts.isEmpty()) {
          findings.environmentRead();
        } else if (texts.contains("+o") && texts.contains("history")) {
          findings.add(Flag.high("history-wipe", "disables shell history (set +o history)"));
        }
      }
      case "export", "declare", "typeset", "local", "readonly" -> declare(args, texts);
      case "printenv" -> {
        if (texts.stream().allMatch(t -> t.startsWith("-"))) {
          findings.environmentRead();
        }
      }
      case "compgen" -> {
        if (texts.contains("-e") || texts.contains("-v")) {
          findings.environmentRead();
        }
      }
      case "cd", "pushd" -> cd(name, args);
      case "popd" -> cwd = dirStack.isEmpty() ? null : dirStack.pop();
      case "mkdir" -> operands(args, Set.of("-m", "--mode")).forEach(this::created);
      case "virtualenv" -> operands(args, Set.of("-p", "--python", "--prompt")).stream().findFirst().ifPresent(this::created);
      case "cp" -> copy(args, texts);
      case "mv" -> move(args, texts);
      case "install" -> copy(args, texts);
      case "ln" -> link(args, texts);
      case "tee" -> {
        boolean append = texts.stream().anyMatch(t -> t.equals("-a") || t.equals("--append"));
        for (Word w : operands(args, Set.of())) {
          Target target = write(w, append);
          if (target != null && !append && !c.heredocs().isEmpty()) {
            findings.wroteFile(target.path(), c.heredocs().get(0));
          }
        }
      }
      case "truncate" -> operands(args, Set.of("-s", "-r", "--size", "--reference")).forEach(w -> write(w, false));
      case "sed" -> sed(args, texts);
      case "sponge" -> operands(args, Set.of()).forEach(w -> write(w, texts.contains("-a")));
      case "awk", "gawk" -> {
        int i = texts.indexOf("-i");
        if (i >= 0 && i + 1 < texts.size() && texts.get(i + 1).equals("inplace")) {
          List<Word> ops = operands(args, Set.of("-i", "-f", "-v", "-F", "-e"));
          ops.subList(Math.min(1, ops.size()), ops.size()).forEach(w -> write(w, false));
        }
      }
      case "npx", "http-server", "serve", "live-server" -> {
        List<Word> ops = operands(args, Set.of("-p", "--port", "-a", "--address", "-l", "--listen", "-c"));
        if (name.equals("npx") && !ops.isEmpty()) {
          String tool = ops.get(0).text();
          if (Set.of("http-server", "serve", "live-server").contains(tool)) {
            serves("npx " + tool, ops.size() > 1 ? ops.get(1) : null, texts);
          }
        } else if (!name.equals("npx")) {
          serves(name, ops.isEmpty() ? null : ops.get(0), texts);
        }
      }
      case "make", "gmake" -> make(args, texts);
      case "curl" -> curl(args, texts);
      case "wget" -> wget(args, texts);
      case "scp", "rsync" -> {
        for (String t : texts) {
          if (!t.startsWith("-") && isRemote(t)) {
            findings.network();
          }
        }
      }
      case "eval" -> {
        if (!args.isEmpty()) {
          runsFetched("eval", args);
          child().analyze(String.join(" ", expanded(args)));
          for (Word a : args) {
            if (a.literal() == null && valueOf(a) == null) {
              findings.facts().computedCode("eval " + abbreviate(a.text()));
            }
          }
        }
      }
      case "trap" -> {
        if (!args.isEmpty() && !texts.get(0).startsWith("-")) {
          child().analyze(texts.get(0));
        }
      }
      case "su" -> {
        findings.add(Flag.high("sudo", "runs as another user with su"));
        int dashC = texts.indexOf("-c");
        if (dashC >= 0 && dashC + 1 < texts.size()) {
          child().analyze(texts.get(dashC + 1));
        }
      }
      case "source", "." -> {
        hereStringFromDownload(inv);
        source(args, texts);
      }
      case "conda", "mamba", "micromamba" -> {
        if (!texts.isEmpty() && texts.get(0).equals("activate")) {
          venvActive = true;
        }
      }
      case "workon" -> venvActive = true;
      case "uv" -> uv(texts);
      case "easy_install" -> {
        if (!venvActive) {
          findings.add(Flag.high("pip-global", "installs Python packages outside a virtual environment (easy_install)"));
        }
      }
      case "npm", "pnpm", "bun" -> npm(name, texts);
      case "yarn" -> {
        if (texts.size() >= 2 && texts.get(0).equals("global") && !texts.get(1).equals("list")) {
          findings.add(Flag.high("npm-global", "installs npm packages globally (yarn global " + texts.get(1) + ")"));
        }
      }
      case "gem" -> gem(texts);
      case "apt", "apt-get", "aptitude", "yum", "dnf", "microdnf", "zypper", "apk", "snap", "port", "pkg", "emerge",
           "flatpak" -> systemPackages(name, texts);
      case "pacman", "yay", "paru" -> pacman(name, texts);
      case "dpkg", "rpm" -> {
        if (texts.stream().anyMatch(t -> PACKAGE_FILE_OPTION.matcher(t).matches())) {
          findings.add(Flag.high("system-package", "changes system packages (" + name + ") and needs root"));
        }
      }
      case "brew" -> {
        String verb = texts.isEmpty() ? "" : texts.get(0);
        if (texts.contains("--dry-run") || texts.contains("-n")) {
          break;
        }
        if (Set.of("uninstall", "remove", "rm", "upgrade", "reinstall", "cleanup", "autoremove", "unlink").contains(verb)) {
          // other programs of the machine may depend on what is removed or replaced
          findings.add(Flag.high("brew-remove", "removes or replaces Homebrew packages of the whole machine (brew " + verb + ")"));
        } else if (Set.of("install", "tap").contains(verb)) {
          findings.add(Flag.medium("brew-install", "changes Homebrew packages for the whole machine (brew " + verb + ")"));
        }
      }
      case "cargo" -> {
        if (!texts.isEmpty() && texts.get(0).equals("install")) {
          findings.add(Flag.medium("cargo-install", "installs a program into ~/.cargo/bin (cargo install)"));
        }
      }
      default -> {
        // an ordinary program: its redirections and substitutions were checked above
      }
    }
  }

  private void nestedSubstitutions(Command c) {
    List<Word> all = new ArrayList<>(c.words());
    for (Redirect r : c.redirects()) {
      all.add(r.target());
    }
    for (Word w : all) {
      for (Part p : w.parts()) {
        if (p.kind() == PartKind.SUBST && !isMktemp(p.text())) {
          child().analyze(p.text());
        }
      }
    }
  }

  private void redirects(Command c, Invocation inv) {
    for (Redirect r : c.redirects()) {
      String t = r.target().text();
      if (t.startsWith("/dev/tcp/") || t.startsWith("/dev/udp/")) {
        findings.network();
        continue;
      }
      if (r.op().equals(">&") || r.op().equals("<&")) {
        if (t.chars().allMatch(Character::isDigit) || t.equals("-")) {
          continue;
        }
      }
      if (r.writes()) {
        Target target = write(r.target(), r.appends());
        if (target != null && judge.isShellRc(target.path())) {
          contentOfRcWrite(inv, c);
        }
        String content = target == null || r.appends() ? null : contentWritten(inv, c);
        if (content != null) {
          findings.wroteFile(target.path(), content);
        }
      } else if (r.reads()) {
        noteRead(through(resolve(r.target()).target()));
      }
    }
  }

  /** What {@code cat <<EOF > f} or {@code echo ... > f} puts in the file, when the block spells it out. */
  private String contentWritten(Invocation inv, Command c) {
    String name = inv.name();
    if ((name.equals("cat") || name.equals("tee")) && !c.heredocs().isEmpty()) {
      return c.heredocs().get(0);
    }
    if (name.equals("echo") || name.equals("printf")) {
      return echoed(inv);
    }
    return null;
  }

  /** What is written into a shell rc file runs in every later shell, so it is analysed as code too. */
  private void contentOfRcWrite(Invocation inv, Command c) {
    if (inv.name().equals("echo") || inv.name().equals("printf")) {
      List<String> content = new ArrayList<>();
      for (Word w : inv.args()) {
        String t = w.text();
        if (content.isEmpty() && t.startsWith("-")) {
          continue;
        }
        content.add(t);
      }
      child().analyze(String.join(" ", content).replace("\\n", "\n"));
    }
    for (String body : c.heredocs()) {
      child().analyze(body);
    }
  }

  private void assignment(Word w, boolean persistent) {
    Part first = w.parts().get(0);
    String text = first.text();
    int eq = text.indexOf('=');
    String name = text.substring(0, eq);
    if (name.endsWith("+")) {
      vars.remove(name.substring(0, name.length() - 1));
      return;
    }
    Word value = suffix(w, eq + 1);
    if (value != null && value.parts().size() == 1 && value.parts().get(0).kind() == PartKind.VAR
        && value.parts().get(0).text().equals("!")) {
      ownPids.add(name);
    } else {
      ownPids.remove(name);
    }
    String v = value == null ? "" : valueOf(value);
    if (persistent) {
      findings.fetchedVariable(name, value != null && holdsFetched(value));
    }
    if (name.equals("HISTFILE") && (v == null || v.isEmpty() || v.equals("/dev/null"))
        || (name.equals("HISTSIZE") || name.equals("HISTFILESIZE")) && "0".equals(v)) {
      findings.add(Flag.high("history-wipe", "disables shell history (" + name + "=" + (v == null ? "" : v) + ")"));
    }
    if (persistent) {
      if (v == null) {
        vars.remove(name);
      } else {
        vars.put(name, v);
      }
    }
  }

  /**
   * {@code for d in /* ~ build}: the loop variable takes the most dangerous of its values, globs standing for
   * any entry of their directory, so {@code rm -rf "$d"} in the body is judged by its worst case.
   */
  private void loopVariable(String name, List<Word> values) {
    String worst = null;
    int worstRank = Integer.MAX_VALUE;
    for (Word w : values) {
      Resolved r = resolve(w);
      if (r.target() == null) {
        vars.remove(name);
        return;
      }
      Target t = r.target();
      int rank = judge.danger(t.path());
      if (rank < worstRank) {
        worstRank = rank;
        // the glob stays active (sentinel characters), so "$d" still means "each entry of the directory"
        String glob = t.glob() == null ? "" : "/" + t.glob().replace('*', GLOB_STAR).replace('?', GLOB_QUESTION);
        worst = t.path() + glob;
      }
    }
    if (worst != null) {
      vars.put(name, worst);
    }
  }

  private void declare(List<Word> args, List<String> texts) {
    boolean any = false;
    for (Word w : args) {
      if (isAssignment(w)) {
        assignment(w, true);
        any = true;
      }
    }
    if (!any && texts.stream().allMatch(t -> t.startsWith("-"))
        && (texts.isEmpty() || texts.contains("-p") || texts.contains("-x"))) {
      findings.environmentRead();
    }
  }

  // ---------------------------------------------------------------- paths

  /** A word's value as a string when it is known in this block, else null. */
  private String valueOf(Word w) {
    StringBuilder sb = new StringBuilder();
    List<Part> parts = w.parts();
    for (int k = 0; k < parts.size(); k++) {
      Part p = parts.get(k);
      switch (p.kind()) {
        case TEXT -> sb.append(k == 0 ? expandTilde(p) : p.text());
        case VAR -> {
          String v = variable(p);
          if (v == null) {
            return null;
          }
          sb.append(v);
        }
        case SUBST -> {
          String v = substitution(p.text());
          if (v == null) {
            return null;
          }
          sb.append(v);
        }
      }
    }
    return sb.toString();
  }

  private String expandTilde(Part p) {
    String t = p.text();
    if (!p.quoted() && t.startsWith("~")) {
      if (t.length() == 1 || t.charAt(1) == '/') {
        return judge.context().home() + t.substring(1);
      }
      Path parent = judge.context().home().getParent();
      return (parent == null ? "/" : parent.toString()) + "/" + t.substring(1);
    }
    return t;
  }

  /** A variable's value, or its default ({@code ${OUT_DIR:-$HOME}}) when the block does not set it. */
  private String variable(Part p) {
    String v = variable(p.text());
    if (v == null && p.fallback() != null && p.fallback().length() < 500) {
      v = valueOf(ShellLexer.word(p.fallback()));
    }
    return v;
  }

  private String variable(String name) {
    if (vars.containsKey(name)) {
      return vars.get(name);
    }
    return switch (name) {
      case "HOME" -> judge.context().home().toString();
      case "PWD" -> cwd == null ? null : cwd.toString();
      default -> name.startsWith("((") ? "0" : null;
    };
  }

  private String substitution(String code) {
    String c = code.strip();
    if (isMktemp(c)) {
      Path p = judge.newTempDirectory();
      judge.created(p);
      return p.toString();
    }
    if (c.equals("pwd")) {
      return cwd == null ? null : cwd.toString();
    }
    return ShellValues.evaluate(c, this::valueOf, cwd, judge.context().home());
  }

  private static boolean isMktemp(String code) {
    String c = code.strip();
    return c.equals("mktemp") || c.startsWith("mktemp ");
  }

  private Resolved resolve(Word w) {
    StringBuilder known = new StringBuilder();
    StringBuilder ifEmpty = new StringBuilder();
    String unknown = null;
    boolean emptyPossible = true;
    List<Part> parts = w.parts();
    for (int k = 0; k < parts.size(); k++) {
      Part p = parts.get(k);
      switch (p.kind()) {
        case TEXT -> {
          String t = k == 0 ? expandTilde(p) : p.text();
          if (!p.quoted()) {
            t = t.replace('*', GLOB_STAR).replace('?', GLOB_QUESTION).replace('[', GLOB_BRACKET);
          }
          known.append(t);
          ifEmpty.append(t);
        }
        case VAR, SUBST -> {
          String v = p.kind() == PartKind.VAR ? variable(p) : substitution(p.text());
          if (v != null) {
            known.append(v);
            ifEmpty.append(v);
          } else {
            if (unknown == null) {
              unknown = p.kind() == PartKind.VAR ? "$" + p.text() : "$(" + abbreviate(p.text()) + ")";
            }
            if (!p.mayBeEmpty()) {
              emptyPossible = false;
            }
          }
        }
      }
    }
    if (unknown == null) {
      String s = known.toString();
      if (!s.startsWith("/") && cwd == null && !s.isEmpty()) {
        return new Resolved(null, null, null, restoreGlobs(s));
      }
      return new Resolved(toTarget(s), null, null, null);
    }
    Target empty = null;
    String relative = null;
    if (emptyPossible) {
      String s = ifEmpty.toString();
      if (!s.startsWith("/") && cwd == null && !s.isEmpty()) {
        relative = restoreGlobs(s);
      } else {
        empty = toTarget(s);
      }
    }
    return new Resolved(null, empty, unknown, relative);
  }

  private static String abbreviate(String s) {
    String t = s.strip();
    return t.length() > 30 ? t.substring(0, 30) + "..." : t;
  }

  private static String restoreGlobs(String s) {
    return s.replace(GLOB_STAR, '*').replace(GLOB_QUESTION, '?').replace(GLOB_BRACKET, '[');
  }

  /** Splits at the first path component holding an active glob; null for an empty word. */
  private Target toTarget(String s) {
    if (s.isEmpty()) {
      return null;
    }
    boolean absolute = s.startsWith("/");
    String[] comps = s.split("/");
    StringBuilder base = new StringBuilder(absolute ? "/" : "");
    String glob = null;
    for (int k = 0; k < comps.length; k++) {
      String comp = comps[k];
      if (comp.indexOf(GLOB_STAR) >= 0 || comp.indexOf(GLOB_QUESTION) >= 0 || comp.indexOf(GLOB_BRACKET) >= 0) {
        glob = restoreGlobs(String.join("/", java.util.Arrays.copyOfRange(comps, k, comps.length)));
        break;
      }
      if (comp.isEmpty()) {
        continue;
      }
      if (base.length() > 0 && base.charAt(base.length() - 1) != '/') {
        base.append('/');
      }
      base.append(comp);
    }
    try {
      Path p = absolute ? Path.of(base.toString()) : cwd.resolve(base.toString());
      return new Target(p.toAbsolutePath().normalize(), glob);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /** A file another language downloads ({@code download.file}, {@code urlretrieve}): running it later is HIGH. */
  @Override
  public void downloaded(Word w) {
    Target t = target(w);
    if (t != null) {
      downloaded.add(t.path());
    }
  }

  /** An archive another language unpacks into {@code dir} (zipfile's extractall, R's unzip): judged like tar -x -C. */
  @Override
  public void extractInto(Word dir, String how) {
    Target t = through(target(dir));
    if (t == null) {
      return;
    }
    Place p = judge.place(t.path());
    if (p.isProtected() && p != Place.HOME_FILES) {
      findings.add(Flag.high("extract-over", "extracts an archive over " + p.describe() + " (" + judge.display(t)
          + "), replacing its files (" + how + ")"));
    }
  }

  /** Whether a path another language names is a file downloaded earlier in the block. */
  @Override
  public boolean isDownloaded(Word w) {
    Target t = through(target(w));
    return t != null && downloaded.contains(t.path());
  }

  /** The block's current folder as far as it is known, or null. */
  @Override
  public Path cwd() {
    return cwd;
  }

  /** Where a path another language built lies. */
  @Override
  public Place place(Word w) {
    Resolved r = resolve(w);
    return r.target() == null ? Place.UNKNOWN : judge.place(r.target().path());
  }

  /** What the block wrote to a file earlier (a heredoc, an echo, a write_text), or null. */
  @Override
  public String writtenContent(Word w) {
    Resolved r = resolve(w);
    return r.target() == null ? null : findings.writtenContent(r.target().path());
  }

  /** {@code os.chdir}: later relative paths resolve against the new directory. */
  @Override
  public void chdir(Word w) {
    cd("cd", List.of(w));
  }

  /** A file that is read (python open(), Path.read_text()): a secret counts towards exfiltration. */
  @Override
  public void read(Word w) {
    noteRead(through(target(w)));
  }

  /**
   * A file the block reads: a secret counts towards exfiltration; a pid file outside the project names another
   * program's process, so signalling that pid later kills what the block did not start.
   */
  private void noteRead(Target t) {
    if (t == null) {
      return;
    }
    String secret = judge.secret(t.path());
    if (secret != null) {
      findings.secretRead(secret);
    }
    Path name = t.path().getFileName();
    if (name != null && name.toString().endsWith(".pid") && t.glob() == null) {
      Place place = judge.place(t.path());
      if (place != Place.PROJECT && place != Place.WORKDIR) {
        findings.facts().processList("the pid file " + judge.display(t));
      }
    }
  }

  @Override
  public void move(Word source, Word destination) {
    Target s = target(source);
    if (s != null) {
      findings.add(judge.moveSource(s));
    }
    Target d = target(destination);
    if (d != null) {
      findings.add(judge.moveDestination(d));
    }
  }

  @Override
  public void permissions(Word w, String tool) {
    permissions(w, tool, null);
  }

  /** chmod from another language, with the mode it sets when known ("666", "o+w"). */
  @Override
  public void permissions(Word w, String tool, String mode) {
    Target t = through(target(w));
    if (t != null) {
      findings.add(judge.permissions(t, false, tool, mode));
    }
  }

  @Override
  public void recursiveDelete(Word w) {
    Resolved r = resolve(w);
    if (r.target() != null) {
      findings.add(judge.recursiveDelete(r.target()));
      return;
    }
    String text = w.text();
    if (r.unknown() == null && r.relativeToUnknownCwd() != null) {
      String rel = r.relativeToUnknownCwd();
      if (rel.equals(".") || rel.equals("..") || rel.startsWith("../") || rel.startsWith("*") || rel.startsWith("./*")
          || rel.startsWith(".*")) {
        findings.add(Flag.high("rm-recursive-glob", "recursive delete of " + rel + " in a directory that could not be determined"));
      } else {
        findings.add(Flag.medium("rm-recursive-unknown", "recursive delete of " + rel + " in a directory that could not be determined"));
      }
      return;
    }
    if (r.unknown() == null) {
      return;
    }
    Flag ifEmpty = r.ifEmpty() == null ? null : judge.recursiveDelete(r.ifEmpty());
    if (ifEmpty == null && r.relativeToUnknownCwd() != null) {
      ifEmpty = Flag.high("rm-recursive-glob", "recursive delete in a directory that could not be determined");
    }
    if (ifEmpty != null && ifEmpty.level() == Level.HIGH) {
      findings.add(Flag.high("rm-recursive-variable",
          "recursive delete of " + text + ", which is " + ifEmpty.reason() + " if " + r.unknown() + " is empty"));
    } else {
      findings.add(Flag.medium("rm-recursive-unknown", "recursive delete of " + text + ", whose value is not known"));
    }
  }

  @Override
  public void delete(Word w) {
    Resolved r = resolve(w);
    if (r.target() != null) {
      findings.add(judge.delete(r.target()));
    }
  }

  @Override
  public Target write(Word w, boolean append) {
    Target t = through(resolve(w).target());
    if (t == null) {
      return null;
    }
    findings.add(judge.write(t, append));
    return t;
  }

  @Override
  public void created(Word w) {
    Resolved r = resolve(w);
    if (r.target() != null && r.target().glob() == null) {
      judge.created(r.target().path());
    }
  }

  private Target target(Word w) {
    return resolve(w).target();
  }

  /** Arguments that are not options nor option values; everything after "--" counts. */
  private static List<Word> operands(List<Word> args, Set<String> optionsWithValue) {
    List<Word> out = new ArrayList<>();
    boolean end = false;
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (!end && t.equals("--")) {
        end = true;
      } else if (!end && t.startsWith("-") && t.length() > 1) {
        if (optionsWithValue.contains(t)) {
          k++;
        }
      } else {
        out.add(args.get(k));
      }
    }
    return out;
  }

  private static String joinTexts(List<Word> words) {
    StringBuilder sb = new StringBuilder();
    for (Word w : words) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(w.text());
    }
    return sb.toString();
  }

  /** A copy of the word without its first {@code chars} characters of literal text; null if nothing is left. */
  private static Word suffix(Word w, int chars) {
    List<Part> out = new ArrayList<>();
    int skip = chars;
    for (Part p : w.parts()) {
      if (skip > 0 && p.kind() == PartKind.TEXT) {
        if (p.text().length() <= skip) {
          skip -= p.text().length();
          continue;
        }
        out.add(new Part(PartKind.TEXT, p.text().substring(skip), p.quoted(), false));
        skip = 0;
      } else if (skip > 0) {
        return null;
      } else {
        out.add(p);
      }
    }
    return out.isEmpty() ? null : new Word(out, w.raw());
  }

  // ---------------------------------------------------------------- commands

  private void rm(Invocation inv, List<Invocation> all, int index) {
    boolean recursive = false;
    boolean end = false;
    List<Word> paths = new ArrayList<>();
    for (Word a : inv.args()) {
      String t = a.text();
      if (!end && t.equals("--")) {
        end = true;
      } else if (!end && t.startsWith("--")) {
        if (t.equals("--recursive")) {
          recursive = true;
        } else if (t.equals("--no-preserve-root")) {
          findings.add(Flag.high("rm-no-preserve-root", "turns off rm's protection of / (--no-preserve-root)"));
        }
      } else if (!end && t.startsWith("-") && t.length() > 1) {
        if (t.indexOf('r') >= 0 || t.indexOf('R') >= 0) {
          recursive = true;
        }
      } else {
        paths.add(a);
      }
    }
    if (paths.isEmpty() && inv.viaXargs()) {
      xargsDelete(inv, all, index, recursive);
    }
    for (Word p : paths) {
      if (recursive) {
        recursiveDelete(p);
      } else {
        delete(p);
      }
    }
  }

  /** {@code ... | xargs rm -rf}: as dangerous as the listing that feeds it. */
  private void xargsDelete(Invocation inv, List<Invocation> all, int index, boolean recursive) {
    int pipeline = inv.command().pipeline();
    for (int k = index - 1; k >= 0 && all.get(k).command().pipeline() == pipeline; k--) {
      Invocation feeder = all.get(k);
      if (feeder.name().equals("find") || feeder.name().equals("ls")) {
        List<Word> starts = feeder.name().equals("find") ? findStarts(feeder.args()) : operands(feeder.args(), Set.of());
        boolean narrowing = feeder.argTexts().stream().anyMatch(NARROWING_FIND_TESTS::contains);
        if (starts.isEmpty()) {
          starts = List.of(new Word(List.of(new Part(PartKind.TEXT, ".", true, false)), "."));
        }
        for (Word s : starts) {
          Target t = target(s);
          if (t == null) {
            continue;
          }
          Kind kind = judge.kind(t.path());
          boolean contained = kind == Kind.INSIDE_WORKDIR || kind == Kind.CREATED || (kind == Kind.WORKDIR && narrowing);
          if (!contained) {
            findings.add(Flag.high(recursive ? "rm-recursive-pipe" : "rm-pipe",
                (recursive ? "recursive delete of what " : "deletes what ") + feeder.name() + " lists in " + judge.display(t)));
            return;
          }
        }
        return;
      }
    }
    if (recursive) {
      findings.add(Flag.medium("rm-recursive-pipe", "recursive delete of paths read from a pipe"));
    }
  }

  private static List<Word> findStarts(List<Word> args) {
    List<Word> starts = new ArrayList<>();
    for (Word a : args) {
      String t = a.text();
      if (t.equals("-H") || t.equals("-L") || t.equals("-P") || t.startsWith("-O") || t.equals("-D")) {
        continue;
      }
      if (t.startsWith("-") || t.equals("(") || t.equals("!") || t.equals("\\(")) {
        break;
      }
      starts.add(a);
    }
    return starts;
  }

  private void find(List<Word> args, List<String> texts) {
    List<Word> starts = findStarts(args);
    boolean deleting = texts.contains("-delete");
    boolean narrowing = false;
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      if (NARROWING_FIND_TESTS.contains(t)) {
        narrowing = true;
      }
      if (t.equals("-exec") || t.equals("-execdir") || t.equals("-ok") || t.equals("-okdir")) {
        int end = k + 1;
        while (end < texts.size() && !texts.get(end).equals(";") && !texts.get(end).equals("+")) {
          end++;
        }
        if (k + 1 < texts.size()) {
          String prog = basename(texts.get(k + 1));
          if (prog.equals("rm") || prog.equals("unlink") || prog.equals("shred") || prog.equals("rmdir")) {
            deleting = true;
          } else {
            Command sub = new Command(List.copyOf(args.subList(k + 1, end)), List.of(), List.of(),
                String.join(" ", texts.subList(k + 1, end)), 0);
            analyzeCommand(sub, normalise(sub), List.of(), 0);
          }
        }
        k = end;
      }
    }
    if (!deleting) {
      return;
    }
    if (starts.isEmpty()) {
      starts = List.of(new Word(List.of(new Part(PartKind.TEXT, ".", true, false)), "."));
    }
    for (Word s : starts) {
      Resolved r = resolve(s);
      if (r.target() == null) {
        findings.add(Flag.medium("find-delete-unknown", "find deleting under " + s.text() + ", whose value is not known"));
        continue;
      }
      Target t = r.target();
      Kind kind = judge.kind(t.path());
      if (kind == Kind.INSIDE_WORKDIR || kind == Kind.CREATED) {
        continue;
      }
      if (kind == Kind.WORKDIR) {
        if (!narrowing) {
          findings.add(Flag.high("find-delete-all", "find deletes everything in the working directory"));
        }
        continue;
      }
      findings.add(Flag.high("find-delete-broad", "find deleting files under " + judge.display(t)));
    }
  }

  private void dd(List<Word> args) {
    for (Word a : args) {
      String t = a.text();
      if (t.startsWith("of=")) {
        Word w = suffix(a, 3);
        if (w != null) {
          write(w, false);
        }
      } else if (t.startsWith("if=")) {
        Word w = suffix(a, 3);
        Target target = w == null ? null : target(w);
        if (target != null && judge.secret(target.path()) != null) {
          findings.secretRead(judge.secret(target.path()));
        }
      }
    }
  }

  private void shred(List<Word> args, List<String> texts) {
    for (Word w : operands(args, Set.of("-n", "-s", "--iterations", "--size", "--random-source"))) {
      Target t = target(w);
      if (t == null) {
        continue;
      }
      Kind kind = judge.kind(t.path());
      if (judge.isDevice(t.path())) {
        findings.add(Flag.high("shred-device", "shreds device " + judge.display(t)));
      } else if (kind == Kind.SYSTEM || kind == Kind.HOME_DOT || kind == Kind.ROOT || kind == Kind.HOME) {
        findings.add(Flag.high("shred-system", "irrecoverably overwrites " + judge.display(t)));
      } else {
        findings.add(Flag.medium("shred", "irrecoverably overwrites " + judge.display(t)));
      }
    }
  }

  private void permissions(String tool, List<Word> args, List<String> texts) {
    boolean recursive = texts.stream().anyMatch(t -> t.equals("--recursive")
        || (t.startsWith("-") && !t.startsWith("--") && t.indexOf('R') >= 0));
    List<Word> ops = new ArrayList<>();
    boolean reference = false;
    for (Word w : args) {
      String t = w.text();
      if (t.startsWith("--reference")) {
        reference = true;
      } else if (!(t.startsWith("-") && t.length() > 1 && !CHMOD_SYMBOLIC_MINUS.matcher(t).matches())) {
        ops.add(w);
      }
    }
    if (ops.isEmpty()) {
      return;
    }
    List<Word> paths = reference ? ops : ops.subList(1, ops.size());
    if (tool.equals("chmod") && !reference && recursive && worldWritable(ops.get(0).text())) {
      findings.add(Flag.high("chmod-recursive-world-writable",
          "makes files world-writable recursively (chmod -R " + ops.get(0).text() + ")"));
    }
    String mode = tool.equals("chmod") && !reference ? valueOf(ops.get(0)) : null;
    for (Word w : paths) {
      Target t = through(target(w));
      if (t != null) {
        findings.add(judge.permissions(t, recursive, tool, mode));
      }
    }
  }

  private static boolean worldWritable(String mode) {
    if (OCTAL_MODE.matcher(mode).matches()) {
      int others = mode.charAt(mode.length() - 1) - '0';
      return (others & 2) != 0;
    }
    for (String clause : mode.split(",")) {
      int k = 0;
      while (k < clause.length() && "ugoa".indexOf(clause.charAt(k)) >= 0) {
        k++;
      }
      String who = clause.substring(0, k);
      String rest = clause.substring(k);
      if ((who.isEmpty() || who.contains("o") || who.contains("a")) && (rest.startsWith("+") || rest.startsWith("="))
          && rest.contains("w") && !who.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private void git(List<String> texts) {
    int k = 0;
    while (k < texts.size() && texts.get(k).startsWith("-")) {
      String t = texts.get(k);
      k += (t.equals("-C") || t.equals("-c")) ? 2 : 1;
    }
    if (k >= texts.size()) {
      return;
    }
    String sub = texts.get(k);
    List<String> rest = texts.subList(k + 1, texts.size());
    int dashC = texts.indexOf("-C");
    Path repo = dashC >= 0 && dashC + 1 < texts.size() ? pathOf(texts.get(dashC + 1)) : cwd;
    if (repo != null && judge.kind(repo) == Kind.CREATED) {
      // a repository the block made in a temporary folder: its working tree is the block's own
      return;
    }
    switch (sub) {
      case "reset" -> {
        if (rest.contains("--hard")) {
          findings.add(Flag.high("git-reset-hard", "discards uncommitted changes (git reset --hard)"));
        }
      }
      case "clean" -> {
        StringBuilder letters = new StringBuilder();
        boolean dry = false;
        for (String t : rest) {
          if (t.equals("--dry-run") || t.equals("--interactive")) {
            dry = true;
          } else if (t.equals("--force")) {
            letters.append('f');
          } else if (t.startsWith("-") && !t.startsWith("--")) {
            letters.append(t.substring(1));
          }
        }
        String l = letters.toString();
        if (dry || l.indexOf('n') >= 0 || l.indexOf('i') >= 0) {
          return;
        }
        if (l.indexOf('f') >= 0 && (l.indexOf('d') >= 0 || l.indexOf('x') >= 0 || l.indexOf('X') >= 0)) {
          findings.add(Flag.high("git-clean-force", "deletes untracked files and directories (git clean -" + l + ")"));
        } else if (l.indexOf('f') >= 0) {
          findings.add(Flag.medium("git-clean", "deletes untracked files (git clean -f)"));
        }
      }
      case "checkout", "restore" -> {
        if (rest.contains(".") && !rest.contains("--staged") || rest.contains("-f") || rest.contains("--force")) {
          findings.add(Flag.medium("git-discard", "discards uncommitted changes (git " + sub + ")"));
        }
      }
      case "branch" -> {
        if (rest.contains("-D")) {
          findings.add(Flag.medium("git-branch-delete", "force-deletes a branch (git branch -D)"));
        }
      }
      case "stash" -> {
        if (!rest.isEmpty() && (rest.get(0).equals("clear") || rest.get(0).equals("drop"))) {
          findings.add(Flag.medium("git-stash-drop", "drops stashed changes (git stash " + rest.get(0) + ")"));
        }
      }
      case "filter-branch", "filter-repo" -> findings.add(Flag.medium("git-rewrite", "rewrites repository history (git " + sub + ")"));
      default -> {
        // other git commands do not destroy work
      }
    }
  }

  /** The folder a path names, resolved in the block, or null. */
  private Path pathOf(String text) {
    Target t = resolve(ShellLexer.word(text)).target();
    return t == null || t.glob() != null ? null : t.path();
  }

  private void kill(Invocation inv, List<String> texts) {
    List<String> pids = new ArrayList<>();
    boolean signalSeen = false;
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      if (t.equals("--")) {
        pids.addAll(texts.subList(k + 1, texts.size()));
        break;
      }
      if (t.equals("-s") || t.equals("-n")) {
        k++;
        signalSeen = true;
      } else if (t.equals("-l") || t.equals("-L")) {
        return;
      } else if (t.startsWith("-") && !signalSeen && pids.isEmpty()) {
        signalSeen = true;
      } else {
        pids.add(t);
      }
    }
    if (pids.contains("-1")) {
      findings.add(Flag.high("kill-all", "kills every process you own (kill -1)"));
    } else if (pids.contains("1")) {
      findings.add(Flag.high("kill-all", "signals init, process 1"));
    }
    if (inv.viaXargs() && pids.isEmpty()) {
      findings.facts().foreignSignal("xargs kill");
    }
    for (String pid : pids) {
      boolean literal = !pid.isEmpty() && pid.chars().allMatch(Character::isDigit);
      boolean own = pid.equals("$!") || pid.startsWith("%") || (pid.startsWith("$") && ownPids.contains(pid.substring(1)));
      if (!literal && !own && !pid.startsWith("-")) {
        findings.facts().foreignSignal("kill " + pid);
      }
    }
  }

  /** Facts only a combination makes dangerous: DNS names built at run time, raw sockets, process lists. */
  private void observe(String name, Invocation inv, List<Word> args) {
    if (RESOLVERS.contains(name)) {
      for (Word w : args) {
        if (w.literal() == null && !w.text().startsWith("-") && !w.text().startsWith("+")) {
          findings.facts().dynamicDns(name + " " + abbreviate(w.text()));
        }
      }
    } else if (RAW_SOCKETS.contains(name)) {
      findings.facts().rawSocket(name);
    } else if (PROCESS_LISTERS.contains(name) && !(name.equals("fuser") && inv.argTexts().stream().anyMatch(t -> t.startsWith("-") && t.contains("k")))) {
      findings.facts().processList(name);
    } else if (name.equals("curl") || name.equals("wget")) {
      for (Word w : args) {
        String t = w.text();
        if ((t.startsWith("http://") || t.startsWith("https://")) && w.literal() == null) {
          String hostPart = t.substring(t.indexOf("//") + 2);
          int slash = hostPart.indexOf('/');
          if ((slash < 0 ? hostPart : hostPart.substring(0, slash)).contains("$")) {
            findings.facts().dynamicDns(name + " " + abbreviate(t));
          }
        }
      }
    }
  }

  /** {@code $GITHUB_TOKEN}: a secret the environment holds, noted for the combinations that send it out. */
  private void secretVariables(Command c) {
    for (Word w : c.words()) {
      secretVariables(w);
    }
    for (Redirect r : c.redirects()) {
      secretVariables(r.target());
    }
  }

  private void secretVariables(Word w) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.VAR && !vars.containsKey(p.text()) && SecretNames.isSecret(p.text())) {
        findings.facts().secretVariable(p.text());
      }
    }
  }

  /** The arguments as the rule families see them: values where the block knows them, else as written. */
  private List<String> expanded(List<Word> args) {
    List<String> out = new ArrayList<>(args.size());
    for (Word w : args) {
      String v = w.literal() != null ? null : valueOf(w);
      out.add(w.literal() != null ? expandTilde(w) : v != null ? v : w.text());
    }
    return out;
  }

  private String expandTilde(Word w) {
    Part first = w.parts().get(0);
    return w.parts().size() == 1 && first.kind() == PartKind.TEXT ? expandTilde(first) : w.literal();
  }

  /** What the command reads on standard input when the block spells it out: heredocs and here-strings. */
  private String stdin(Command c) {
    StringBuilder sb = new StringBuilder();
    for (String h : c.heredocs()) {
      sb.append(h);
    }
    for (Redirect r : c.redirects()) {
      if (r.op().equals("<<<")) {
        String v = valueOf(r.target());
        sb.append(v == null ? r.target().text() : v).append('\n');
      }
    }
    return sb.toString();
  }

  private void systemctl(List<String> texts) {
    Set<String> power = Set.of("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep",
        "suspend-then-hibernate", "rescue", "emergency", "soft-reboot");
    for (String t : texts) {
      if (t.startsWith("-")) {
        continue;
      }
      if (power.contains(t)) {
        findings.add(Flag.high("shutdown", "shuts down, suspends or reboots the machine (systemctl " + t + ")"));
      } else if (t.equals("isolate") && texts.stream().anyMatch(x -> SHUTDOWN_TARGET.matcher(x).matches())) {
        findings.add(Flag.high("shutdown", "switches the machine to a shutdown or rescue target"));
      }
      return;
    }
  }

  private void crontab(List<String> texts) {
    for (String t : texts) {
      if (t.startsWith("-") && !t.startsWith("--") && t.length() > 1 && t.indexOf('r') >= 0) {
        findings.add(Flag.high("crontab-remove", "removes every cron job (crontab -r)"));
        return;
      }
    }
  }

  private void cd(String name, List<Word> args) {
    Path before = cwd;
    List<Word> ops = operands(args, Set.of());
    if (ops.isEmpty()) {
      cwd = judge.context().home();
    } else {
      // "cd -", "cd $DIR" (empty DIR goes home) and globs leave the directory unknown
      Resolved r = ops.get(0).text().equals("-") ? null : resolve(ops.get(0));
      cwd = r != null && r.target() != null && r.target().glob() == null ? r.target().path() : null;
    }
    if (name.equals("pushd") && before != null) {
      dirStack.push(before);
    }
  }

  private void copy(List<Word> args, List<String> texts) {
    Word targetDir = null;
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      if ((t.equals("-t") || t.equals("--target-directory")) && k + 1 < args.size()) {
        targetDir = args.get(k + 1);
      } else if (t.startsWith("--target-directory=")) {
        targetDir = suffix(args.get(k), "--target-directory=".length());
      }
    }
    List<Word> ops = operands(args, Set.of("-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "-g",
        "--owner", "--group"));
    if (targetDir == null && ops.size() < 2) {
      return;
    }
    Word dest = targetDir != null ? targetDir : ops.get(ops.size() - 1);
    write(dest, false);
  }

  private void move(List<Word> args, List<String> texts) {
    List<Word> ops = operands(args, Set.of("-t", "--target-directory", "-S", "--suffix"));
    if (ops.size() < 2) {
      return;
    }
    for (Word src : ops.subList(0, ops.size() - 1)) {
      Target t = target(src);
      if (t != null) {
        findings.add(judge.moveSource(t));
      }
    }
    Target dest = target(ops.get(ops.size() - 1));
    if (dest != null) {
      findings.add(judge.moveDestination(dest));
    }
  }

  private void link(List<Word> args, List<String> texts) {
    boolean force = texts.stream().anyMatch(t -> t.equals("--force")
        || (t.startsWith("-") && !t.startsWith("--") && t.indexOf('f') >= 0));
    Word targetDir = null;
    for (int k = 0; k + 1 < args.size(); k++) {
      if (texts.get(k).equals("-t") || texts.get(k).equals("--target-directory")) {
        targetDir = args.get(k + 1);
      }
    }
    List<Word> ops = operands(args, Set.of("-t", "--target-directory", "-S", "--suffix"));
    if (force && ops.size() >= 2 && targetDir == null) {
      write(ops.get(ops.size() - 1), false);
    }
    if (ops.isEmpty()) {
      return;
    }
    if (targetDir != null) {
      Word dir = targetDir;
      ops.forEach(t -> linked(t, dir, true));
    } else if (ops.size() == 1) {
      linked(ops.get(0), ShellLexer.word("."), true);
    } else {
      Word last = ops.get(ops.size() - 1);
      boolean intoDir = ops.size() > 2 || last.text().endsWith("/");
      ops.subList(0, ops.size() - 1).forEach(t -> linked(t, last, intoDir));
    }
  }

  /**
   * A link the block makes to {@code target} at {@code link} (or, {@code intoDir}, inside that folder under the
   * target's name): later writes and reads through the link reach the target. Relative targets are relative to the
   * link's folder, as the kernel reads them.
   */
  @Override
  public void linked(Word target, Word link, boolean intoDir) {
    Target l = target(link);
    String t = target.literal() != null ? target.literal() : valueOf(target);
    if (l == null || l.glob() != null || t == null || t.isEmpty()) {
      return;
    }
    Path linkPath = intoDir ? l.path().resolve(basename(t)).normalize() : l.path();
    Path base = linkPath.getParent() == null ? Path.of("/") : linkPath.getParent();
    try {
      Target absolute = t.startsWith("/") || t.startsWith("~") ? target(target) : null;
      Path targetPath = absolute != null ? absolute.path() : base.resolve(t).normalize();
      judge.linked(linkPath, targetPath);
    } catch (InvalidPathException e) {
      // not a path this machine could hold: no link to follow
    }
  }

  /** Where an access to {@code t} lands once the links the block made are followed. */
  private Target through(Target t) {
    return t == null ? null : new Target(judge.throughLinks(t.path()), t.glob());
  }

  private void sed(List<Word> args, List<String> texts) {
    boolean inPlace = texts.stream().anyMatch(t -> t.startsWith("-i") || t.startsWith("--in-place")
        || (t.startsWith("-") && !t.startsWith("--") && t.indexOf('i') > 0 && SED_IN_PLACE.matcher(t).matches()));
    if (!inPlace) {
      return;
    }
    boolean scriptGiven = texts.contains("-e") || texts.contains("-f") || texts.contains("--expression");
    List<Word> ops = operands(args, Set.of("-e", "-f", "--expression", "--file", "-l"));
    List<Word> files = scriptGiven || ops.isEmpty() ? ops : ops.subList(1, ops.size());
    for (Word f : files) {
      write(f, false);
    }
  }

  private void readsFiles(String name, List<Word> args, List<String> texts) {
    boolean recursive = ARCHIVERS.contains(name) && (!name.equals("cp")
        || texts.stream().anyMatch(t -> t.equals("-r") || t.equals("-R") || t.equals("-a") || t.equals("--recursive")));
    List<Word> ops = operands(args, Set.of("-n", "-c", "-f", "-C", "-o", "-e", "-i", "-I", "-m", "-d", "-t"));
    if (name.equals("cp") || name.equals("scp") || name.equals("rsync") || name.equals("install")) {
      ops = ops.isEmpty() ? ops : ops.subList(0, ops.size() - 1);
    }
    for (Word w : ops) {
      Target t = through(target(w));
      if (t == null) {
        continue;
      }
      if (judge.secret(t.path()) != null) {
        noteRead(t);
      } else if (recursive && t.glob() == null && judge.containsSecrets(t.path())) {
        findings.secretRead(judge.display(t) + " (which holds secrets)");
      } else {
        noteRead(t);
      }
    }
  }

  private void curl(List<Word> args, List<String> texts) {
    Set<String> dataOpts = Set.of("-d", "--data", "--data-binary", "--data-urlencode", "--data-ascii", "--json");
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      Word value = k + 1 < args.size() ? args.get(k + 1) : null;
      if (dataOpts.contains(t) && value != null) {
        String v = value.text();
        int at = v.indexOf('@');
        if (at >= 0 && (at == 0 || t.equals("--data-urlencode"))) {
          uploaded(suffix(value, at + 1));
        }
      } else if ((t.equals("-F") || t.equals("--form")) && value != null) {
        String v = value.text();
        int at = v.indexOf("=@");
        int lt = v.indexOf("=<");
        int idx = at >= 0 ? at : lt;
        if (idx >= 0) {
          uploaded(suffix(value, idx + 2));
        }
      } else if ((t.equals("-T") || t.equals("--upload-file")) && value != null) {
        uploaded(value);
      } else if ((t.equals("-o") || t.equals("--output")) && value != null) {
        Target target = target(value);
        if (target != null) {
          downloaded.add(target.path());
        }
      } else if (t.startsWith("-d@") || t.startsWith("-T") && t.length() > 2) {
        uploaded(suffix(args.get(k), t.startsWith("-d@") ? 3 : 2));
      }
    }
    boolean remoteName = texts.stream().anyMatch(t -> t.equals("--remote-name") || t.equals("--remote-name-all")
        || t.startsWith("-") && !t.startsWith("--") && t.indexOf('O') > 0);
    if (remoteName && cwd != null) {
      // curl -O saves each URL under its own name in the current folder
      for (String t : texts) {
        if (t.startsWith("http://") || t.startsWith("https://") || t.startsWith("ftp://")) {
          String file = basename(URL_TAIL.matcher(t).replaceAll(""));
          if (!file.isEmpty() && !file.contains(":")) {
            downloaded.add(cwd.resolve(file).normalize());
          }
        }
      }
    }
  }

  private void uploaded(Word file) {
    if (file == null || file.text().equals("-")) {
      return;
    }
    Target t = through(target(file));
    if (t == null) {
      return;
    }
    String secret = judge.secret(t.path());
    if (secret != null) {
      findings.secretRead(secret);
    } else if (judge.containsSecrets(t.path())) {
      findings.secretRead(judge.display(t));
    }
  }

  private void wget(List<Word> args, List<String> texts) {
    boolean outputNamed = false;
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      if (t.startsWith("--post-file=") || t.startsWith("--body-file=")) {
        uploaded(suffix(args.get(k), t.indexOf('=') + 1));
      } else if ((t.equals("-O") || t.equals("--output-document")) && k + 1 < args.size()) {
        outputNamed = true;
        if (!texts.get(k + 1).equals("-")) {
          Target target = target(args.get(k + 1));
          if (target != null) {
            downloaded.add(target.path());
          }
        }
      } else if (t.startsWith("-O") || t.startsWith("--output-document=")) {
        outputNamed = true;
      }
    }
    if (!outputNamed && cwd != null) {
      for (String t : texts) {
        if (t.startsWith("http://") || t.startsWith("https://") || t.startsWith("ftp://")) {
          String file = basename(URL_TAIL.matcher(t).replaceAll(""));
          if (!file.isEmpty() && !file.contains(":")) {
            downloaded.add(cwd.resolve(file).normalize());
          }
        }
      }
    }
  }

  private static boolean isRemote(String operand) {
    int colon = operand.indexOf(':');
    return colon > 0 && !operand.startsWith("/") && !operand.startsWith("./") && operand.indexOf('/') > colon - 1
        || (colon > 0 && operand.indexOf('/') < 0) || operand.startsWith("rsync://");
  }

  private void source(List<Word> args, List<String> texts) {
    if (args.isEmpty()) {
      return;
    }
    Word file = args.get(0);
    for (Part p : file.parts()) {
      if (p.kind() == PartKind.SUBST && runsDownloader(p.text())) {
        findings.add(Flag.high("pipe-to-shell", "runs a downloaded script (source <(...))"));
      }
    }
    String t = texts.get(0);
    if (t.endsWith("/bin/activate") || t.equals("activate") || t.endsWith("/Scripts/activate")) {
      venvActive = true;
    }
    Target target = target(file);
    if (target != null && downloaded.contains(target.path())) {
      findings.add(Flag.high("run-downloaded", "runs a script downloaded in the same block"));
    }
    runWritten(target, "bash");
  }

  // ---------------------------------------------------------------- interpreters

  /** Whether shell code runs a downloader (curl, wget...) in any of its commands. */
  private boolean runsDownloader(String code) {
    for (Command c : ShellLexer.parse(code)) {
      Invocation inv = normalise(c);
      if (DOWNLOADERS.contains(inv.name())) {
        return true;
      }
    }
    return false;
  }

  /** For an interpreter reading its program from stdin: does an earlier stage of its pipeline download it? */
  private void pipedFromDownload(Invocation inv, List<Invocation> all, int index) {
    int pipeline = inv.command().pipeline();
    for (int k = index - 1; k >= 0 && all.get(k).command().pipeline() == pipeline; k--) {
      Invocation feeder = all.get(k);
      String f = feeder.name();
      if (DOWNLOADERS.contains(f)) {
        findings.add(Flag.high("pipe-to-shell", "pipes a download into " + inv.name() + " (" + f + " | " + inv.name() + ")"));
        return;
      }
      if (isDecoder(feeder)) {
        findings.add(Flag.high("pipe-to-shell", "pipes decoded, hidden code into " + inv.name() + " (" + f + " | " + inv.name() + ")"));
        return;
      }
      if ((f.equals("echo") || f.equals("printf")) && feeder.args().stream().anyMatch(this::holdsFetched)) {
        findings.add(Flag.high("pipe-to-shell", "pipes downloaded code into " + inv.name() + " (" + f + " | " + inv.name() + ")"));
        return;
      }
      if ((f.equals("echo") || f.equals("printf")) && k == index - 1) {
        // echo 'cmd' | sh runs cmd: analyse it as the program it is
        String program = echoed(feeder);
        if (program != null) {
          if (inv.name().startsWith("python")) {
            nested.analyze(Languages.PYTHON, program, depth + 1, cwd, venvActive);
          } else if (SHELLS.contains(inv.name())) {
            child().analyze(program);
          }
        }
        return;
      }
    }
  }

  /** base64 -d, xxd -r, openssl enc -d, gunzip...: their output is code nobody has read. */
  private static boolean isDecoder(Invocation inv) {
    List<String> t = inv.argTexts();
    return switch (inv.name()) {
      case "base64", "base32" -> t.contains("-d") || t.contains("--decode") || t.contains("-D");
      case "xxd" -> t.contains("-r") || t.contains("-revert");
      case "openssl" -> t.contains("-d") || t.contains("base64") && t.contains("-A");
      case "gunzip", "zcat", "bzcat", "xzcat", "uudecode", "rev" -> true;
      case "gzip", "bzip2", "xz" -> t.contains("-d") || t.contains("-dc") || t.contains("-cd");
      default -> false;
    };
  }

  /** The text echo or printf writes, when its arguments are known; null otherwise. */
  private String echoed(Invocation inv) {
    List<String> out = new ArrayList<>();
    for (Word w : inv.args()) {
      String v = valueOf(w);
      if (v == null) {
        return null;
      }
      if (out.isEmpty() && v.startsWith("-") && inv.name().equals("echo")) {
        continue;
      }
      out.add(v);
    }
    String s = String.join(" ", out);
    return inv.name().equals("printf") || inv.argTexts().contains("-e") ? s.replace("\\n", "\n") : s;
  }

  private void runsFile(Invocation inv, Word script) {
    for (Part p : script.parts()) {
      if (p.kind() == PartKind.SUBST && runsDownloader(p.text())) {
        findings.add(Flag.high("pipe-to-shell", "runs a downloaded script (" + inv.name() + " <(...))"));
        return;
      }
    }
    Target t = target(script);
    if (t != null && downloaded.contains(t.path())) {
      findings.add(Flag.high("run-downloaded", "runs a script downloaded in the same block"));
    }
    runWritten(t, inv.name());
  }

  /** A file the block wrote earlier and now runs: its content is analysed as the program it is. */
  private void runWritten(Target t, String interpreter) {
    if (t == null || t.glob() != null) {
      return;
    }
    String content = findings.writtenContent(t.path());
    if (content == null) {
      return;
    }
    String language = interpreter != null ? interpreter : shebang(content);
    nested.analyze(language, content, depth + 1, cwd, venvActive);
  }

  /** "python3" for {@code #!/usr/bin/env python3}; "bash" when there is no shebang. */
  private static String shebang(String content) {
    if (!content.startsWith("#!")) {
      return "bash";
    }
    int eol = content.indexOf('\n');
    String line = (eol < 0 ? content : content.substring(0, eol)).substring(2).strip();
    String[] words = line.split("\\s+");
    String prog = basename(words[0]);
    return prog.equals("env") && words.length > 1 ? words[words.length - 1] : prog;
  }

  /** make -f FILE, or make with a Makefile the block wrote: every recipe line is shell code that runs. */
  private void make(List<Word> args, List<String> texts) {
    List<String> names = new ArrayList<>();
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      if ((t.equals("-f") || t.equals("--file") || t.equals("--makefile")) && k + 1 < texts.size()) {
        names.add(texts.get(k + 1));
      } else if (t.startsWith("--file=") || t.startsWith("--makefile=")) {
        names.add(t.substring(t.indexOf('=') + 1));
      }
    }
    if (names.isEmpty()) {
      names = List.of("GNUmakefile", "makefile", "Makefile");
    }
    for (String n : names) {
      Target t = resolve(ShellLexer.word(n)).target();
      String content = t == null ? null : findings.writtenContent(t.path());
      if (content != null) {
        child().analyze(Makefiles.recipes(content));
        return;
      }
    }
  }

  private void shell(Invocation inv, List<Invocation> all, int index) {
    List<Word> args = inv.args();
    hereStringFromDownload(inv);
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (t.startsWith("-") && !t.startsWith("--") && t.indexOf('c') > 0) {
        if (k + 1 < args.size()) {
          runsFetched(inv.name() + " -c", List.of(args.get(k + 1)));
          // sh -c "$CMD", sh -c "$(printf 'rm -rf %s' ~)": the command is the value, when the block knows it
          String v = args.get(k + 1).literal() == null ? valueOf(args.get(k + 1)) : null;
          child().analyze(v != null ? v : args.get(k + 1).text());
        }
        return;
      }
      if (t.equals("-o") || t.equals("+o")) {
        k++;
        continue;
      }
      if (t.equals("-s") || t.equals("-") || t.equals("--")) {
        break;
      }
      if (!t.startsWith("-") && !t.startsWith("+")) {
        runsFile(inv, args.get(k));
        return;
      }
    }
    pipedFromDownload(inv, all, index);
    for (String body : inv.command().heredocs()) {
      child().analyze(body);
    }
  }

  private void python(Invocation inv, List<Invocation> all, int index) {
    List<Word> args = inv.args();
    hereStringFromDownload(inv);
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (t.equals("-c") && k + 1 < args.size()) {
        inlineFromDownload(inv, args.get(k + 1));
        nested.analyze(Languages.PYTHON, args.get(k + 1).text(), depth + 1, cwd, venvActive);
        return;
      }
      if (t.equals("-m") && k + 1 < args.size()) {
        String module = args.get(k + 1).text();
        List<Word> rest = args.subList(k + 2, args.size());
        if (module.equals("pip")) {
          pip(rest, inv.nameWord(), inv.name() + " -m pip");
        } else if (module.equals("venv") || module.equals("virtualenv")) {
          operands(rest, Set.of("--prompt")).stream().findFirst().ifPresent(this::created);
        } else if (module.equals("http.server") || module.equals("SimpleHTTPServer")) {
          findings.network();
          Word dir = null;
          for (int j = 0; j + 1 < rest.size(); j++) {
            if (rest.get(j).text().equals("-d") || rest.get(j).text().equals("--directory")) {
              dir = rest.get(j + 1);
            }
          }
          serves("python -m " + module, dir, expanded(rest));
        }
        return;
      }
      if (t.equals("-W") || t.equals("-X") || t.equals("-Q")) {
        k++;
        continue;
      }
      if (t.equals("-")) {
        break;
      }
      if (!t.startsWith("-")) {
        runsFile(inv, args.get(k));
        return;
      }
    }
    pipedFromDownload(inv, all, index);
    for (String body : inv.command().heredocs()) {
      nested.analyze(Languages.PYTHON, body, depth + 1, cwd, venvActive);
    }
  }

  private void otherInterpreter(Invocation inv, List<Invocation> all, int index) {
    List<Word> args = inv.args();
    hereStringFromDownload(inv);
    inPlaceEdit(inv);
    if (inv.name().equals("php") && inv.argTexts().contains("-S")) {
      int t = inv.argTexts().indexOf("-t");
      serves("php -S", t >= 0 && t + 1 < args.size() ? args.get(t + 1) : null, inv.argTexts());
      return;
    }
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      boolean program = t.equals("-e") || t.equals("-E") || t.equals("--eval") || t.equals("-r") || t.equals("-c")
          || t.startsWith("-") && !t.startsWith("--") && t.endsWith("e") && (inv.name().equals("perl") || inv.name().equals("ruby"));
      if (program && k + 1 < args.size()) {
        inlineFromDownload(inv, args.get(k + 1));
        nested.analyze(inv.name(), args.get(k + 1).text(), depth + 1, cwd, venvActive);
        return;
      }
      if (!t.startsWith("-")) {
        runsFile(inv, args.get(k));
        return;
      }
    }
    pipedFromDownload(inv, all, index);
    for (String body : inv.command().heredocs()) {
      // node <<'EOF' ... EOF, ruby - <<EOF: the program comes on standard input
      nested.analyze(inv.name(), body, depth + 1, cwd, venvActive);
    }
  }

  /** {@code node -e "$(curl ...)"}, {@code python3 -c "$S"} with S downloaded: the program is whatever the download holds. */
  private void inlineFromDownload(Invocation inv, Word program) {
    if (holdsFetched(program)) {
      findings.add(Flag.high("pipe-to-shell", "runs downloaded code as " + inv.name() + "'s program (" + inv.name()
          + " " + abbreviate(program.text()) + ")"));
    }
  }

  /**
   * Whether a word's value is what a download printed: a substitution that runs curl or wget, or a variable the block
   * assigned from one.
   */
  private boolean holdsFetched(Word w) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.SUBST && runsDownloader(p.text())
          || p.kind() == PartKind.VAR && findings.isFetchedVariable(p.text())) {
        return true;
      }
    }
    return false;
  }

  /** eval, sh -c, a here-string into an interpreter, echo into sh: code that is a download's output runs. */
  private void runsFetched(String how, List<Word> code) {
    for (Word w : code) {
      if (holdsFetched(w)) {
        findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + how + " " + abbreviate(w.text()) + ")"));
        return;
      }
    }
  }

  /** {@code bash <<< "$S"}, {@code python3 - <<< "$(curl ...)"}: the interpreter reads a download as its program. */
  private void hereStringFromDownload(Invocation inv) {
    for (Redirect r : inv.command().redirects()) {
      if (r.op().equals("<<<")) {
        runsFetched(inv.name() + " <<<", List.of(r.target()));
      }
    }
  }

  /** {@code perl -pi -e ... FILE}, {@code ruby -i -pe ... FILE}: every file operand is rewritten in place. */
  private void inPlaceEdit(Invocation inv) {
    if (!inv.name().equals("perl") && !inv.name().equals("ruby")) {
      return;
    }
    List<Word> args = inv.args();
    boolean inPlace = false;
    boolean programSeen = false;
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (t.startsWith("-") && !t.startsWith("--") && t.length() > 1) {
        inPlace |= t.indexOf('i') > 0;
        if (t.endsWith("e") || t.equals("-E")) {
          k++;
          programSeen = true;
        }
      } else if (inPlace && programSeen) {
        write(args.get(k), false);
      } else {
        programSeen = true; // the script file comes first when there is no -e
      }
    }
  }

  /**
   * Commands whose output is a credential: exported private keys, keychain and password-manager entries, access tokens
   * of forges and clouds, secret-named environment variables, the shell's history. Piped into a network tool, the
   * credential leaves the machine.
   */
  private String secretOutput(Invocation inv) {
    List<String> t = inv.argTexts();
    String verb = t.isEmpty() ? "" : t.get(0);
    return switch (inv.name()) {
      case "gpg", "gpg2" -> t.stream().anyMatch(a -> a.startsWith("--export-secret")) ? "exported private keys" : null;
      case "security" -> verb.startsWith("find-") && verb.endsWith("password") || verb.equals("dump-keychain")
          ? "the keychain" : null;
      case "pass", "gopass" -> verb.equals("show") || !verb.isEmpty() && !verb.startsWith("-") && !Set.of("ls", "list",
          "find", "search", "init", "git", "insert", "generate", "rm", "mv", "cp", "edit").contains(verb) ? "a password" : null;
      case "op", "bw", "lpass", "keepassxc-cli" -> Set.of("read", "get", "show", "item").contains(verb) ? "a password" : null;
      case "gh", "glab" -> t.size() >= 2 && verb.equals("auth") && t.get(1).equals("token") ? "the forge's token" : null;
      case "gcloud" -> t.stream().anyMatch(a -> a.startsWith("print-") && a.endsWith("token")) ? "a cloud access token" : null;
      case "az" -> t.contains("get-access-token") ? "a cloud access token" : null;
      case "aws" -> t.contains("get-login-password") || t.contains("export-credentials") || t.contains("get-session-token")
          || verb.equals("configure") && t.stream().anyMatch(a -> a.contains("secret") || a.contains("session_token"))
          ? "cloud credentials" : null;
      case "vault" -> verb.equals("read") || verb.equals("kv") && t.contains("get") || verb.equals("print") ? "a vault secret" : null;
      case "kubectl" -> verb.equals("config") && t.contains("view") && t.contains("--raw")
          || verb.equals("get") && t.size() > 1 && t.get(1).startsWith("secret") ? "cluster credentials" : null;
      case "printenv" -> t.stream().anyMatch(SecretNames::isSecret) ? "a secret environment variable" : null;
      case "echo", "printf" -> inv.args().stream().anyMatch(this::namesSecretVariable) ? "a secret environment variable" : null;
      case "history" -> "the shell's history";
      default -> null;
    };
  }

  private boolean namesSecretVariable(Word w) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.VAR && SecretNames.isSecret(p.text())) {
        return true;
      }
    }
    return false;
  }

  /** A network tool reading a credential from an earlier stage of its pipeline ({@code gh auth token | curl -d @-}). */
  private void secretPipedOut(Invocation inv, List<Invocation> all, int index) {
    int pipeline = inv.command().pipeline();
    for (int k = index - 1; k >= 0 && all.get(k).command().pipeline() == pipeline; k--) {
      String what = secretOutput(all.get(k));
      if (what != null) {
        findings.add(Flag.high("secret-exfiltration", "sends " + what + " over the network (" + all.get(k).name() + " | "
            + inv.name() + ")"));
        return;
      }
    }
  }

  /**
   * A web server started on a folder (python -m http.server, php -S, http-server): serving the home folder or one
   * that holds keys hands them to whoever connects.
   */
  private void serves(String how, Word dir, List<String> texts) {
    Target t = dir == null ? (cwd == null ? null : new Target(cwd, null)) : through(target(dir));
    if (t == null || !judge.containsSecrets(t.path())) {
      return;
    }
    boolean loopback = texts.stream().anyMatch(a -> a.equals("127.0.0.1") || a.equals("localhost") || a.equals("::1")
        || a.startsWith("127.0.0.1:") || a.startsWith("localhost:"));
    findings.add(loopback ? Flag.medium("serve-secrets", "serves " + judge.display(t) + ", which holds keys, on this machine (" + how + ")")
        : Flag.high("serve-secrets", "serves " + judge.display(t) + ", which holds keys, to the network (" + how + ")"));
  }

  // ---------------------------------------------------------------- installs

  private void pip(List<Word> args, Word executable, String how) {
    List<String> texts = new ArrayList<>();
    for (Word w : args) {
      texts.add(w.text());
    }
    ToolRules.judge(new ToolCall("pip", expanded(args), false, ""), this);
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if (!sub.equals("install") && !sub.equals("uninstall")) {
      return;
    }
    if (texts.contains("--break-system-packages")) {
      findings.add(Flag.high("pip-break-system", "overrides the system Python's protection (--break-system-packages)"));
      return;
    }
    if (texts.contains("--user")) {
      findings.add(Flag.high("pip-user", "installs Python packages into the user site (" + how + " --user)"));
      return;
    }
    for (int k = 0; k < args.size(); k++) {
      String t = texts.get(k);
      Word dir = null;
      if ((t.equals("--target") || t.equals("-t") || t.equals("--prefix") || t.equals("--root")) && k + 1 < args.size()) {
        dir = args.get(k + 1);
      } else if (t.startsWith("--target=") || t.startsWith("--prefix=") || t.startsWith("--root=")) {
        dir = suffix(args.get(k), t.indexOf('=') + 1);
      }
      if (dir != null) {
        Target target = target(dir);
        Kind kind = target == null ? null : judge.kind(target.path());
        if (kind == Kind.INSIDE_WORKDIR || kind == Kind.WORKDIR || kind == Kind.CREATED) {
          return;
        }
        findings.add(Flag.high("pip-global", "installs Python packages into " + (target == null ? dir.text() : judge.display(target))));
        return;
      }
    }
    if (venvActive || inVirtualEnv(executable)) {
      return;
    }
    findings.add(Flag.high("pip-global", (sub.equals("install") ? "installs" : "removes")
        + " Python packages outside a virtual environment (" + how + " " + sub + ")"));
  }

  /** {@code .venv/bin/pip}, {@code ./venv/bin/python}: an executable inside the project or a created venv. */
  private boolean inVirtualEnv(Word executable) {
    String lit = executable.literal();
    if (lit == null || !lit.contains("/")) {
      return false;
    }
    Target t = target(executable);
    if (t == null) {
      return false;
    }
    Kind kind = judge.kind(t.path());
    Path parent = t.path().getParent();
    boolean binDir = parent != null && parent.getFileName() != null
        && (parent.getFileName().toString().equals("bin") || parent.getFileName().toString().equals("Scripts"));
    return binDir && (kind == Kind.INSIDE_WORKDIR || kind == Kind.CREATED);
  }

  private void uv(List<String> texts) {
    if (texts.size() >= 2 && texts.get(0).equals("pip") && (texts.get(1).equals("install") || texts.get(1).equals("uninstall"))
        && (texts.contains("--system") || texts.contains("--break-system-packages"))) {
      findings.add(Flag.high("pip-global", "installs Python packages into the system Python (uv pip --system)"));
    }
  }

  private void npm(String name, List<String> texts) {
    Set<String> verbs = Set.of("install", "i", "add", "in", "ins", "inst", "isntall", "uninstall", "un", "rm", "remove",
        "r", "unlink", "update", "up", "upgrade", "link", "ln");
    boolean global = texts.stream().anyMatch(t -> t.equals("-g") || t.equals("--global") || t.equals("--location=global"));
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if (global && verbs.contains(sub)) {
      findings.add(Flag.high("npm-global", "installs packages globally (" + name + " " + sub + " -g)"));
    }
  }

  private void gem(List<String> texts) {
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if ((sub.equals("install") || sub.equals("uninstall") || sub.equals("update"))
        && !texts.contains("--user-install") && !texts.contains("-i") && !texts.contains("--install-dir")) {
      // like pip outside a virtual environment: the gems land in the interpreter's shared gem folder
      findings.add(Flag.high("gem-install", "installs Ruby gems for the whole system (gem " + sub + ")"));
    }
  }

  private void systemPackages(String name, List<String> texts) {
    String sub = texts.stream().filter(t -> !t.startsWith("-")).findFirst().orElse("");
    if (!SYSTEM_PACKAGE_VERBS.contains(sub) || simulates(texts)) {
      return;
    }
    if (name.equals("flatpak") && texts.contains("--user")) {
      findings.add(Flag.medium("user-package", "installs a flatpak for this user"));
      return;
    }
    findings.add(Flag.high("system-package", "changes system packages (" + name + " " + sub + ") and needs root"));
  }

  /** apt-get -s, dnf --assumeno, zypper --dry-run...: the package manager only shows what it would do. */
  private static boolean simulates(List<String> texts) {
    for (String t : texts) {
      if (t.equals("-s") || t.equals("--simulate") || t.equals("--dry-run") || t.equals("--just-print")
          || t.equals("--no-act") || t.equals("--recon") || t.equals("--assumeno") || t.equals("--print-uris")
          || t.equals("--download-only")) {
        return true;
      }
    }
    return false;
  }

  private void pacman(String name, List<String> texts) {
    for (String t : texts) {
      if (t.startsWith("-R") || t.startsWith("-U") || t.startsWith("--remove") || t.startsWith("--upgrade")
          || t.startsWith("--sync") && !texts.contains("--search")) {
        findings.add(Flag.high("system-package", "changes system packages (" + name + " " + t + ") and needs root"));
        return;
      }
      if (t.startsWith("-S")) {
        String letters = t.substring(2);
        boolean queryOnly = !letters.isEmpty() && letters.chars().allMatch(ch -> ch == 's' || ch == 'i' || ch == 'l' || ch == 'g' || ch == 'q');
        if (!queryOnly) {
          findings.add(Flag.high("system-package", "changes system packages (" + name + " " + t + ") and needs root"));
        }
        return;
      }
    }
  }

}
