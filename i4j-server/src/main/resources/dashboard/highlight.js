/*
 * interpreter4j dashboard: a small, dependency-free syntax highlighter.
 *
 * highlight(code, language) returns HTML in which every piece of the input is escaped; the only markup
 * added is <span class="hl-…">. Python and bash get real scanners (keywords, strings, comments, numbers,
 * variables, flags); JavaScript/Java/JSON-like languages a C-style one; anything else is just escaped.
 * One pass, linear time, no backtracking regexes on the whole input.
 */
const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ESC[c]);
}

const ALIASES = {
  py: 'python', python: 'python', python3: 'python', py3: 'python', ipython: 'python',
  sh: 'bash', bash: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', shellscript: 'bash', ksh: 'bash',
  js: 'clike', javascript: 'clike', mjs: 'clike', cjs: 'clike', node: 'clike', ts: 'clike',
  typescript: 'clike', java: 'clike', kotlin: 'clike', c: 'clike', cpp: 'clike', 'c++': 'clike',
  go: 'clike', rust: 'clike', json: 'clike', jsonc: 'clike', csharp: 'clike', cs: 'clike',
};

/** The highlighter family for a fence info string / language name, or null. */
export function family(language) {
  if (!language) return null;
  const key = String(language).trim().toLowerCase().split(/[\s{]/)[0];
  return ALIASES[key] || null;
}

function words(s) {
  return new Set(s.split(/\s+/).filter(Boolean));
}

function span(cls, text) {
  return '<span class="hl-' + cls + '">' + escapeHtml(text) + '</span>';
}

const IDENT_CHAR = /[\w\u00C0-\uFFFF]/;

// ---------------------------------------------------------------- python

const PY_KEYWORDS = words(`and as assert async await break class continue def del elif else except finally
  for from global if import in is lambda nonlocal not or pass raise return try while with yield match case`);
const PY_CONST = words('True False None Ellipsis NotImplemented self cls __name__ __file__');
const PY_BUILTINS = words(`abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod
  compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals
  hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next
  object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str
  sum super tuple type vars zip Exception ValueError TypeError KeyError IndexError RuntimeError OSError
  FileNotFoundError ImportError ModuleNotFoundError AttributeError StopIteration KeyboardInterrupt`);

const PY_STRING_START = /[rRbBuUfF]{0,2}("""|'''|"|')/y;
const PY_NUMBER = /(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?[jJ]?)/y;
const IDENT = /[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*/y;

/** End index (exclusive) of a string whose body starts at i and is closed by quote. */
function scanQuoted(src, i, quote, multiline) {
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === '\\') { i += 2; continue; }
    if (src.startsWith(quote, i)) return i + quote.length;
    if (c === '\n' && !multiline) return i;
    i++;
  }
  return n;
}

function hlPython(src) {
  let out = '';
  let plain = '';
  let i = 0;
  let prevWord = '';
  const n = src.length;
  const flush = () => { if (plain) { out += escapeHtml(plain); plain = ''; } };
  while (i < n) {
    const c = src[i];
    if (c === '#') {
      let end = src.indexOf('\n', i);
      if (end < 0) end = n;
      flush(); out += span('com', src.slice(i, end)); i = end; continue;
    }
    const prevIsIdent = i > 0 && IDENT_CHAR.test(src[i - 1]);
    if (!prevIsIdent && (c === '"' || c === "'" || /[rRbBuUfF]/.test(c))) {
      PY_STRING_START.lastIndex = i;
      const m = PY_STRING_START.exec(src);
      if (m) {
        const quote = m[1];
        const end = scanQuoted(src, i + m[0].length, quote, quote.length === 3);
        flush(); out += span('str', src.slice(i, end)); i = end; prevWord = ''; continue;
      }
    }
    if (!prevIsIdent && (/\d/.test(c) || (c === '.' && /\d/.test(src[i + 1] || '')))) {
      PY_NUMBER.lastIndex = i;
      const m = PY_NUMBER.exec(src);
      if (m && m[0]) { flush(); out += span('num', m[0]); i += m[0].length; continue; }
    }
    if (c === '@' && /(^|\n)[ \t]*$/.test(src.slice(Math.max(0, i - 200), i))) {
      IDENT.lastIndex = i + 1;
      const m = IDENT.exec(src);
      if (m) { flush(); out += span('dec', '@' + m[0]); i += 1 + m[0].length; continue; }
    }
    if (!prevIsIdent && /[A-Za-z_\u00C0-\uFFFF]/.test(c)) {
      IDENT.lastIndex = i;
      const m = IDENT.exec(src);
      const w = m[0];
      flush();
      if (prevWord === 'def' || prevWord === 'class') out += span('fn', w);
      else if (PY_KEYWORDS.has(w)) out += span('kw', w);
      else if (PY_CONST.has(w)) out += span('const', w);
      else if (PY_BUILTINS.has(w) && src[i - 1] !== '.') out += span('builtin', w);
      else out += escapeHtml(w);
      prevWord = w; i += w.length; continue;
    }
    if (!/\s/.test(c)) prevWord = '';
    plain += c; i++;
  }
  flush();
  return out;
}

// ---------------------------------------------------------------- bash

const SH_KEYWORDS = words(`if then else elif fi for while until do done case esac in function select
  return local export declare readonly unset exit break continue time shift trap set source eval exec`);
const SH_BUILTINS = words(`echo printf cd pwd ls cat grep egrep sed awk cut sort uniq head tail wc tr tee
  find xargs mkdir rmdir rm cp mv ln touch chmod chown chgrp test true false read sleep kill ps env which
  curl wget tar gzip gunzip zip unzip git python python3 pip pip3 node npm java mvn make sudo apt apt-get
  docker ssh scp rsync date du df free uname whoami basename dirname realpath mktemp diff patch jq`);

function scanShVar(src, i) {
  // src[i] === '$'; returns end index or -1
  const next = src[i + 1];
  if (next === '{') {
    const end = src.indexOf('}', i + 2);
    return end < 0 ? src.length : end + 1;
  }
  if (next !== undefined && /[@?#$!*\-0-9]/.test(next)) return i + 2;
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i + 1, i + 200));
  return m ? i + 1 + m[0].length : -1;
}

function hlBash(src) {
  let out = '';
  let plain = '';
  let i = 0;
  const n = src.length;
  let commandPos = true; // at the start of a command: the next word is a command name
  const flush = () => { if (plain) { out += escapeHtml(plain); plain = ''; } };
  while (i < n) {
    const c = src[i];
    const prev = i > 0 ? src[i - 1] : '\n';
    if (c === '#' && /[\s;|&(]/.test(prev)) {
      let end = src.indexOf('\n', i);
      if (end < 0) end = n;
      flush(); out += span('com', src.slice(i, end)); i = end; continue;
    }
    if (c === "'") {
      let end = src.indexOf("'", i + 1);
      end = end < 0 ? n : end + 1;
      flush(); out += span('str', src.slice(i, end)); i = end; commandPos = false; continue;
    }
    if (c === '"') {
      const end = scanQuoted(src, i + 1, '"', true);
      const body = src.slice(i, end);
      flush();
      // variables inside double quotes
      let inner = '';
      let j = 0;
      let lit = '';
      while (j < body.length) {
        if (body[j] === '\\') { lit += body.slice(j, j + 2); j += 2; continue; }
        if (body[j] === '$') {
          const e = scanShVar(body, j);
          if (e > 0) { inner += escapeHtml(lit) + span('var', body.slice(j, e)); lit = ''; j = e; continue; }
        }
        lit += body[j]; j++;
      }
      inner += escapeHtml(lit);
      out += '<span class="hl-str">' + inner + '</span>';
      i = end; commandPos = false; continue;
    }
    if (c === '$') {
      const e = scanShVar(src, i);
      if (e > 0) { flush(); out += span('var', src.slice(i, e)); i = e; commandPos = false; continue; }
    }
    if (c === '-' && /[\s=]/.test(prev) && /[A-Za-z-]/.test(src[i + 1] || '')) {
      const m = /^--?[A-Za-z0-9][\w-]*/.exec(src.slice(i, i + 200));
      if (m) { flush(); out += span('attr', m[0]); i += m[0].length; commandPos = false; continue; }
    }
    if (/\d/.test(c) && !/[\w.\-/]/.test(prev)) {
      const m = /^\d+(?:\.\d+)?(?![\w.\-/])/.exec(src.slice(i, i + 100));
      if (m) { flush(); out += span('num', m[0]); i += m[0].length; commandPos = false; continue; }
    }
    if (/[A-Za-z_]/.test(c) && !/[\w\-./]/.test(prev)) {
      const m = /^[A-Za-z_][\w\-.]*/.exec(src.slice(i, i + 200));
      const w = m[0];
      flush();
      if (src[i + w.length] === '=' && /^[A-Za-z_]\w*$/.test(w)) {
        out += span('var', w);
      } else if (SH_KEYWORDS.has(w)) {
        out += span('kw', w);
        commandPos = !['in', 'function', 'export', 'local', 'declare', 'readonly', 'unset'].includes(w);
        i += w.length; continue;
      } else if (commandPos && SH_BUILTINS.has(w)) {
        out += span('builtin', w);
      } else {
        out += escapeHtml(w);
      }
      i += w.length; commandPos = false; continue;
    }
    if (c === '\n' || c === ';' || c === '|' || c === '&' || c === '(' || c === '`' || c === '{') commandPos = true;
    else if (!/\s/.test(c)) commandPos = false;
    plain += c; i++;
  }
  flush();
  return out;
}

// ---------------------------------------------------------------- C-like (js, java, json, …)

const C_KEYWORDS = words(`abstract async await break case catch class const continue debugger default delete do
  else enum export extends final finally for from function if implements import in instanceof interface let new
  of package private protected public return static super switch this throw throws try typeof var void while
  with yield record sealed permits fn func go defer struct impl pub mut use mod match loop type`);
const C_CONST = words('true false null undefined NaN Infinity nil None');

function hlClike(src) {
  let out = '';
  let plain = '';
  let i = 0;
  const n = src.length;
  const flush = () => { if (plain) { out += escapeHtml(plain); plain = ''; } };
  while (i < n) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') {
      let end = src.indexOf('\n', i);
      if (end < 0) end = n;
      flush(); out += span('com', src.slice(i, end)); i = end; continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      let end = src.indexOf('*/', i + 2);
      end = end < 0 ? n : end + 2;
      flush(); out += span('com', src.slice(i, end)); i = end; continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const end = scanQuoted(src, i + 1, c, c === '`');
      flush(); out += span('str', src.slice(i, end)); i = end; continue;
    }
    const prevIsIdent = i > 0 && IDENT_CHAR.test(src[i - 1]);
    if (!prevIsIdent && /\d/.test(c)) {
      const m = /^(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?[lLfFdDn]?)/.exec(src.slice(i, i + 100));
      if (m) { flush(); out += span('num', m[0]); i += m[0].length; continue; }
    }
    if (!prevIsIdent && /[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i, i + 200));
      const w = m[0];
      flush();
      if (C_KEYWORDS.has(w)) out += span('kw', w);
      else if (C_CONST.has(w)) out += span('const', w);
      else out += escapeHtml(w);
      i += w.length; continue;
    }
    plain += c; i++;
  }
  flush();
  return out;
}

const HIGHLIGHTERS = { python: hlPython, bash: hlBash, clike: hlClike };

/** Escaped, highlighted HTML for code; plain escaped HTML when the language is unknown. */
export function highlight(code, language) {
  const fn = HIGHLIGHTERS[family(language)];
  const text = String(code == null ? '' : code);
  if (!fn) return escapeHtml(text);
  try {
    return fn(text);
  } catch (e) {
    return escapeHtml(text);
  }
}
