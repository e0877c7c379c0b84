package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.code.EvalDepth;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.script.ScriptSource.Binding;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The file effects of a JavaScript, Ruby or R block ({@code fs}, {@code FileUtils}, {@code File}, Ruby's
 * {@code Pathname}, R's {@code unlink} and {@code file.*}): deletions, writes, reads, copies, moves, permission and
 * folder changes, links and unpacked archives, each handed to the shell effects as bash's twin would be.
 */
final class ScriptFiles extends ScriptCallRules {

  ScriptFiles(ScriptBlock block) {
    super(block);
  }

  /** Judges a call of a file API; {@code arg} is its main argument. */
  void call(Api api, String name, String dotted, List<int[]> args, Map<String, int[]> kw, int[] arg) {
    switch (api.kind()) {
      case DELETE -> block.paths(args, kw, api).forEach(shell::delete);
      case DELETE_RECURSIVE -> block.paths(args, kw, api).forEach(shell::recursiveDelete);
      case DELETE_OPTION -> {
        boolean recursive = values.isTrue(kw.get("recursive"));
        block.paths(args, kw, api).forEach(recursive ? shell::recursiveDelete : shell::delete);
      }
      case WRITE -> {
        boolean append = values.isTrue(kw.get("append")) || block.modeAppends(kw.get("mode")) || block.modeAppends(kw.get("flag"));
        block.paths(args, kw, api).forEach(w -> shell.write(w, append));
        writesFetched(args, kw, arg, block.paths(args, kw, api));
      }
      case APPEND -> {
        block.paths(args, kw, api).forEach(w -> shell.write(w, true));
        writesFetched(args, kw, arg, block.paths(args, kw, api));
      }
      case OPEN -> {
        int[] mode = api.second() >= 0 && api.second() < args.size() ? args.get(api.second())
            : kw.containsKey("flag") ? kw.get("flag") : kw.containsKey("mode") ? kw.get("mode") : kw.get("open");
        String m = mode == null ? (dialect == Dialect.JAVASCRIPT && name.contains("write") ? "w" : "r") : values.literalOf(mode);
        if (dialect == Dialect.JAVASCRIPT && name.contains("write") && (m == null || !m.startsWith("a"))) {
          m = "w";
        }
        for (Word w : block.paths(args, kw, api)) {
          if (m == null || m.contains("w") || m.contains("x")) {
            shell.write(w, false);
          } else if (m.contains("a") || m.contains("+")) {
            shell.write(w, true);
          } else {
            shell.read(w);
          }
        }
        if (m == null || m.contains("w") || m.contains("a") || m.contains("x")) {
          writesFetched(args, kw, arg, block.paths(args, kw, api));
        }
      }
      case COPY, MOVE -> {
        int[] src = ScriptBlock.argument(args, kw, api);
        int[] dst = api.second() < args.size() ? args.get(api.second()) : kw.get("to");
        Word s = src == null ? null : block.pathWord(src);
        Word d = dst == null ? null : block.pathWord(dst);
        if (s != null && api.kind() == Kind.COPY) {
          shell.read(s);
        }
        if (d != null && api.kind() == Kind.COPY) {
          shell.write(d, false);
          if (src != null && block.fetchesFromNetwork(src[0], src[1], 0)) {
            shell.downloaded(d);
          }
        } else if (s != null && d != null) {
          shell.move(s, d);
        }
      }
      case READ -> {
        for (Word w : block.paths(args, kw, api)) {
          if (w.text().startsWith("http://") || w.text().startsWith("https://")) {
            findings.network();
            findings.facts().fetched(name);
          } else {
            shell.read(w);
          }
        }
      }
      case CHMOD -> {
        int[] mode = api.second() >= 0 && api.second() < args.size() ? args.get(api.second()) : kw.get("mode");
        String m = mode == null ? null : values.modeText(mode);
        List<Word> targets = new ArrayList<>();
        if (api.pathArg() == 1 && dialect == Dialect.RUBY) {
          for (int i = 1; i < args.size(); i++) {
            targets.addAll(block.pathWords(args.get(i)));
          }
        } else {
          targets.addAll(block.paths(args, kw, api));
        }
        for (Word w : targets) {
          shell.permissions(w, "chmod", m);
        }
      }
      case CHOWN -> block.paths(args, kw, api).forEach(w -> shell.permissions(w, "chown"));
      case CHDIR -> {
        List<Word> p = block.paths(args, kw, api);
        if (!p.isEmpty()) {
          shell.chdir(p.get(0));
          values.cwd(shell.cwd());
        }
      }
      case MKDIR -> block.paths(args, kw, api).forEach(shell::created);
      case LINK -> {
        int[] dst = api.second() < args.size() ? args.get(api.second()) : kw.get("to");
        Word target = arg == null ? null : block.pathWord(arg);
        Word link = dst == null ? null : block.pathWord(dst);
        if (target != null && link != null) {
          if (name.endsWith("ln_sf")) {
            shell.write(link, false);
          }
          shell.linked(target, link, false);
        }
      }
      case EXTRACT -> {
        int[] dir = api.keyword() != null && kw.containsKey(api.keyword()) ? kw.get(api.keyword())
            : name.startsWith("tar.") && kw.containsKey("C") ? kw.get("C")
            : api.pathArg() >= 0 && api.pathArg() < args.size() ? args.get(api.pathArg()) : null;
        Word w = dir == null ? null : block.pathWord(dir);
        if (w != null) {
          shell.extractInto(w, dotted);
        }
      }
      default -> throw new IllegalArgumentException("not a file API: " + api.kind());
    }
  }

  /** A Ruby Pathname's method: {@code Pathname.new(Dir.home).rmtree}. */
  void method(String name, int receiverFrom, int dot, int parenOpen) {
    if (dialect == Dialect.RUBY && PATHNAME_METHODS.contains(name) && dot > receiverFrom && mentionsPathname(receiverFrom, dot, 0)) {
      pathnameMethod(name, receiverFrom, dot, parenOpen);
    }
  }

  private static final Set<String> PATHNAME_METHODS = Set.of(
      "rmtree", "rmdir", "delete", "unlink", "write", "binwrite", "chmod", "rename");

  /** Ruby's Pathname: {@code Pathname.new(Dir.home).rmtree}, {@code path.write(x)} act on the path they hold. */
  private void pathnameMethod(String name, int receiverFrom, int dot, int paren) {
    List<Part> v = values.eval(receiverFrom, dot);
    if (v == null) {
      return;
    }
    Word w = block.toWord(v);
    switch (name) {
      case "rmtree" -> shell.recursiveDelete(w);
      case "rmdir", "delete", "unlink" -> shell.delete(w);
      case "write", "binwrite" -> shell.write(w, false);
      case "chmod" -> {
        boolean called = paren < src.size() && src.tok(paren).is("(");
        int[] mode = called ? new int[] {paren + 1, src.matching(paren)} : null;
        shell.permissions(w, "chmod", mode == null ? null : values.modeText(mode));
      }
      default -> {
        // rename: the destination is judged where the block names it
      }
    }
  }

  /** Whether an expression is a Pathname: built with Pathname.new or Pathname(), or from a name bound to one. */
  private boolean mentionsPathname(int from, int to, int level) {
    if (level > EvalDepth.MAX) {
      return false;
    }
    for (int j = from; j < to && j < src.size(); j++) {
      Tok t = src.tok(j);
      if (t.is("Pathname")) {
        return true;
      }
      if (t.kind() == TokenKind.NAME && (j == from || !src.isSeparator(src.tok(j - 1)))) {
        Binding b = src.bindingBefore(t.text(), j);
        if (b != null && b.from() < from && mentionsPathname(b.from(), b.to(), level + 1)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A file written with content fetched from the network: running or loading it later runs downloaded code. */
  private void writesFetched(List<int[]> args, Map<String, int[]> kw, int[] pathArg, List<Word> files) {
    if (files.isEmpty()) {
      return;
    }
    boolean fetchedContent = false;
    for (int[] a : args) {
      if (a != pathArg && block.fetchesFromNetwork(a[0], a[1], 0)) {
        fetchedContent = true;
      }
    }
    for (Map.Entry<String, int[]> e : kw.entrySet()) {
      if (e.getValue() != pathArg && (e.getKey().equals("text") || e.getKey().equals("x") || e.getKey().equals("data"))
          && block.fetchesFromNetwork(e.getValue()[0], e.getValue()[1], 0)) {
        fetchedContent = true;
      }
    }
    if (fetchedContent) {
      files.forEach(shell::downloaded);
    }
  }
}
