package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.python.PythonApis.DESERIALIZERS;
import static io.interpreter4j.core.safety.python.PythonApis.EXEC;
import static io.interpreter4j.core.safety.python.PythonApis.RUN_FILE;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.code.TokenKind;
import java.util.List;
import java.util.Map;

/**
 * Code a python block runs besides its own: {@code exec}/{@code eval} of a literal (analysed as python), of fetched
 * or computed code; loaders that run code as they load ({@code pickle}, unsafe {@code yaml}) fed from the network;
 * python files run through {@code runpy} or {@code importlib}.
 */
final class CodeCalls extends PythonCallRules {

  CodeCalls(PythonBlock block) {
    super(block);
  }

  /** Judges the call of {@code name} spanning [from, to) if it runs or loads code; whether it was such a call. */
  boolean call(String name, List<int[]> args, Map<String, int[]> kw, int from, int to) {
    if (DESERIALIZERS.contains(name)) {
      if (!args.isEmpty()) {
        deserializes(name, args, kw);
      }
    } else if (RUN_FILE.contains(name)) {
      int[] file = args.isEmpty() ? null
          : name.startsWith("runpy") ? args.get(0) : args.size() > 1 ? args.get(1) : kw.get("location");
      if (file != null) {
        runsFile(name, file);
      }
    } else if (EXEC.contains(name)) {
      executes(name, args, from, to);
    } else {
      return false;
    }
    return true;
  }

  private void executes(String name, List<int[]> args, int from, int to) {
    if (!args.isEmpty() && src.tok(args.get(0)[0]).kind() == TokenKind.STRING) {
      String program = values.literalOf(args.get(0));
      if (program != null) {
        block.python().accept(program);
        return;
      }
    }
    if (block.fetchesFromNetwork(from, to, 0)) {
      findings.add(Flag.high("run-downloaded", "executes code downloaded from the network (" + name + ")"));
      return;
    }
    if (!args.isEmpty() && block.readsDownloadedFile(args.get(0))) {
      findings.add(Flag.high("run-downloaded", "executes a file downloaded in the same block (" + name + ")"));
      return;
    }
    if (!args.isEmpty()) {
      findings.facts().computedCode(name + "(" + src.exprName(args.get(0)[0], args.get(0)[1]) + ")");
    }
  }

  /**
   * pickle.loads(data) and its kin: data from the network (directly, through names, or a file the block downloaded)
   * can run code as it loads. Local data, and yaml.load with a safe loader, are not judged.
   */
  private void deserializes(String name, List<int[]> args, Map<String, int[]> kw) {
    if (name.startsWith("yaml.load")) {
      int[] loader = args.size() > 1 ? args.get(1) : kw.get("Loader");
      if (loader == null || src.exprName(loader[0], loader[1]).contains("Safe")) {
        return;
      }
    }
    if (name.equals("numpy.load") && !(kw.containsKey("allow_pickle") && src.tok(kw.get("allow_pickle")[0]).is("True"))) {
      return;
    }
    int[] data = args.get(0);
    String literal = values.literalOf(data);
    if (block.fetchesFromNetwork(data[0], data[1], 0) || literal != null && (literal.startsWith("http://")
        || literal.startsWith("https://")) || block.readsDownloadedFile(data) || block.isDownloadedPath(data)) {
      findings.add(Flag.high("run-downloaded", "loads data from the network that can run code as it loads (" + name + ")"));
    }
  }

  /** runpy.run_path(f), spec_from_file_location(name, f): a downloaded file runs downloaded code; a written one is read. */
  private void runsFile(String name, int[] file) {
    if (block.isDownloadedPath(file)) {
      findings.add(Flag.high("run-downloaded", "runs a python file downloaded in the same block (" + name + ")"));
      return;
    }
    values.pathArg(file).ifPresent(w -> {
      String content = shell.writtenContent(w);
      if (content != null) {
        block.python().accept(content);
      }
    });
  }
}
