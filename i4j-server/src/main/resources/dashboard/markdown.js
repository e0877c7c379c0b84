/*
 * interpreter4j dashboard: a small, safe markdown renderer for untrusted model output.
 *
 * renderMarkdown(text, options) returns an HTML string. Safety rule: every character of the input reaches the
 * output only through escapeHtml(); the renderer adds nothing but its own fixed tags. Links are emitted only for
 * http(s) URLs, with target=_blank and rel="noopener noreferrer".
 *
 * Supported: ATX headings, paragraphs (single newlines become <br>), **bold**, *italic*, _italic_, ~~strike~~,
 * `code`, [links](https://…), bare https:// URLs, ordered/unordered (nested) lists, fenced code (``` and ~~~,
 * unclosed fences run to the end, as happens while streaming), blockquotes, horizontal rules, GFM tables.
 *
 * options.codeHook(language, code, index, closed) may return HTML to use instead of a fenced code block (the
 * dashboard puts its live code-block cards there); returning null keeps the default highlighted <pre>.
 */
import { escapeHtml, highlight } from './highlight.js';

const MAX_DEPTH = 6;

const RE = {
  fenceOpen: /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/,
  heading: /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/,
  hr: /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/,
  quote: /^ {0,3}> ?(.*)$/,
  listItem: /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|$)/,
  tableSep: /^ *\|? *:?-{1,}:? *(?:\| *:?-{1,}:? *)*\|? *$/,
  blank: /^[ \t]*$/,
};

function isBlank(line) {
  return RE.blank.test(line);
}

function expandTabs(line) {
  return line.indexOf('\t') < 0 ? line : line.replace(/\t/g, '    ');
}

function indentOf(line) {
  const m = /^ */.exec(line);
  return m[0].length;
}

// ------------------------------------------------------------------ inline

function safeUrl(url) {
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

function link(url, textHtml) {
  return '<a href="' + escapeHtml(url) + '" target="_blank" rel="noopener noreferrer">' + textHtml + '</a>';
}

function trimUrlTail(url) {
  // Trailing punctuation is almost never part of a URL in prose; keep balanced parentheses.
  let u = url;
  for (;;) {
    const last = u[u.length - 1];
    if (/[.,;:!?'"*_]/.test(last)) { u = u.slice(0, -1); continue; }
    if (last === ')' && (u.match(/\(/g) || []).length < (u.match(/\)/g) || []).length) { u = u.slice(0, -1); continue; }
    break;
  }
  return u;
}

function emphasis(escaped) {
  return escaped
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1<strong>$2</strong>')
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?!\*)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?=[^\s_])([^_\n]*?[^\s_])_(?!\w)/g, '$1<em>$2</em>')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
}

/**
 * Inline markdown of raw (unescaped) text. Code spans and links are cut out first and replaced by
 * placeholders, the rest is escaped and given emphasis, then the placeholders are put back.
 */
function inline(raw, depth) {
  const held = [];
  const hold = (html) => '\u0001' + (held.push(html) - 1) + '\u0002';
  let text = String(raw).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

  // code spans
  text = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (m, ticks, body) => {
    let code = body.replace(/\n/g, ' ');
    if (/^ .* $/.test(code) && code.trim()) code = code.slice(1, -1);
    return hold('<code>' + escapeHtml(code) + '</code>');
  });
  // [text](url "title")
  text = text.replace(/\[([^\]\n]{1,500})\]\(\s*<?([^\s()<>]+(?:\([^\s()<>]*\)[^\s()<>]*)*)>?(?:\s+"[^"\n]*")?\s*\)/g,
    (m, label, url) => {
      const ok = safeUrl(url);
      const labelHtml = depth > MAX_DEPTH ? escapeHtml(label) : inline(label, depth + 1);
      return ok ? hold(link(ok, labelHtml)) : hold(labelHtml + escapeHtml(' (' + url + ')'));
    });
  // <https://autolink>
  text = text.replace(/<(https?:\/\/[^\s<>]+)>/gi, (m, url) => hold(link(url, escapeHtml(url))));
  // bare URLs
  text = text.replace(/\bhttps?:\/\/[^\s<>\u0001\u0002]+/gi, (m) => {
    const url = trimUrlTail(m);
    return hold(link(url, escapeHtml(url))) + m.slice(url.length);
  });
  // hard line breaks (two trailing spaces or backslash) and soft ones: both become <br> in a chat transcript
  let html = emphasis(escapeHtml(text)).replace(/(?: {2,}|\\)?\n/g, '<br>');
  // put back held pieces (they may nest: a link label can hold code spans of an inner call, already resolved)
  html = html.replace(/\u0001(\d+)\u0002/g, (m, i) => held[Number(i)]);
  return html;
}

// ------------------------------------------------------------------ blocks

function defaultCode(language, code) {
  const lang = language ? '<div class="md-code-lang">' + escapeHtml(language) + '</div>' : '';
  return '<div class="md-code">' + lang + '<button type="button" class="copy-btn" title="Copy code">Copy</button>'
    + '<pre><code class="hl">' + highlight(code, language) + '</code></pre></div>';
}

function splitRow(line) {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells = [];
  let cur = '';
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && s[i + 1] === '|') { cur += '|'; i++; continue; }
    if (c === '`') inCode = !inCode;
    if (c === '|' && !inCode) { cells.push(cur.trim()); cur = ''; continue; }
    cur += c;
  }
  cells.push(cur.trim());
  return cells;
}

class Renderer {
  constructor(options) {
    this.codeHook = options && options.codeHook;
    this.fenceIndex = 0;
  }

  startsBlock(line) {
    return RE.fenceOpen.test(line) || RE.heading.test(line) || RE.hr.test(line) || RE.quote.test(line)
      || RE.listItem.test(line);
  }

  code(language, code, closed) {
    const index = this.fenceIndex++;
    if (this.codeHook) {
      const custom = this.codeHook(language, code, index, closed);
      if (custom != null) return custom;
    }
    return defaultCode(language, code);
  }

  /** Renders lines [from, to) as blocks. */
  blocks(lines, depth) {
    const out = [];
    let i = 0;
    const n = lines.length;
    let para = [];
    const endPara = () => {
      if (para.length) {
        out.push('<p>' + inline(para.join('\n'), 0) + '</p>');
        para = [];
      }
    };

    while (i < n) {
      const line = lines[i];

      if (isBlank(line)) { endPara(); i++; continue; }

      // fenced code
      let m = RE.fenceOpen.exec(line);
      if (m) {
        endPara();
        const indent = m[1].length;
        const fence = m[2];
        const info = m[3] || '';
        const body = [];
        let closed = false;
        i++;
        while (i < n) {
          const l = lines[i];
          const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
          if (close && close[1][0] === fence[0] && close[1].length >= fence.length) { closed = true; i++; break; }
          body.push(indent ? l.replace(new RegExp('^ {0,' + indent + '}'), '') : l);
          i++;
        }
        out.push(this.code(info, body.join('\n'), closed));
        continue;
      }

      // heading
      m = RE.heading.exec(line);
      if (m) {
        endPara();
        const level = m[1].length;
        out.push('<h' + level + '>' + inline(m[2] || '', 0) + '</h' + level + '>');
        i++;
        continue;
      }

      // horizontal rule (before lists: "- - -" and "***" are rules)
      if (RE.hr.test(line)) { endPara(); out.push('<hr>'); i++; continue; }

      // blockquote
      if (RE.quote.test(line)) {
        endPara();
        const inner = [];
        while (i < n && !isBlank(lines[i])) {
          const q = RE.quote.exec(lines[i]);
          if (q) inner.push(q[1]);
          else if (!this.startsBlock(lines[i])) inner.push(lines[i]); // lazy continuation
          else break;
          i++;
        }
        out.push('<blockquote>' + (depth < MAX_DEPTH ? this.blocks(inner, depth + 1) : escapeHtml(inner.join('\n')))
          + '</blockquote>');
        continue;
      }

      // list
      if (RE.listItem.test(line)) {
        endPara();
        i = this.list(lines, i, depth, out);
        continue;
      }

      // table: a header row followed by a separator row
      if (line.indexOf('|') >= 0 && i + 1 < n && RE.tableSep.test(lines[i + 1]) && lines[i + 1].indexOf('-') >= 0) {
        const head = splitRow(line);
        const aligns = splitRow(lines[i + 1]).map((c) => {
          const l = c.startsWith(':');
          const r = c.endsWith(':');
          return l && r ? 'center' : r ? 'right' : l ? 'left' : '';
        });
        if (aligns.length === head.length && head.length > 1) {
          endPara();
          i += 2;
          const rows = [];
          while (i < n && !isBlank(lines[i]) && lines[i].indexOf('|') >= 0) { rows.push(splitRow(lines[i])); i++; }
          const cell = (tag, text, k) => '<' + tag + (aligns[k] ? ' class="al-' + aligns[k] + '"' : '') + '>'
            + inline(text || '', 0) + '</' + tag + '>';
          let t = '<div class="md-table"><table><thead><tr>' + head.map((c, k) => cell('th', c, k)).join('') + '</tr></thead><tbody>';
          for (const r of rows) t += '<tr>' + head.map((_, k) => cell('td', r[k], k)).join('') + '</tr>';
          out.push(t + '</tbody></table></div>');
          continue;
        }
      }

      // paragraph text (a block starter ends the paragraph)
      if (para.length && this.startsBlock(line)) { endPara(); continue; }
      para.push(line.replace(/^ {0,3}/, ''));
      i++;
    }
    endPara();
    return out.join('');
  }

  /** Parses a list starting at line i; pushes its HTML to out; returns the index after it. */
  list(lines, i, depth, out) {
    const n = lines.length;
    const first = RE.listItem.exec(lines[i]);
    const base = first[1].length;
    const ordered = /\d/.test(first[2]);
    const start = ordered ? parseInt(first[2], 10) : 1;
    const items = [];
    let loose = false;
    let cur = null;
    let sawBlank = false;

    while (i < n) {
      const line = lines[i];
      if (isBlank(line)) { sawBlank = true; if (cur) cur.lines.push(''); i++; continue; }
      const m = RE.listItem.exec(line);
      const ind = indentOf(line);
      if (m && ind <= base + 1 && /\d/.test(m[2]) === ordered) {
        // a sibling item
        if (sawBlank && cur) loose = true;
        const contentOffset = m[1].length + m[2].length + 1;
        cur = { lines: [m[3] || ''], offset: Math.min(contentOffset, base + 4) };
        items.push(cur);
        sawBlank = false;
        i++;
        continue;
      }
      if (m && ind <= base + 1) break; // a list of the other kind starts
      if (ind > base || (!sawBlank && !this.startsBlock(line))) {
        // continuation: indented, or a lazy paragraph continuation
        const strip = Math.min(ind, cur.offset);
        cur.lines.push(line.slice(strip));
        sawBlank = false;
        i++;
        continue;
      }
      break;
    }

    const tag = ordered ? 'ol' : 'ul';
    let html = '<' + tag + (ordered && start !== 1 ? ' start="' + start + '"' : '') + '>';
    for (const item of items) {
      while (item.lines.length && item.lines[item.lines.length - 1] === '') item.lines.pop();
      let body = depth < MAX_DEPTH ? this.blocks(item.lines, depth + 1) : escapeHtml(item.lines.join('\n'));
      if (!loose) body = body.replace(/^<p>([\s\S]*?)<\/p>/, '$1');
      html += '<li>' + body + '</li>';
    }
    out.push(html + '</' + tag + '>');
    return i;
  }
}

export function renderMarkdown(text, options) {
  const src = String(text == null ? '' : text).replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  const lines = src.split('\n').map(expandTabs);
  return new Renderer(options).blocks(lines, 0);
}
