package io.interpreter4j.core.safety.python;

import io.interpreter4j.core.safety.code.Brackets;
import io.interpreter4j.core.safety.code.ExprName;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A python program as the python analyzer reads it: its tokens and lines' indentation, the names it imports
 * ({@code import os as o}, {@code from shutil import rmtree}, star imports) and what each name is assigned
 * ({@code x = ...}, {@code with ... as x}, {@code for a, b in ...}), with the structural look-ups the evaluator and
 * the call rules share: dotted names, brackets, receivers, call arguments.
 */
final class PythonSource {

  /** {@code name = expr} (element -1), or {@code for a, b in expr} (element = position of the name). */
  record Assignment(int at, int from, int to, int element) {}

  private final List<Tok> toks;
  private final int[] lineIndent;
  private final Map<String, String> aliases = new HashMap<>();
  private final List<String> starModules = new ArrayList<>();
  private final Map<String, List<Assignment>> assignments = new HashMap<>();

  /** Reads {@code python}, plain python with IPython's shell lines already blanked. */
  PythonSource(String python) {
    toks = PythonLexer.lex(python);
    lineIndent = PythonLexer.indents(python);
    imports();
    collectAssignments();
  }

  Tok tok(int k) {
    return toks.get(k);
  }

  int size() {
    return toks.size();
  }

  boolean statementStart(int k) {
    return k == 0 || toks.get(k - 1).kind() == TokenKind.NEWLINE || toks.get(k - 1).is(":");
  }

  private void imports() {
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.is("import") && statementStart(k)) {
        int j = k + 1;
        while (j < toks.size() && toks.get(j).kind() == TokenKind.NAME) {
          String dotted = dotted(j);
          j += dottedLength(dotted);
          if (j + 1 < toks.size() && toks.get(j).is("as")) {
            aliases.put(toks.get(j + 1).text(), dotted);
            j += 2;
          } else {
            String first = dotted.split("\\.")[0];
            aliases.putIfAbsent(first, first);
          }
          if (j < toks.size() && toks.get(j).is(",")) {
            j++;
          }
        }
      } else if (t.is("from") && statementStart(k)) {
        String module = dotted(k + 1);
        int j = k + 1 + Math.max(1, module.split("\\.").length * 2 - 1);
        if (j >= toks.size() || !toks.get(j).is("import")) {
          continue;
        }
        j++;
        while (j < toks.size() && toks.get(j).kind() != TokenKind.NEWLINE) {
          Tok name = toks.get(j);
          if (name.is("*")) {
            starModules.add(module);
          } else if (name.kind() == TokenKind.NAME) {
            if (j + 2 < toks.size() && toks.get(j + 1).is("as")) {
              aliases.put(toks.get(j + 2).text(), module + "." + name.text());
              j += 2;
            } else {
              aliases.put(name.text(), module + "." + name.text());
            }
          }
          j++;
        }
      }
    }
  }

  /** The dotted name starting at k ("os.path.join"), or "" if k is not a name. */
  String dotted(int k) {
    return dotted(k, toks.size());
  }

  /** The dotted name starting at k and ending before {@code limit}. */
  String dotted(int k, int limit) {
    if (k >= limit || toks.get(k).kind() != TokenKind.NAME) {
      return "";
    }
    if (k + 2 >= limit || !toks.get(k + 1).is(".")) {
      return toks.get(k).text();
    }
    StringBuilder sb = new StringBuilder(toks.get(k).text());
    int j = k + 1;
    while (j + 1 < limit && toks.get(j).is(".") && toks.get(j + 1).kind() == TokenKind.NAME) {
      sb.append('.').append(toks.get(j + 1).text());
      j += 2;
    }
    return sb.toString();
  }

  static int dottedLength(String dotted) {
    int dots = 0;
    for (int k = 0; k < dotted.length(); k++) {
      if (dotted.charAt(k) == '.') {
        dots++;
      }
    }
    return dots * 2 + 1;
  }

  String canonical(String dotted) {
    int dot = dotted.indexOf('.');
    String first = dot < 0 ? dotted : dotted.substring(0, dot);
    String rest = dot < 0 ? "" : dotted.substring(dot);
    String mapped = aliases.get(first);
    if (mapped != null) {
      return mapped + rest;
    }
    for (String m : starModules) {
      String candidate = m + "." + dotted;
      if (PythonApis.isStarImportedCall(candidate)) {
        return candidate;
      }
    }
    return dotted;
  }

  private void collectAssignments() {
    for (int k = 0; k + 2 < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.is("for") && statementStart(k)) {
        forLoop(k);
        continue;
      }
      if (t.kind() == TokenKind.NAME && statementStart(k) && toks.get(k + 1).is("=")) {
        int end = endOfStatement(k + 2);
        assignments.computeIfAbsent(t.text(), x -> new ArrayList<>()).add(new Assignment(k, k + 2, end, -1));
      } else if (t.is("as") && k + 2 < toks.size() && toks.get(k + 1).kind() == TokenKind.NAME && toks.get(k + 2).is(":")) {
        // with EXPR as NAME: binds NAME to EXPR, close enough for paths and files
        int start = k - 1;
        int depthCount = 0;
        while (start > 0) {
          Tok p = toks.get(start);
          if (p.is(")") || p.is("]")) {
            depthCount++;
          } else if (p.is("(") || p.is("[")) {
            depthCount--;
          }
          if (depthCount == 0 && (toks.get(start - 1).is("with") || toks.get(start - 1).is(","))) {
            break;
          }
          start--;
        }
        assignments.computeIfAbsent(toks.get(k + 1).text(), x -> new ArrayList<>()).add(new Assignment(k, start, k, -1));
      }
    }
  }

  /** {@code for root, dirs, files in os.walk(X):} binds each name to an element of the iterated value. */
  private void forLoop(int k) {
    int in = k + 1;
    List<String> names = new ArrayList<>();
    while (in < toks.size() && !toks.get(in).is("in") && toks.get(in).kind() != TokenKind.NEWLINE) {
      if (toks.get(in).kind() == TokenKind.NAME) {
        names.add(toks.get(in).text());
      }
      in++;
    }
    if (in >= toks.size() || !toks.get(in).is("in")) {
      return;
    }
    int colon = in + 1;
    int d = 0;
    while (colon < toks.size() && toks.get(colon).kind() != TokenKind.NEWLINE) {
      Tok t = toks.get(colon);
      if (t.is("(") || t.is("[") || t.is("{")) {
        d++;
      } else if (t.is(")") || t.is("]") || t.is("}")) {
        d--;
      } else if (d == 0 && t.is(":")) {
        break;
      }
      colon++;
    }
    for (int i = 0; i < names.size(); i++) {
      assignments.computeIfAbsent(names.get(i), x -> new ArrayList<>()).add(new Assignment(k, in + 1, colon, i));
    }
  }

  int endOfStatement(int from) {
    int j = from;
    while (j < toks.size() && toks.get(j).kind() != TokenKind.NEWLINE) {
      j++;
    }
    return j;
  }

  Assignment assignmentBefore(String name, int at) {
    List<Assignment> list = assignments.get(name);
    if (list == null) {
      return null;
    }
    Assignment best = null;
    for (Assignment a : list) {
      if (a.at() < at) {
        best = a;
      }
    }
    return best;
  }

  /** Whether tokens [from, dot) are a module path like {@code os} or {@code os.path}: its functions are calls, not methods. */
  boolean isModuleName(int from, int dot) {
    for (int j = from; j < dot; j++) {
      Tok t = toks.get(j);
      if (!(t.kind() == TokenKind.NAME || t.is("."))) {
        return false;
      }
    }
    String first = toks.get(from).text();
    return aliases.containsKey(first) && !assignments.containsKey(first) || PythonApis.WELL_KNOWN_MODULES.contains(first);
  }


  /** Index of the bracket closing the one at {@code open}. */
  int matching(int open) {
    return Brackets.matching(toks, open);
  }

  int matchingBackwards(int close) {
    return Brackets.matchingBack(toks, close);
  }

  /** The first token of the expression a {@code .method} is called on. */
  int receiverStart(int dot) {
    int j = dot - 1;
    while (j >= 0) {
      Tok t = toks.get(j);
      if (t.is(")") || t.is("]")) {
        j = matchingBackwards(j);
        if (j > 0 && toks.get(j - 1).kind() == TokenKind.NAME) {
          j--;
        } else {
          return j;
        }
      } else if (t.kind() != TokenKind.NAME && t.kind() != TokenKind.STRING) {
        return j + 1;
      }
      if (j > 0 && toks.get(j - 1).is(".")) {
        j -= 2;
      } else {
        return j;
      }
    }
    return 0;
  }


  /** Positional arguments (token ranges) and keyword arguments of a call whose arguments span [from, to). */
  List<int[]> arguments(int from, int to, Map<String, int[]> keywords) {
    List<int[]> out = new ArrayList<>();
    for (int[] piece : Brackets.pieces(toks, from, to)) {
      int start = piece[0];
      int j = piece[1];
      if (j - start >= 2 && toks.get(start).kind() == TokenKind.NAME && toks.get(start + 1).is("=")) {
        keywords.put(toks.get(start).text(), new int[] {start + 2, j});
      } else if (!toks.get(start).is("*") && !toks.get(start).is("**")) {
        out.add(new int[] {start, j});
      }
    }
    return out;
  }

  /** A short name for an expression, built of its names: what an unknown value is called. */
  String exprName(int from, int to) {
    return ExprName.of(toks, from, to, false);
  }


  int indentOf(int line) {
    return line < lineIndent.length ? lineIndent[line] : 0;
  }
}
