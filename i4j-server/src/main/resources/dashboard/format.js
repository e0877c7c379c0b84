/*
 * Numbers, sizes, times and terminal text as the dashboard shows them, and live relative times ("3m ago") that
 * the page refreshes every second (refreshRelativeTimes).
 */

export const enc = encodeURIComponent;
export const num = (v, d) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

export function parseTs(s) {
  if (s == null) return null;
  const t = typeof s === 'number' ? s : Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

export function fmtCount(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '–';
  if (n < 1000) return String(n);
  if (n < 1e6) return (n / 1000).toFixed(n < 10000 ? 1 : 0).replace(/\.0$/, '') + 'k';
  return (n / 1e6).toFixed(1).replace(/\.0$/, '') + 'M';
}

export function fmtSpan(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return s + 's';
  const m = Math.floor(s / 60);
  if (m < 60) return m + 'm ' + String(s % 60).padStart(2, '0') + 's';
  const hr = Math.floor(m / 60);
  if (hr < 24) return hr + 'h ' + String(m % 60).padStart(2, '0') + 'm';
  return Math.floor(hr / 24) + 'd ' + (hr % 24) + 'h';
}

function fmtAgo(ms) {
  if (ms < 5000) return 'just now';
  return fmtSpan(ms).split(' ')[0] + ' ago';
}

export function fmtDuration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  if (ms < 1000) return Math.round(ms) + ' ms';
  if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  return fmtSpan(ms);
}

export function fmtClock(ts) {
  const t = parseTs(ts);
  return t == null ? '' : new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function fmtBytes(n) {
  if (n < 1024) return n + ' B';
  if (n < 1024 * 1024) return (n / 1024).toFixed(0) + ' KB';
  return (n / 1024 / 1024).toFixed(1) + ' MB';
}

/** The tooltip of a token count: "input 1,234 · output 56". */
export function tokensTitle(inputTokens, outputTokens) {
  const full = (n) => (n != null ? Number(n).toLocaleString() : '–');
  return 'input ' + full(inputTokens) + ' · output ' + full(outputTokens);
}

/** An element whose text is a live relative time: mode 'age' (3m 05s), 'ago' (3m ago), 'elapsed' (3.20 s). */
export function setRel(el, ts, mode) {
  const t = parseTs(ts);
  if (t == null) {
    delete el.dataset.rel;
    el.textContent = '–';
    el.removeAttribute('title');
    return el;
  }
  el.dataset.rel = mode;
  el.dataset.ts = String(t);
  el.title = new Date(t).toLocaleString();
  updateRel(el);
  return el;
}

function updateRel(el) {
  const d = Date.now() - Number(el.dataset.ts);
  const mode = el.dataset.rel;
  const text = mode === 'age' ? fmtSpan(d) : mode === 'ago' ? fmtAgo(d) : fmtSpan(d);
  if (el.textContent !== text) el.textContent = text;
}

/** Brings every live relative time of the page up to date. */
export function refreshRelativeTimes() {
  for (const el of document.querySelectorAll('[data-rel]')) updateRel(el);
}

export function stripAnsi(s) {
  return s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
}

/** "127.0.0.1:25520" of "pekko://i4j@127.0.0.1:25520": a cluster node's address without the system's name. */
export function nodeName(address) {
  const at = String(address).lastIndexOf('@');
  return at >= 0 ? String(address).slice(at + 1) : String(address);
}
