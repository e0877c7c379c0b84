package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.operands;
import static io.interpreter4j.core.safety.bash.BashArgs.suffix;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Writing, copying, moving, linking and re-permissioning files, the folders the block makes and moves into, and the
 * tools that read files (a secret read counts towards exfiltration).
 */
final class FileCommands {

  private static final Set<String> READERS = Set.of(
      "cat", "tac", "less", "more", "head", "tail", "nl", "base64", "base32", "xxd", "od", "hexdump", "strings",
      "gzip", "bzip2", "xz", "zstd", "tar", "zip", "7z", "gpg", "cp", "scp", "rsync", "grep", "egrep", "fgrep", "rg",
      "awk", "sed", "cut", "sort", "uniq", "jq", "yq", "openssl", "dd", "install", "paste", "column", "bat");
  private static final Set<String> ARCHIVERS = Set.of("tar", "zip", "7z", "rsync", "scp", "cp");
  private static final Pattern CHMOD_SYMBOLIC_MINUS = Pattern.compile("-[rwxXst]+");
  private static final Pattern OCTAL_MODE = Pattern.compile("[0-7]{3,4}");
  private static final Pattern SED_IN_PLACE = Pattern.compile("-[nEsrzu]*i.*");

  private FileCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, FileCommands::dd, "dd");
    CommandHandler.register(table, FileCommands::chmod, "chmod", "chown", "chgrp");
    CommandHandler.register(table, FileCommands::copy, "cp", "install");
    CommandHandler.register(table, FileCommands::move, "mv");
    CommandHandler.register(table, FileCommands::link, "ln");
    CommandHandler.register(table, FileCommands::tee, "tee");
    CommandHandler.register(table, FileCommands::truncate, "truncate");
    CommandHandler.register(table, FileCommands::sed, "sed");
    CommandHandler.register(table, FileCommands::sponge, "sponge");
    CommandHandler.register(table, FileCommands::awk, "awk", "gawk");
    CommandHandler.register(table, FileCommands::mkdir, "mkdir");
    CommandHandler.register(table, FileCommands::virtualenv, "virtualenv");
    CommandHandler.register(table, (bash, inv) -> bash.scope().changeDirectory(inv.name(), inv.args()), "cd", "pushd");
    CommandHandler.register(table, (bash, inv) -> bash.scope().popDirectory(), "popd");
  }

  /** Readers, archivers and copiers: a secret read counts towards exfiltration, a folder holding secrets too. */
  static void reads(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    if (!READERS.contains(name)) {
      return;
    }
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    boolean recursive = ARCHIVERS.contains(name) && (!name.equals("cp")
        || texts.stream().anyMatch(t -> t.equals("-r") || t.equals("-R") || t.equals("-a") || t.equals("--recursive")));
    List<Word> ops = operands(args, Set.of("-n", "-c", "-f", "-C", "-o", "-e", "-i", "-I", "-m", "-d", "-t"));
    if (name.equals("cp") || name.equals("scp") || name.equals("rsync") || name.equals("install")) {
      ops = ops.isEmpty() ? ops : ops.subList(0, ops.size() - 1);
    }
    for (Word w : ops) {
      Target t = bash.scope().through(bash.scope().target(w));
      if (t == null) {
        continue;
      }
      if (bash.judge().secret(t.path()) != null) {
        bash.paths().noteRead(t);
      } else if (recursive && t.glob() == null && bash.judge().containsSecrets(t.path())) {
        bash.findings().secretRead(bash.judge().display(t) + " (which holds secrets)");
      } else {
        bash.paths().noteRead(t);
      }
    }
  }

  private static void dd(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    for (Word a : args) {
      String t = a.text();
      if (t.startsWith("of=")) {
        Word w = suffix(a, 3);
        if (w != null) {
          bash.write(w, false);
        }
      } else if (t.startsWith("if=")) {
        Word w = suffix(a, 3);
        Target target = w == null ? null : bash.scope().target(w);
        if (target != null && bash.judge().secret(target.path()) != null) {
          bash.findings().secretRead(bash.judge().secret(target.path()));
        }
      }
    }
  }

  private static void chmod(BashAnalyzer bash, Invocation inv) {
    String tool = inv.name();
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
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
      bash.findings().add(Flag.high("chmod-recursive-world-writable",
          "makes files world-writable recursively (chmod -R " + ops.get(0).text() + ")"));
    }
    String mode = tool.equals("chmod") && !reference ? bash.scope().valueOf(ops.get(0)) : null;
    for (Word w : paths) {
      Target t = bash.scope().through(bash.scope().target(w));
      if (t != null) {
        bash.findings().add(bash.judge().permissions(t, recursive, tool, mode));
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

  private static void copy(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
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
    bash.write(dest, false);
  }

  private static void move(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<Word> ops = operands(args, Set.of("-t", "--target-directory", "-S", "--suffix"));
    if (ops.size() < 2) {
      return;
    }
    for (Word src : ops.subList(0, ops.size() - 1)) {
      Target t = bash.scope().target(src);
      if (t != null) {
        bash.findings().add(bash.judge().moveSource(t));
      }
    }
    Target dest = bash.scope().target(ops.get(ops.size() - 1));
    if (dest != null) {
      bash.findings().add(bash.judge().moveDestination(dest));
    }
  }

  private static void link(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
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
      bash.write(ops.get(ops.size() - 1), false);
    }
    if (ops.isEmpty()) {
      return;
    }
    if (targetDir != null) {
      Word dir = targetDir;
      ops.forEach(t -> bash.linked(t, dir, true));
    } else if (ops.size() == 1) {
      bash.linked(ops.get(0), ShellLexer.word("."), true);
    } else {
      Word last = ops.get(ops.size() - 1);
      boolean intoDir = ops.size() > 2 || last.text().endsWith("/");
      ops.subList(0, ops.size() - 1).forEach(t -> bash.linked(t, last, intoDir));
    }
  }

  private static void tee(BashAnalyzer bash, Invocation inv) {
    boolean append = inv.texts().stream().anyMatch(t -> t.equals("-a") || t.equals("--append"));
    for (Word w : operands(inv.args(), Set.of())) {
      Target target = bash.write(w, append);
      if (target != null && !append && !inv.command().heredocs().isEmpty()) {
        bash.findings().wroteFile(target.path(), inv.command().heredocs().get(0));
      }
    }
  }

  private static void awk(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    int i = texts.indexOf("-i");
    if (i >= 0 && i + 1 < texts.size() && texts.get(i + 1).equals("inplace")) {
      List<Word> ops = operands(inv.args(), Set.of("-i", "-f", "-v", "-F", "-e"));
      ops.subList(Math.min(1, ops.size()), ops.size()).forEach(w -> bash.write(w, false));
    }
  }

  private static void sed(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    boolean inPlace = texts.stream().anyMatch(t -> t.startsWith("-i") || t.startsWith("--in-place")
        || (t.startsWith("-") && !t.startsWith("--") && t.indexOf('i') > 0 && SED_IN_PLACE.matcher(t).matches()));
    if (!inPlace) {
      return;
    }
    boolean scriptGiven = texts.contains("-e") || texts.contains("-f") || texts.contains("--expression");
    List<Word> ops = operands(args, Set.of("-e", "-f", "--expression", "--file", "-l"));
    List<Word> files = scriptGiven || ops.isEmpty() ? ops : ops.subList(1, ops.size());
    for (Word f : files) {
      bash.write(f, false);
    }
  }

  private static void truncate(BashAnalyzer bash, Invocation inv) {
    operands(inv.args(), Set.of("-s", "-r", "--size", "--reference")).forEach(w -> bash.write(w, false));
  }

  private static void sponge(BashAnalyzer bash, Invocation inv) {
    operands(inv.args(), Set.of()).forEach(w -> bash.write(w, inv.texts().contains("-a")));
  }

  /** Folders the block makes: deleting them later is fine. */
  private static void mkdir(BashAnalyzer bash, Invocation inv) {
    operands(inv.args(), Set.of("-m", "--mode")).forEach(bash::created);
  }

  private static void virtualenv(BashAnalyzer bash, Invocation inv) {
    operands(inv.args(), Set.of("-p", "--python", "--prompt")).stream().findFirst().ifPresent(bash::created);
  }
}
