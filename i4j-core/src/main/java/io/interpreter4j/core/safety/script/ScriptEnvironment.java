package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import java.util.Set;

/**
 * How a JavaScript, Ruby or R block reads its environment ({@code process.env}, {@code ENV}, {@code Sys.getenv}):
 * a secret-named variable is noted; the whole environment handed on (logged, sent, serialised) is a dump.
 */
final class ScriptEnvironment {

  private final ScriptSource src;
  private final Findings findings;
  private final Dialect dialect;

  ScriptEnvironment(ScriptSource src, Findings findings) {
    this.src = src;
    this.findings = findings;
    this.dialect = src.dialect;
  }

  private static final Set<String> ENV_DUMPS = Set.of(
      "each", "to_h", "to_a", "map", "inspect", "select", "reject", "each_pair", "sort", "filter_map", "values",
      "each_with_object", "to_hash", "dup", "clone", "entries", "assign", "stringify");

  /** Reading the environment: a secret-named variable is noted; the whole environment handed on is a dump. */
  void read(String name, String dotted, int k, int after) {
    Tok next = after < src.size() ? src.tok(after) : null;
    String whole = dialect == Dialect.JAVASCRIPT ? "process.env" : dialect == Dialect.RUBY ? "ENV" : null;
    if (whole != null && name.equals(whole)) {
      if (next != null && next.is("[") && after + 1 < src.size() && src.tok(after + 1).kind() == TokenKind.STRING) {
        secretName(src.tok(after + 1).text());
      } else if (isWholeValue(k, next)) {
        findings.environmentRead();
      }
    } else if (whole != null && name.startsWith(whole + ".")) {
      String member = name.substring(whole.length() + 1);
      int dot = member.indexOf('.');
      member = dot < 0 ? member : member.substring(0, dot);
      if (ENV_DUMPS.contains(member)) {
        findings.environmentRead();
      } else if (member.equals("fetch") && next != null && next.is("(") && after + 1 < src.size()
          && src.tok(after + 1).kind() == TokenKind.STRING) {
        secretName(src.tok(after + 1).text());
      } else {
        secretName(member);
      }
    } else if (dialect == Dialect.JAVASCRIPT && (name.equals("Object.entries")
        || name.equals("JSON.stringify") || name.equals("Object.values")) && next != null && next.is("(")
        && after + 2 < src.size() && src.canonical(src.dotted(after + 1)).equals("process.env")) {
      findings.environmentRead();
    }
    if (dialect == Dialect.R && (name.equals("Sys.getenv") || name.equals("base.Sys.getenv")) && next != null
        && next.is("(") && after + 1 < src.size()) {
      if (src.tok(after + 1).is(")")) {
        findings.environmentRead();
      } else if (src.tok(after + 1).kind() == TokenKind.STRING) {
        secretName(src.tok(after + 1).text());
      }
    }
  }

  /** process.env or ENV handed over whole (logged, sent, serialised), not spread into a child's environment. */
  private boolean isWholeValue(int k, Tok next) {
    if (k > 0 && src.tok(k - 1).is("...")) {
      return false;
    }
    if (next != null && (next.is(".") || next.is("[") || next.is("?."))) {
      return false;
    }
    int o = src.open(k);
    while (o >= 0) {
      if (src.tok(o).is("(") && o > 0 && src.tok(o - 1).kind() == TokenKind.NAME) {
        Api a = src.api(src.canonical(src.dotted(src.nameStart(o - 1))));
        if (a != null && (a.kind() == Kind.ARGV || a.kind() == Kind.SHELL || a.kind() == Kind.SPAWN)) {
          return false;
        }
        if (o >= 2 && src.isSeparator(src.tok(o - 2)) && (src.tok(o - 1).is("env") || src.tok(o - 1).is("keys"))) {
          return false;
        }
      }
      o = src.open(o);
    }
    return true;
  }

  private void secretName(String name) {
    if (SecretNames.isSecret(name)) {
      findings.facts().secretVariable(name);
    }
  }
}
