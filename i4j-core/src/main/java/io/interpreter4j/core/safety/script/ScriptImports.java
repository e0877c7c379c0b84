package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;

/**
 * The names a JavaScript block imports: {@code const fs = require('fs')}, {@code const { execSync } =
 * require('child_process')}, {@code import * as cp from 'child_process'}, each an alias of the module or function.
 */
final class ScriptImports {

  private final ScriptSource src;

  ScriptImports(ScriptSource src) {
    this.src = src;
  }

  /** require('fs'), import x from 'fs', const { execSync } = require('child_process'). */
  void collect() {
    if (src.dialect != Dialect.JAVASCRIPT) {
      return;
    }
    for (int k = 0; k < src.size(); k++) {
      Tok t = src.tok(k);
      if (t.is("require") && k + 3 < src.size() && src.tok(k + 1).is("(") && src.tok(k + 2).kind() == TokenKind.STRING
          && src.tok(k + 3).is(")")) {
        String module = ScriptSource.module(src.tok(k + 2).text());
        bindRequire(k, module);
      } else if (t.is("import") && (k == 0 || src.tok(k - 1).kind() == TokenKind.NEWLINE)) {
        int from = k + 1;
        while (from < src.size() && !src.tok(from).is("from") && src.tok(from).kind() != TokenKind.NEWLINE) {
          from++;
        }
        if (from + 1 < src.size() && src.tok(from).is("from") && src.tok(from + 1).kind() == TokenKind.STRING) {
          String module = ScriptSource.module(src.tok(from + 1).text());
          importNames(k + 1, from, module);
        }
      }
    }
  }


  /** {@code x = require('m')}, {@code const { a, b: c } = require('m')}, {@code require('m').x}. */
  private void bindRequire(int k, String module) {
    int eq = k - 1;
    String target = module;
    if (k + 5 < src.size() && src.isSeparator(src.tok(k + 4)) && src.tok(k + 5).kind() == TokenKind.NAME) {
      // const exec = require('child_process').exec
      target = module + "." + src.dotted(k + 5);
    }
    if (eq >= 1 && src.tok(eq).is("=")) {
      Tok before = src.tok(eq - 1);
      if (before.kind() == TokenKind.NAME) {
        src.alias(before.text(), target);
      } else if (before.is("}")) {
        int brace = eq - 1;
        while (brace > 0 && !src.tok(brace).is("{")) {
          brace--;
        }
        destructure(brace + 1, eq - 1, module);
      }
    }
  }

  private void destructure(int from, int to, String module) {
    for (int j = from; j < to; j++) {
      Tok t = src.tok(j);
      if (t.kind() != TokenKind.NAME) {
        continue;
      }
      if (j + 2 < to && src.tok(j + 1).is(":") && src.tok(j + 2).kind() == TokenKind.NAME) {
        src.alias(src.tok(j + 2).text(), module + "." + t.text());
        j += 2;
      } else {
        src.alias(t.text(), module + "." + t.text());
      }
    }
  }

  private void importNames(int from, int to, String module) {
    for (int j = from; j < to; j++) {
      Tok t = src.tok(j);
      if (t.is("*") && j + 2 < to && src.tok(j + 1).is("as")) {
        src.alias(src.tok(j + 2).text(), module);
        j += 2;
      } else if (t.is("{")) {
        int close = j;
        while (close < to && !src.tok(close).is("}")) {
          close++;
        }
        for (int m = j + 1; m < close; m++) {
          Tok n = src.tok(m);
          if (n.kind() != TokenKind.NAME) {
            continue;
          }
          if (m + 2 < close && src.tok(m + 1).is("as")) {
            src.alias(src.tok(m + 2).text(), module + "." + n.text());
            m += 2;
          } else {
            src.alias(n.text(), module + "." + n.text());
          }
        }
        j = close;
      } else if (t.kind() == TokenKind.NAME && !t.is("type")) {
        src.alias(t.text(), module);
      }
    }
  }
}
