package io.interpreter4j.core.safety.script;

import static io.interpreter4j.core.safety.code.ValueParts.text;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Place;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Code and packages a JavaScript, Ruby or R block loads besides its own: {@code eval} and {@code Function} of a
 * literal (analysed in the same language), of fetched or computed code; files it requires, loads or sources
 * (downloaded ones run downloaded code, written ones are analysed); loaders that run code as they load; R packages
 * installed or removed outside the project.
 */
final class ScriptCode extends ScriptCallRules {

  ScriptCode(ScriptBlock block) {
    super(block);
  }

  /** Judges a call of an API that runs, loads or installs code; {@code arg} is its main argument. */
  void call(Api api, String name, String dotted, List<int[]> args, Map<String, int[]> kw, int[] arg, int from, int to) {
    switch (api.kind()) {
      case LOAD -> loads(name, arg);
      case DESERIALIZE -> {
        if (arg != null && block.fetchesFromNetwork(arg[0], arg[1], 0)) {
          findings.add(Flag.high("run-downloaded", "loads data from the network that can run code as it loads (" + dotted + ")"));
        }
      }
      case EVAL -> evaluates(name, args, kw, from, to);
      case SOURCE -> source(arg);
      case SOURCE_REMOTE -> findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + dotted + ")"));
      case INSTALL_R, REMOVE_R -> rPackages(api.kind(), args, kw);
      case INSTALL_REMOTE_R -> findings.add(Flag.medium("r-install-remote", "installs an R package built from a forge (" + dotted + ")"));
      default -> throw new IllegalArgumentException("not a code API: " + api.kind());
    }
  }

  private void rPackages(Kind kind, List<int[]> args, Map<String, int[]> kw) {
    int[] lib = kw.containsKey("lib") ? kw.get("lib") : args.size() > 1 ? args.get(1) : null;
    Word w = lib == null ? null : block.pathWord(lib);
    Place place = w == null ? Place.UNKNOWN : shell.place(w);
    if (place == Place.PROJECT || place == Place.WORKDIR) {
      return;
    }
    if (kind == Kind.REMOVE_R) {
      findings.add(Flag.high("r-remove", "removes R packages other projects use (remove.packages)"));
    } else if (place == Place.SYSTEM || place == Place.ROOT) {
      findings.add(Flag.high("r-install-system", "installs R packages into the system library"));
    } else {
      findings.add(Flag.medium("r-install", "installs R packages into the user library"));
    }
  }

  private void evaluates(String name, List<int[]> args, Map<String, int[]> kw, int from, int to) {
    int[] code = name.equals("Function") && !args.isEmpty() ? args.get(args.size() - 1) : args.isEmpty() ? kw.get("text") : args.get(0);
    if (dialect == Dialect.R && code != null && src.tok(code[0]).is("parse")) {
      Map<String, int[]> inner = new HashMap<>();
      int paren = code[0] + 1;
      List<int[]> innerArgs = src.arguments(paren + 1, src.matching(paren), inner);
      code = inner.containsKey("text") ? inner.get("text") : inner.containsKey("file") ? null : innerArgs.isEmpty() ? null : innerArgs.get(0);
    }
    if (code == null) {
      return;
    }
    String literal = values.literalOf(code);
    if (literal != null) {
      block.script.accept(literal);
      return;
    }
    if (block.fetchesFromNetwork(code[0], code[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + name + ")"));
      return;
    }
    findings.facts().computedCode(name + "(" + src.exprName(code[0], code[1]) + ")");
  }

  /**
   * require(path), import(path), Ruby's load / require_relative: a file the block downloaded runs downloaded code; one
   * it wrote is analysed. Package names ({@code require('fs')}, {@code require 'json'}) are libraries, not judged.
   */
  private void loads(String name, int[] arg) {
    if (arg == null) {
      return;
    }
    List<Part> v = values.eval(arg[0], arg[1]);
    if (v == null) {
      return;
    }
    Word w = block.toWord(v);
    String literal = w.literal();
    boolean file = literal == null || literal.startsWith("/") || literal.startsWith("./") || literal.startsWith("../")
        || name.endsWith("load") || name.equals("require_relative");
    if (!file) {
      return;
    }
    if (literal != null && (literal.startsWith("http://") || literal.startsWith("https://"))) {
      findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + name + " " + ScriptBlock.abbreviate(literal) + ")"));
      return;
    }
    Word path = dialect == Dialect.RUBY && literal != null && !literal.endsWith(".rb") && !name.endsWith("load")
        ? block.toWord(List.of(text(literal + ".rb"))) : w;
    if (shell.isDownloaded(path) || shell.isDownloaded(w)) {
      findings.add(Flag.high("run-downloaded", "runs a file downloaded in the same block (" + name + ")"));
      return;
    }
    String content = shell.writtenContent(path);
    if (content != null) {
      block.script.accept(content);
    }
  }

  private void source(int[] arg) {
    if (arg == null) {
      return;
    }
    Word w = block.pathWord(arg);
    String text = w == null ? "" : w.text();
    if (text.startsWith("http://") || text.startsWith("https://") || src.tok(arg[0]).is("url")
        || block.fetchesFromNetwork(arg[0], arg[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs an R script from the network (source " + ScriptBlock.abbreviate(text) + ")"));
      return;
    }
    if (w != null && shell.isDownloaded(w)) {
      findings.add(Flag.high("run-downloaded", "runs an R script downloaded in the same block (source " + ScriptBlock.abbreviate(text) + ")"));
      return;
    }
    if (w != null) {
      String content = shell.writtenContent(w);
      if (content != null) {
        block.script.accept(content);
      }
    }
  }
}
