package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.code.ValueParts.activeGlobs;
import static io.interpreter4j.core.safety.code.ValueParts.glob;
import static io.interpreter4j.core.safety.code.ValueParts.text;

import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import io.interpreter4j.core.safety.python.PythonSource.Assignment;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a python loop variable stands for when the loop walks a folder ({@code os.walk}, {@code iterdir}, globs). */
final class PythonLoops {

  private final PythonSource src;
  private final PythonValues values;

  PythonLoops(PythonSource src, PythonValues values) {
    this.src = src;
    this.values = values;
  }


  /**
   * What a loop variable stands for when the loop walks a directory: the directory itself (os.walk's root) or
   * "any entry" as an active glob, so deleting each element is judged like {@code rm DIR/*}.
   */
  List<Part> element(Assignment a) {
    int from = a.from();
    int to = a.to();
    if (from >= to) {
      return null;
    }
    if (to - from == 1 && src.tok(from).kind() == TokenKind.NAME) {
      return values.nameValue(src.tok(from).text(), src.tok(from).text(), from);
    }
    Tok last = src.tok(to - 1);
    if (!last.is(")")) {
      return null;
    }
    int open = src.matchingBackwards(to - 1);
    if (open >= 2 && src.tok(open - 1).kind() == TokenKind.NAME && src.tok(open - 2).is(".")) {
      String method = src.tok(open - 1).text();
      int dot = open - 2;
      if (src.isModuleName(src.receiverStart(dot), dot) && src.receiverStart(dot) == from) {
        return directoryListing(src.canonical(src.dotted(from)), a.element(), open + 1, to - 1);
      }
      List<Part> receiver = values.evalString(from, dot);
      if (receiver == null) {
        return null;
      }
      Map<String, int[]> kw = new HashMap<>();
      List<int[]> args = src.arguments(open + 1, to - 1, kw);
      List<Part> out = new ArrayList<>(receiver);
      switch (method) {
        case "iterdir", "scandir" -> ValueParts.join(out, List.of(glob("*")), false);
        case "glob", "rglob" -> {
          List<Part> pattern = args.isEmpty() ? null : values.evalString(args.get(0)[0], args.get(0)[1]);
          ValueParts.join(out, pattern == null ? List.of(glob("*")) : activeGlobs(pattern), false);
        }
        default -> {
          return null;
        }
      }
      return out;
    }
    if (src.tok(from).kind() == TokenKind.NAME && src.tok(from + PythonSource.dottedLength(src.dotted(from))).is("(")) {
      return directoryListing(src.canonical(src.dotted(from)), a.element(), from + PythonSource.dottedLength(src.dotted(from)) + 1, to - 1);
    }
    return null;
  }

  private List<Part> directoryListing(String call, int element, int argsFrom, int argsTo) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(argsFrom, argsTo, kw);
    List<Part> dir = args.isEmpty() ? List.of(text(".")) : values.evalString(args.get(0)[0], args.get(0)[1]);
    if (dir == null) {
      return null;
    }
    switch (call) {
      case "os.walk":
        return element == 0 ? dir : List.of(glob("*"));
      case "os.listdir":
        return List.of(glob("*"));
      case "os.scandir": {
        List<Part> out = new ArrayList<>(dir);
        ValueParts.join(out, List.of(glob("*")), false);
        return out;
      }
      case "glob.glob", "glob.iglob":
        return activeGlobs(dir);
      case "sorted", "list", "reversed", "set", "tuple":
        return args.isEmpty() ? null : values.evalString(args.get(0)[0], args.get(0)[1]);
      default:
        return null;
    }
  }
}
