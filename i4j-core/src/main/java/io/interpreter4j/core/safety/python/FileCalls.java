package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.python.PythonApis.COPY;
import static io.interpreter4j.core.safety.python.PythonApis.DOWNLOADS;
import static io.interpreter4j.core.safety.python.PythonApis.LINKS;
import static io.interpreter4j.core.safety.python.PythonApis.MOVE;
import static io.interpreter4j.core.safety.python.PythonApis.OPEN;
import static io.interpreter4j.core.safety.python.PythonApis.PERMISSIONS;
import static io.interpreter4j.core.safety.python.PythonApis.RECURSIVE_REMOVE;
import static io.interpreter4j.core.safety.python.PythonApis.REMOVE;
import static io.interpreter4j.core.safety.python.PythonApis.UNPACKS;

import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import io.interpreter4j.core.safety.python.PythonSource.Assignment;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Python's file effects ({@code os}, {@code shutil}, {@code open}, pathlib's methods): deletions, writes, reads,
 * moves, copies, permission changes, links, unpacked archives, downloads to a file, folder changes, each handed to
 * the shell effects as bash's twin would be.
 */
final class FileCalls extends PythonCallRules {

  FileCalls(PythonBlock block) {
    super(block);
  }

  /** Judges the call of {@code name} if it acts on files; whether it was such a call. */
  boolean call(String name, List<int[]> args, Map<String, int[]> kw) {
    if (RECURSIVE_REMOVE.contains(name)) {
      if (!args.isEmpty()) {
        values.pathArg(args.get(0)).ifPresent(shell::recursiveDelete);
      }
    } else if (REMOVE.contains(name)) {
      if (!args.isEmpty()) {
        values.pathArg(args.get(0)).ifPresent(shell::delete);
      }
    } else if (OPEN.contains(name)) {
      if (!args.isEmpty()) {
        int[] mode = args.size() > 1 ? args.get(1) : kw.get("mode");
        values.pathArg(args.get(0)).ifPresent(w -> openMode(w, mode));
      }
    } else if (COPY.contains(name)) {
      if (args.size() >= 2) {
        values.pathArg(args.get(0)).ifPresent(shell::read);
        values.pathArg(args.get(1)).ifPresent(w -> shell.write(w, false));
      }
    } else if (MOVE.contains(name)) {
      if (args.size() >= 2) {
        both(args.get(0), args.get(1), shell::move);
      }
    } else if (PERMISSIONS.contains(name)) {
      if (!args.isEmpty()) {
        String mode = name.endsWith("chmod") && args.size() > 1 ? modeText(args.get(1)) : null;
        values.pathArg(args.get(0)).ifPresent(w -> shell.permissions(w, name.endsWith("chmod") ? "chmod" : "chown", mode));
      }
    } else if (DOWNLOADS.contains(name)) {
      if (args.size() > 1) {
        values.pathArg(args.get(1)).ifPresent(shell::downloaded);
      }
    } else if (UNPACKS.contains(name)) {
      int[] dir = args.isEmpty() ? null
          : args.size() > 1 ? args.get(1) : kw.containsKey("extract_dir") ? kw.get("extract_dir") : kw.get("outdir");
      if (dir != null) {
        values.pathArg(dir).ifPresent(w -> shell.extractInto(w, name));
      }
    } else if (LINKS.contains(name)) {
      if (args.size() >= 2) {
        both(args.get(0), args.get(1), (target, link) -> shell.linked(target, link, false));
      }
    } else if (name.equals("shutil.copyfileobj")) {
      if (args.size() >= 2 && block.fetchesFromNetwork(args.get(0)[0], args.get(0)[1], 0)) {
        values.openedFile(args.get(1)).ifPresent(shell::downloaded);
      }
    } else if (name.equals("os.chdir")) {
      if (!args.isEmpty()) {
        values.pathArg(args.get(0)).ifPresent(shell::chdir);
      }
    } else if (name.equals("os.makedirs") || name.equals("os.mkdir")) {
      if (!args.isEmpty()) {
        values.pathArg(args.get(0)).ifPresent(shell::created);
      }
    } else {
      return false;
    }
    return true;
  }

  /** Judges {@code receiver.name(...)} if it is a file method (pathlib, a file object, an archive); whether it was. */
  boolean method(String name, int receiverFrom, int dot, List<int[]> args, Map<String, int[]> kw) {
    switch (name) {
      case "unlink" -> values.pathOf(receiverFrom, dot).ifPresent(shell::delete);
      case "rmtree" -> values.pathOf(receiverFrom, dot).ifPresent(shell::recursiveDelete);
      case "write_text", "write_bytes" -> values.pathOf(receiverFrom, dot).ifPresent(w -> {
        shell.write(w, false);
        if (!args.isEmpty() && block.fetchesFromNetwork(args.get(0)[0], args.get(0)[1], 0)) {
          shell.downloaded(w);
        }
      });
      case "write", "writelines" -> {
        if (!args.isEmpty() && block.fetchesFromNetwork(args.get(0)[0], args.get(0)[1], 0)) {
          values.openedFile(new int[] {receiverFrom, dot}).ifPresent(shell::downloaded);
        }
      }
      case "extractall" -> {
        int[] dir = !args.isEmpty() ? args.get(0) : kw.get("path");
        if (dir != null) {
          values.pathArg(dir).ifPresent(w -> shell.extractInto(w, "extractall"));
        }
      }
      case "symlink_to", "hardlink_to" -> {
        if (!args.isEmpty()) {
          Optional<Word> link = values.pathOf(receiverFrom, dot);
          Optional<Word> target = values.pathArg(args.get(0));
          if (link.isPresent() && target.isPresent()) {
            shell.linked(target.get(), link.get(), false);
          }
        }
      }
      case "read_text", "read_bytes" -> values.pathOf(receiverFrom, dot).ifPresent(shell::read);
      case "open" -> {
        if (isPathExpression(receiverFrom, dot)) {
          int[] mode = args.isEmpty() ? kw.get("mode") : args.get(0);
          values.pathOf(receiverFrom, dot).ifPresent(w -> openMode(w, mode));
        }
      }
      case "rename", "replace" -> {
        if (!args.isEmpty() && isPathExpression(receiverFrom, dot)) {
          Optional<Word> from = values.pathOf(receiverFrom, dot);
          Optional<Word> to = values.pathArg(args.get(0));
          if (from.isPresent() && to.isPresent()) {
            shell.move(from.get(), to.get());
          }
        }
      }
      case "chmod" -> {
        String mode = args.isEmpty() ? null : modeText(args.get(0));
        values.pathOf(receiverFrom, dot).ifPresent(w -> shell.permissions(w, "chmod", mode));
      }
      case "mkdir" -> values.pathOf(receiverFrom, dot).ifPresent(shell::created);
      default -> {
        return false;
      }
    }
    return true;
  }

  /** Both paths, when both are known: a move's source and destination, a link's target and name. */
  private void both(int[] first, int[] second, java.util.function.BiConsumer<Word, Word> effect) {
    Optional<Word> a = values.pathArg(first);
    Optional<Word> b = values.pathArg(second);
    if (a.isPresent() && b.isPresent()) {
      effect.accept(a.get(), b.get());
    }
  }

  /** Whether the receiver is built from pathlib (so {@code .open()} is a file, not a socket or an archive). */
  private boolean isPathExpression(int from, int to) {
    for (int j = from; j < to; j++) {
      Tok t = src.tok(j);
      if (t.kind() == TokenKind.NAME && (src.canonical(t.text()).startsWith("pathlib.") || t.text().equals("Path"))) {
        return true;
      }
      if (t.kind() == TokenKind.NAME && j == from && to - from == 1) {
        Assignment a = src.assignmentBefore(t.text(), j);
        return a != null && isPathExpression(a.from(), a.to());
      }
    }
    return false;
  }

  private void openMode(Word file, int[] mode) {
    String m = "r";
    if (mode != null) {
      String literal = values.literalOf(mode);
      m = literal == null ? "w" : literal;
    }
    if (m.contains("w") || m.contains("x")) {
      shell.write(file, false);
    } else if (m.contains("a") || m.contains("+")) {
      shell.write(file, true);
    } else {
      shell.read(file);
    }
  }

  /** A mode argument as written: 0o666, 0o777, 438, stat.S_IRWXU | ... (unknown). */
  private String modeText(int[] a) {
    if (a[1] - a[0] == 1 && src.tok(a[0]).kind() == TokenKind.NUMBER) {
      return src.tok(a[0]).text();
    }
    return null;
  }
}
