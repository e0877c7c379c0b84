/*
 * interpreter4j dashboard.
 *
 * Plain ES2020, no framework, no build step. Loaded after highlight.js and markdown.js (classic deferred scripts).
 *
 * Views (hash routes):  #/  sessions table      #/session/ID  one session's live transcript
 *
 * Safety: everything the server or the model sends is put in the page with textContent / DOM APIs. The only
 * innerHTML assignments take output of I4JMarkdown.renderMarkdown / I4JHighlight.highlight, which escape every
 * input character and add only their own fixed tags.
 *
 * Connections: a tab keeps at most one EventSource open (the all-sessions stream on the table view, the session's
 * own stream on a session page) so that several dashboard tabs stay under the browser's six-connections-per-host
 * limit of HTTP/1.1; header counters are polled every 5 s in addition.
 */
(function () {
  'use strict';

  const { highlight } = window.I4JHighlight;
  const { renderMarkdown } = window.I4JMarkdown;

  // ================================================================== constants

  const POLL_MS = 5000;
  const OUTPUT_CAP = 200 * 1024;        // characters of live output kept in the DOM per block
  const OUTPUT_CHUNK = 8 * 1024;        // characters per <span> of output (granularity of trimming)

  const STATUS = {
    streaming: { label: 'Streaming', tone: 'blue' },
    awaiting_approval: { label: 'Needs approval', tone: 'alert' },
    executing: { label: 'Executing', tone: 'violet' },
    idle: { label: 'Idle', tone: 'gray' },
    done: { label: 'Done', tone: 'green' },
    failed: { label: 'Failed', tone: 'red' },
    gave_up: { label: 'Gave up', tone: 'orange' },
    interrupted: { label: 'Interrupted', tone: 'gray' },
    blocked: { label: 'Blocked', tone: 'red' },
  };
  const RUNNING = new Set(['streaming', 'awaiting_approval', 'executing']);
  const EVENT_TYPES = ['session_started', 'user_message', 'assistant_delta', 'assistant_message', 'code_block',
    'approval', 'approval_requested', 'exec_started', 'output', 'exec_finished', 'retry', 'usage', 'turn_finished',
    'error'];

  const isWaiting = (s) => s.status === 'awaiting_approval' || !!s.pendingApproval;
  const FILTERS = [
    { key: 'all', label: 'All', test: () => true },
    { key: 'active', label: 'Active', test: (s) => RUNNING.has(s.status) || s.status === 'idle' },
    { key: 'waiting', label: 'Waiting approval', test: isWaiting },
    { key: 'finished', label: 'Finished', test: (s) => s.status === 'done' || s.status === 'interrupted' },
    { key: 'failed', label: 'Failed', test: (s) => s.status === 'failed' || s.status === 'gave_up' || s.status === 'blocked' },
  ];

  // ================================================================== DOM and formatting helpers

  /** h('div', {class, text, dataset, onclick, ...attrs}, ...children): children are Nodes or text. */
  function h(tag, props, ...kids) {
    const el = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v == null || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k === 'text') el.textContent = v;
        else if (k === 'dataset') Object.assign(el.dataset, v);
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else if (k === 'value') el.value = v;
        else if (v === true) el.setAttribute(k, '');
        else el.setAttribute(k, String(v));
      }
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid == null || kid === false) continue;
      el.append(kid instanceof Node ? kid : String(kid));
    }
    return el;
  }

  /** Sets escaped/trusted HTML produced by the highlighter or the markdown renderer (never raw strings). */
  function setRenderedHtml(el, renderedHtml) {
    el.innerHTML = renderedHtml;
  }

  const enc = encodeURIComponent;
  const num = (v, d) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

  function parseTs(s) {
    if (s == null) return null;
    const t = typeof s === 'number' ? s : Date.parse(s);
    return Number.isFinite(t) ? t : null;
  }

  function fmtCount(n) {
    if (typeof n !== 'number' || !Number.isFinite(n)) return '–';
    if (n < 1000) return String(n);
    if (n < 1e6) return (n / 1000).toFixed(n < 10000 ? 1 : 0).replace(/\.0$/, '') + 'k';
    return (n / 1e6).toFixed(1).replace(/\.0$/, '') + 'M';
  }

  function fmtSpan(ms) {
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

  function fmtDuration(ms) {
    if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    return fmtSpan(ms);
  }

  function fmtClock(ts) {
    const t = parseTs(ts);
    return t == null ? '' : new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  }

  function fmtBytes(n) {
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(0) + ' KB';
    return (n / 1024 / 1024).toFixed(1) + ' MB';
  }

  /** An element whose text is a live relative time: mode 'age' (3m 05s), 'ago' (3m ago), 'elapsed' (3.20 s). */
  function setRel(el, ts, mode) {
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

  function isEditable(target) {
    return !!(target && target.closest && target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'));
  }

  function statusPill(status, extra) {
    const info = STATUS[status] || { label: status || 'unknown', tone: 'gray' };
    return h('span', { class: 'pill tone-' + info.tone, dataset: { status: status || '' } },
      h('span', { class: 'pill-dot', 'aria-hidden': 'true' }), info.label, extra ? h('span', { class: 'pill-extra', text: extra }) : null);
  }

  function stripAnsi(s) {
    return s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
  }

  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (e) {
      const ta = h('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
      ta.value = text;
      document.body.append(ta);
      ta.select();
      let ok = false;
      try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
      ta.remove();
      return ok;
    }
  }

  // ================================================================== toasts, banner, connection indicator

  const toastsEl = document.getElementById('toasts');
  const recentToasts = new Map();

  /** kind: 'error' | 'info' | 'success'. Identical toasts within 10 s are shown once. */
  function toast(message, opts) {
    const { kind = 'error', detail = '', timeout } = opts || {};
    const key = kind + '|' + message + '|' + detail;
    const now = Date.now();
    if (recentToasts.has(key) && now - recentToasts.get(key) < 10000) return;
    for (const [k, t] of recentToasts) if (now - t >= 10000) recentToasts.delete(k);
    recentToasts.set(key, now);
    const el = h('div', { class: 'toast toast-' + kind, role: kind === 'error' ? 'alert' : 'status' },
      h('div', { class: 'toast-body' },
        h('div', { class: 'toast-title', text: message }),
        detail ? h('div', { class: 'toast-detail', text: detail }) : null),
      h('button', { type: 'button', class: 'icon-btn toast-close', 'aria-label': 'Dismiss', text: '×', onclick: () => el.remove() }));
    toastsEl.append(el);
    while (toastsEl.children.length > 5) toastsEl.firstElementChild.remove();
    const ms = timeout != null ? timeout : kind === 'error' ? 10000 : 4000;
    if (ms > 0) setTimeout(() => el.remove(), ms);
  }

  function showError(err, context) {
    if (err && err.status === 401) return; // the banner says it
    const message = err && err.message ? err.message : String(err);
    toast(context ? context + ': ' + message : message, { detail: err && err.detail ? err.detail : '' });
  }

  const auth = {
    failed: false,
    fail() {
      if (this.failed) return;
      this.failed = true;
      const banner = document.getElementById('banner');
      banner.replaceChildren(
        h('strong', { text: 'Not authenticated: ' }),
        'open the URL printed by ', h('code', { text: 'i4j serve' }), ' (it contains ', h('code', { text: '?token=...' }), ').');
      banner.hidden = false;
      conn.update();
    },
    ok() {
      if (!this.failed) return;
      this.failed = false;
      document.getElementById('banner').hidden = true;
      conn.update();
    },
  };

  const streams = new Set();
  const conn = {
    netDown: false,
    update() {
      const el = document.getElementById('conn');
      const bad = [...streams].some((s) => s.state === 'reconnecting' || s.state === 'down');
      el.hidden = auth.failed || !(bad || this.netDown); // the auth banner explains a 401 better
      el.textContent = this.netDown ? 'server unreachable · retrying…' : 'reconnecting…';
    },
  };

  // ================================================================== API

  class ApiError extends Error {
    constructor(status, message, detail) {
      super(message);
      this.status = status;
      this.detail = detail || '';
    }
  }

  async function api(method, path, body) {
    const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (method !== 'GET' && method !== 'HEAD') {
      init.headers['Content-Type'] = 'application/json';
      if (body !== undefined) init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      if (!conn.netDown) { conn.netDown = true; conn.update(); }
      throw new ApiError(0, 'Cannot reach the server', e && e.message);
    }
    if (conn.netDown) { conn.netDown = false; conn.update(); }
    if (res.status === 401) {
      auth.fail();
      throw new ApiError(401, 'Not authenticated', 'open the URL printed by `i4j serve` (it contains ?token=...)');
    }
    auth.ok();
    const text = await res.text();
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch (e) { data = null; }
    }
    if (!res.ok) {
      const error = data && typeof data.error === 'string' && data.error ? data.error : res.status + ' ' + (res.statusText || 'error');
      const detail = data && data.detail != null ? String(data.detail) : data ? '' : text.slice(0, 300);
      throw new ApiError(res.status, error, detail);
    }
    return data;
  }

  /** One EventSource with a reconnect indicator; reopens itself (with backoff) when the browser gives up. */
  class EventStream {
    constructor(url, onEvent) {
      this.url = url;
      this.onEvent = onEvent;
      this.es = null;
      this.state = 'connecting';
      this.closed = false;
      this.retryMs = 1000;
      this.timer = 0;
      streams.add(this);
    }

    open() {
      if (this.closed) return;
      const es = new EventSource(this.url);
      this.es = es;
      const handler = (e) => {
        if (this.closed || !e.data) return;
        let ev;
        try { ev = JSON.parse(e.data); } catch (err) { return; }
        if (ev && typeof ev === 'object') this.onEvent(ev);
      };
      es.onmessage = handler;
      for (const t of EVENT_TYPES) es.addEventListener(t, handler); // in case the server names its events
      // `event: end`: the session has ended and its stream is complete. Without closing here the browser would
      // reconnect every few seconds for ever (and show "reconnecting…"), replaying nothing each time.
      es.addEventListener('end', () => {
        if (this.closed) return;
        es.close();
        this.setState('ended');
        if (this.onEnd) this.onEnd();
      });
      es.onopen = () => { this.retryMs = 1000; this.setState('open'); };
      es.onerror = () => {
        if (this.closed || this.state === 'ended') return;
        if (es.readyState === EventSource.CLOSED) {
          es.close();
          this.setState('down');
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.open(), this.retryMs);
          this.retryMs = Math.min(this.retryMs * 2, 30000);
          if (this.onDown) this.onDown();
        } else {
          this.setState('reconnecting');
        }
      };
      return this;
    }

    setState(s) {
      this.state = s;
      conn.update();
    }

    close() {
      this.closed = true;
      clearTimeout(this.timer);
      if (this.es) this.es.close();
      streams.delete(this);
      conn.update();
    }
  }

  // ================================================================== store: the sessions list and the summary

  const store = {
    sessions: new Map(),
    loaded: false,
    listError: null,
    summary: null,
    summaryOk: false,
    appliedFrom: 0, // start time of the request whose list is in `sessions`
  };

  let refreshing = null;
  let refreshAgain = false;
  let refreshTimer = 0;

  function refreshNow() {
    if (refreshing) { refreshAgain = true; return refreshing; }
    const startedAt = Date.now();
    refreshing = (async () => {
      const [list, summary] = await Promise.allSettled([api('GET', '/api/sessions'), api('GET', '/api/summary')]);
      if (list.status === 'fulfilled' && list.value && Array.isArray(list.value.sessions)) {
        const m = new Map();
        for (const s of list.value.sessions) if (s && s.id != null) m.set(String(s.id), s);
        store.sessions = m;
        store.loaded = true;
        store.listError = null;
        store.appliedFrom = startedAt;
      } else {
        const err = list.status === 'rejected' ? list.reason : new ApiError(0, 'Unexpected /api/sessions response');
        store.listError = err;
        if (err.status !== 401 && err.status !== 0) showError(err, 'Could not load sessions');
      }
      if (summary.status === 'fulfilled' && summary.value && typeof summary.value === 'object') {
        store.summary = summary.value;
        store.summaryOk = true;
      } else {
        store.summaryOk = false;
      }
      storeChanged();
    })().finally(() => {
      refreshing = null;
      if (refreshAgain) { refreshAgain = false; scheduleRefresh(300); }
    });
    return refreshing;
  }

  function scheduleRefresh(delay) {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => { refreshTimer = 0; refreshNow(); }, delay == null ? 800 : delay);
  }

  function pollLoop() {
    refreshNow().finally(() => setTimeout(pollLoop, POLL_MS));
  }

  let storeChangeQueued = false;
  function storeChanged() {
    renderHeader();
    if (currentView && currentView.onStore) currentView.onStore();
    updateDocTitle();
  }

  /** Live events re-render the table at most ~5 times a second. */
  function storeChangedSoon() {
    if (storeChangeQueued) return;
    storeChangeQueued = true;
    setTimeout(() => { storeChangeQueued = false; storeChanged(); }, 200);
  }

  /** Applies one live event to a session summary, for the table (the next refresh corrects it). */
  function applyEventToSummary(s, ev) {
    if (ev.ts) s.lastActivity = ev.ts;
    switch (ev.type) {
      case 'user_message':
      case 'assistant_delta':
      case 'retry':
        s.status = 'streaming';
        break;
      case 'approval_requested':
        s.status = 'awaiting_approval';
        s.pendingApproval = { block: ev.block, language: ev.language, code: ev.code, flags: ev.flags || [] };
        break;
      case 'approval':
        if (s.pendingApproval && s.pendingApproval.block === ev.block) s.pendingApproval = null;
        if (s.status === 'awaiting_approval') s.status = 'executing';
        break;
      case 'exec_started':
        s.status = 'executing';
        s.runningBlock = ev.block;
        break;
      case 'exec_finished':
        s.runningBlock = null;
        break;
      case 'turn_finished':
        s.status = ev.status || s.status;
        s.pendingApproval = null;
        s.runningBlock = null;
        break;
      default:
    }
  }

  function applyGlobalEvent(ev) {
    if (!ev || ev.session == null) return;
    const s = store.sessions.get(String(ev.session));
    if (!s) { scheduleRefresh(200); return; }
    applyEventToSummary(s, ev);
    if (ev.type !== 'assistant_delta' && ev.type !== 'output') scheduleRefresh(800);
    storeChangedSoon();
  }

  function sortSessions(list) {
    const t = (s) => parseTs(s.lastActivity) || parseTs(s.started) || 0;
    return list.sort((a, b) => (isWaiting(b) - isWaiting(a)) || (t(b) - t(a)) || String(b.id).localeCompare(String(a.id)));
  }

  function counters() {
    const list = [...store.sessions.values()];
    const derived = {
      activeSessions: list.filter((s) => RUNNING.has(s.status) || s.status === 'idle').length,
      runningBlocks: list.filter((s) => s.runningBlock != null).length,
      approvalsWaiting: list.filter(isWaiting).length,
    };
    if (!store.summaryOk || !store.summary) return derived;
    return {
      activeSessions: num(store.summary.activeSessions, derived.activeSessions),
      runningBlocks: num(store.summary.runningBlocks, derived.runningBlocks),
      approvalsWaiting: num(store.summary.approvalsWaiting, derived.approvalsWaiting),
    };
  }

  // ================================================================== header, title, favicon

  const header = {
    active: document.getElementById('count-active'),
    running: document.getElementById('count-running'),
    approvals: document.getElementById('count-approvals'),
  };

  function renderHeader() {
    if (!store.loaded && !store.summaryOk) return;
    const c = counters();
    header.active.textContent = c.activeSessions + ' active';
    header.running.textContent = c.runningBlocks + (c.runningBlocks === 1 ? ' running block' : ' running blocks');
    const n = c.approvalsWaiting;
    header.approvals.replaceChildren(
      h('span', { class: 'badge-num', text: String(n) }),
      n === 1 ? ' approval waiting' : ' approvals waiting');
    header.approvals.dataset.count = String(n);
    header.approvals.classList.toggle('hot', n > 0);
    header.approvals.disabled = n === 0;
    header.approvals.title = n > 0 ? 'Go to the first session waiting for approval' : 'No approvals waiting';
  }

  function goToFirstWaiting() {
    const first = sortSessions([...store.sessions.values()]).find(isWaiting);
    if (first) {
      location.hash = '#/session/' + enc(first.id);
    } else {
      sessionsUi.filter = 'waiting';
      if (location.hash && location.hash !== '#/') location.hash = '#/';
      else if (currentView && currentView.render) currentView.render();
    }
  }

  let faviconAlert = null;
  function setFavicon(alert) {
    if (faviconAlert === alert) return;
    faviconAlert = alert;
    const bg = alert ? '#f59e0b' : '#2563eb';
    const fg = alert ? '#111' : '#fff';
    const glyph = alert ? '!' : '&gt;_';
    const svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='"
      + bg + "'/><text x='16' y='22' font-family='monospace' font-size='" + (alert ? 22 : 15)
      + "' font-weight='700' text-anchor='middle' fill='" + fg + "'>" + glyph + '</text></svg>';
    document.getElementById('favicon').href = 'data:image/svg+xml,' + encodeURIComponent(svg);
  }

  function updateDocTitle() {
    const c = counters();
    const v = currentView;
    let t;
    if (v instanceof SessionView && v.dock && v.dock.card) {
      t = '(!) Approval needed — ' + v.titleText();
    } else {
      const prefix = c.approvalsWaiting > 0 ? '(!) ' + c.approvalsWaiting + ' waiting · ' : '';
      t = prefix + (v instanceof SessionView ? v.titleText() : 'Sessions') + ' — interpreter4j';
    }
    if (document.title !== t) document.title = t;
    setFavicon(c.approvalsWaiting > 0 || !!(v instanceof SessionView && v.dock && v.dock.card));
  }

  // ================================================================== dialogs

  /** Opens a modal <dialog>; build(done) returns its content; resolves with the value given to done (or null). */
  function openDialog(build, className) {
    return new Promise((resolve) => {
      const dlg = h('dialog', { class: 'modal ' + (className || 'modal-small') });
      let result = null;
      const done = (v) => { result = v; dlg.close(); };
      dlg.append(build(done));
      dlg.addEventListener('close', () => { dlg.remove(); resolve(result); });
      document.body.append(dlg);
      dlg.showModal();
      const focus = dlg.querySelector('[autofocus]');
      if (focus) focus.focus();
    });
  }

  function confirmDialog({ title, message, confirmLabel = 'Confirm', danger = false }) {
    return openDialog((done) => {
      const form = h('form', { method: 'dialog', onsubmit: (e) => { e.preventDefault(); done(true); } },
        h('div', { class: 'modal-head' }, h('h2', { text: title })),
        h('div', { class: 'modal-body' }, h('p', { text: message })),
        h('div', { class: 'modal-foot' },
          h('button', { type: 'button', class: 'btn', text: 'Cancel', onclick: () => done(false) }),
          h('button', { type: 'submit', class: 'btn ' + (danger ? 'btn-danger' : 'btn-primary'), text: confirmLabel, autofocus: true })));
      return form;
    }).then((v) => v === true);
  }

  function promptDialog({ title, message, label, placeholder = '', confirmLabel = 'OK', danger = false }) {
    return openDialog((done) => {
      const input = h('textarea', { rows: 3, placeholder, autofocus: true, class: 'input' });
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || !e.shiftKey)) { e.preventDefault(); done(input.value); }
      });
      return h('form', { method: 'dialog', onsubmit: (e) => { e.preventDefault(); done(input.value); } },
        h('div', { class: 'modal-head' }, h('h2', { text: title })),
        h('div', { class: 'modal-body' },
          message ? h('p', { text: message }) : null,
          h('label', { class: 'field' }, h('span', { class: 'label', text: label }), input)),
        h('div', { class: 'modal-foot' },
          h('span', { class: 'hint', text: 'Enter to confirm · Shift+Enter for a new line' }),
          h('button', { type: 'button', class: 'btn', text: 'Cancel', onclick: () => done(null) }),
          h('button', { type: 'submit', class: 'btn ' + (danger ? 'btn-danger' : 'btn-primary'), text: confirmLabel })));
    });
  }

  // ================================================================== new-session form

  const newSession = {
    dialog: document.getElementById('new-session-dialog'),
    form: document.getElementById('new-session-form'),

    init() {
      const { form, dialog } = this;
      for (const b of dialog.querySelectorAll('[data-close]')) b.addEventListener('click', () => dialog.close());
      form.addEventListener('submit', (e) => { e.preventDefault(); this.submit(); });
      form.elements.message.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
      });
      form.elements.autoRun.addEventListener('change', () => this.syncAutoRun());
      dialog.addEventListener('close', () => this.setError(''));
    },

    open() {
      const { form, dialog } = this;
      if (dialog.open) return;
      try {
        const last = JSON.parse(localStorage.getItem('i4j.newSession') || '{}');
        if (!form.elements.model.value && last.model) form.elements.model.value = last.model;
        if (!form.elements.workdir.value && last.workdir) form.elements.workdir.value = last.workdir;
      } catch (e) { /* ignore */ }
      this.syncAutoRun();
      this.setError('');
      dialog.showModal();
      form.elements.message.focus();
    },

    syncAutoRun() {
      const on = this.form.elements.autoRun.checked;
      this.form.querySelector('.autorun-warning').hidden = !on;
      this.form.querySelector('.autorun-hint').hidden = on;
    },

    setError(msg) {
      const el = this.form.querySelector('.form-error');
      el.textContent = msg;
      el.hidden = !msg;
    },

    async submit() {
      const f = this.form.elements;
      const message = f.message.value;
      if (!message.trim()) {
        this.setError('Write a message for the model.');
        f.message.focus();
        return;
      }
      const body = { message };
      const model = f.model.value.trim();
      const workdir = f.workdir.value.trim();
      const maxIt = f.maxIterations.value.trim();
      if (model) body.model = model;
      if (workdir) body.workdir = workdir;
      body.autoRun = !!f.autoRun.checked;
      if (maxIt) {
        const n = Number(maxIt);
        if (!Number.isInteger(n) || n < 1) {
          this.setError('Max iterations must be a whole number ≥ 1.');
          f.maxIterations.focus();
          return;
        }
        body.maxIterations = n;
      }
      const submitBtn = this.form.querySelector('button[type=submit]');
      submitBtn.disabled = true;
      submitBtn.textContent = 'Starting…';
      this.setError('');
      try {
        const res = await api('POST', '/api/sessions', body);
        if (!res || res.id == null) throw new ApiError(0, 'The server did not return a session id');
        try { localStorage.setItem('i4j.newSession', JSON.stringify({ model, workdir })); } catch (e) { /* ignore */ }
        this.dialog.close();
        f.message.value = '';
        f.autoRun.checked = false;
        f.maxIterations.value = '';
        location.hash = '#/session/' + enc(res.id);
        scheduleRefresh(150);
      } catch (e) {
        this.setError(e.status === 401 ? 'Not authenticated: open the URL printed by `i4j serve` (it contains ?token=...).'
          : e.message + (e.detail ? ': ' + e.detail : ''));
        showError(e, 'Could not start the session');
      } finally {
        submitBtn.disabled = false;
        submitBtn.textContent = 'Start session';
      }
    },
  };

  // ================================================================== router

  const viewEl = document.getElementById('view');
  let currentView = null;

  function parseRoute() {
    const m = /^#\/session\/([^/?#]+)/.exec(location.hash);
    if (m) {
      let id;
      try { id = decodeURIComponent(m[1]); } catch (e) { id = m[1]; }
      return { key: 'session:' + id, make: () => new SessionView(id) };
    }
    return { key: 'sessions', make: () => new SessionsView() };
  }

  function route() {
    const r = parseRoute();
    if (currentView && currentView.key === r.key) return;
    if (currentView) currentView.unmount();
    viewEl.replaceChildren();
    currentView = r.make();
    currentView.key = r.key;
    document.body.dataset.view = r.key === 'sessions' ? 'sessions' : 'session';
    currentView.mount(viewEl);
    window.scrollTo(0, 0);
    updateDocTitle();
  }

  // ================================================================== sessions view

  const sessionsUi = { filter: 'all', query: '' };

  class SessionsView {
    mount(root) {
      this.rows = new Map();
      this.chips = new Map();
      const chips = h('div', { class: 'chips', role: 'group', 'aria-label': 'Filter by status' });
      for (const f of FILTERS) {
        const chip = h('button', {
          type: 'button', class: 'chip chip-' + f.key, dataset: { filter: f.key },
          onclick: () => { sessionsUi.filter = f.key; this.render(); },
        }, h('span', { class: 'chip-label', text: f.label }), h('span', { class: 'chip-count' }));
        this.chips.set(f.key, chip);
        chips.append(chip);
      }
      this.search = h('input', {
        type: 'search', class: 'input search', placeholder: 'Search title, id, model…', 'aria-label': 'Search sessions',
        value: sessionsUi.query, oninput: (e) => { sessionsUi.query = e.target.value; this.render(); },
      });
      this.tbody = h('tbody');
      const th = (label, cls) => h('th', { scope: 'col', class: cls || null, text: label });
      this.table = h('table', { class: 'sessions-table', 'data-testid': 'sessions-table' },
        h('thead', null, h('tr', null, th('Status', 'col-status'), th('Title', 'col-title'), th('Model', 'col-model'),
          th('Iter.', 'num col-iter'), th('Age', 'col-age'), th('Last activity', 'col-last'), th('Tokens in / out', 'num col-tokens'))),
        this.tbody);
      this.empty = h('div', { class: 'empty', hidden: true });
      this.batches = h('div', { class: 'batches', 'data-testid': 'batches', hidden: true });
      root.append(h('section', { class: 'page sessions-page' },
        this.batches,
        h('div', { class: 'toolbar' }, chips, h('div', { class: 'search-wrap' }, this.search, h('kbd', { class: 'search-kbd', text: '/' }))),
        h('div', { class: 'table-wrap' }, this.table),
        this.empty));
      this.stream = new EventStream('/api/events', (ev) => applyGlobalEvent(ev)).open();
      this.stream.onDown = () => scheduleRefresh(100);
      this.render();
      this.loadBatches();
      this.batchTimer = setInterval(() => this.loadBatches(), 2000);
    }

    unmount() {
      this.stream.close();
      clearInterval(this.batchTimer);
    }

    // Batches run with `i4j batch --dashboard`: progress and each task's status, linked to its session.
    async loadBatches() {
      let data;
      try {
        data = await api('GET', '/api/batches');
      } catch (e) {
        return;
      }
      const list = (data && Array.isArray(data.batches)) ? data.batches : [];
      this.batches.hidden = list.length === 0;
      this.batches.replaceChildren(...list.map((b) => this.batchCard(b)));
    }

    batchCard(b) {
      const total = num(b.total, 0);
      const finished = num(b.finished, 0);
      const pct = total > 0 ? Math.round((finished * 100) / total) : 0;
      const counts = b.counts || {};
      const countText = Object.keys(counts).filter((k) => counts[k] > 0).map((k) => k + ' ' + counts[k]).join(' · ');
      const eta = num(b.etaMs, -1) >= 0 && finished < total ? ' · ETA ' + fmtSpan(num(b.etaMs, 0)) : '';
      const rate = num(b.ratePerMin, 0) > 0 ? ' · ' + num(b.ratePerMin, 0).toFixed(1) + '/min' : '';
      const tasks = (Array.isArray(b.tasks) ? b.tasks : []).map((t) => {
        const kids = [statusPill(t.status === 'running' ? 'executing' : t.status), h('span', { class: 'batch-task-id', text: t.id })];
        if (t.error) kids.push(h('span', { class: 'batch-task-error', text: t.error }));
        return t.session
          ? h('a', { class: 'batch-task', href: '#/session/' + encodeURIComponent(t.session), dataset: { status: t.status } }, ...kids)
          : h('span', { class: 'batch-task', dataset: { status: t.status } }, ...kids);
      });
      const fill = h('div', { class: 'batch-bar-fill' });
      fill.style.width = pct + '%';
      return h('section', { class: 'batch', 'data-testid': 'batch', dataset: { batchId: b.id } },
        h('div', { class: 'batch-head' },
          h('strong', { text: b.name || b.id }),
          h('span', { class: 'batch-stats', text: finished + '/' + total + ' (' + pct + '%) · running ' + num(b.running, 0)
            + ' · queued ' + num(b.queued, 0) + rate + eta })),
        h('div', { class: 'batch-bar' }, fill),
        countText ? h('div', { class: 'batch-counts', text: countText }) : null,
        h('div', { class: 'batch-tasks' }, ...tasks));
    }

    onStore() {
      this.render();
    }

    focusSearch() {
      this.search.focus();
      this.search.select();
    }

    matchesQuery(s) {
      const q = sessionsUi.query.trim().toLowerCase();
      if (!q) return true;
      const hay = [s.title, s.id, s.model, s.status, STATUS[s.status] && STATUS[s.status].label].join(' ').toLowerCase();
      return q.split(/\s+/).every((term) => hay.includes(term));
    }

    render() {
      const all = [...store.sessions.values()];
      const filter = FILTERS.find((f) => f.key === sessionsUi.filter) || FILTERS[0];
      for (const f of FILTERS) {
        const chip = this.chips.get(f.key);
        const count = all.filter(f.test).length;
        chip.querySelector('.chip-count').textContent = store.loaded ? String(count) : '';
        chip.classList.toggle('active', f === filter);
        chip.setAttribute('aria-pressed', String(f === filter));
        chip.classList.toggle('hot', f.key === 'waiting' && count > 0);
      }
      const shown = sortSessions(all.filter((s) => filter.test(s) && this.matchesQuery(s)));

      const keep = new Set(shown.map((s) => String(s.id)));
      for (const [id, row] of this.rows) {
        if (!keep.has(id)) { row.tr.remove(); this.rows.delete(id); }
      }
      let prev = null;
      for (const s of shown) {
        const row = this.row(s);
        const expectedNext = prev ? prev.nextSibling : this.tbody.firstChild;
        if (expectedNext !== row.tr) this.tbody.insertBefore(row.tr, expectedNext);
        prev = row.tr;
      }

      this.table.hidden = shown.length === 0;
      this.empty.hidden = shown.length > 0;
      if (shown.length === 0) this.renderEmpty(all.length);
    }

    renderEmpty(total) {
      if (!store.loaded) {
        const e = store.listError;
        this.empty.replaceChildren(e
          ? h('p', { text: e.status === 401 ? 'Not authenticated (see above).' : 'Could not load sessions: ' + e.message + (e.detail ? ' — ' + e.detail : '') })
          : h('p', { class: 'muted', text: 'Loading sessions…' }));
      } else if (total === 0) {
        this.empty.replaceChildren(
          h('p', { class: 'empty-title', text: 'No sessions yet' }),
          h('p', { class: 'muted', text: 'Start one and watch the model write and run code here.' }),
          h('button', { type: 'button', class: 'btn btn-primary', text: 'New session', onclick: () => newSession.open() }));
      } else {
        this.empty.replaceChildren(
          h('p', { class: 'empty-title', text: 'No sessions match' }),
          h('button', {
            type: 'button', class: 'btn', text: 'Clear filters',
            onclick: () => { sessionsUi.filter = 'all'; sessionsUi.query = ''; this.search.value = ''; this.render(); },
          }));
      }
    }

    row(s) {
      const id = String(s.id);
      let r = this.rows.get(id);
      if (!r) {
        const href = '#/session/' + enc(id);
        r = {
          tr: h('tr', { class: 'session-row', tabindex: '0', 'data-testid': 'session-row', dataset: { sessionId: id } }),
          status: h('td', { class: 'col-status' }),
          link: h('a', { class: 'row-title', href }),
          sub: h('div', { class: 'row-sub' }),
          model: h('td', { class: 'col-model mono' }),
          iter: h('td', { class: 'num col-iter' }),
          age: h('span'),
          last: h('span'),
          tokens: h('td', { class: 'num col-tokens mono' }),
        };
        r.tr.append(r.status, h('td', { class: 'col-title' }, r.link, r.sub), r.model, r.iter,
          h('td', { class: 'col-age' }, r.age), h('td', { class: 'col-last' }, r.last), r.tokens);
        r.tr.addEventListener('click', (e) => {
          if (e.target.closest('a')) return; // the link navigates by itself (and middle-click opens a tab)
          location.hash = href;
        });
        r.tr.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' && e.target === r.tr) location.hash = href;
        });
        this.rows.set(id, r);
      }
      const status = s.status || '';
      r.tr.dataset.status = status;
      r.tr.classList.toggle('row-waiting', isWaiting(s));
      const key = status + '|' + (s.runningBlock != null ? s.runningBlock : '');
      if (r.statusKey !== key) {
        r.statusKey = key;
        r.status.replaceChildren(statusPill(status, s.runningBlock != null && status === 'executing' ? '#' + s.runningBlock : ''));
      }
      r.link.textContent = s.title || '(untitled)';
      const sub = [h('span', { class: 'mono', text: id })];
      if (s.pendingApproval) {
        const p = s.pendingApproval;
        sub.push(h('span', { class: 'sub-alert', text: 'block #' + p.block + (p.language ? ' · ' + p.language : '') + ' waits for approval' }));
      } else if (s.runningBlock != null) {
        sub.push(h('span', { class: 'sub-run', text: 'running block #' + s.runningBlock }));
      }
      if (s.stopped) sub.push(h('span', { class: 'sub-stopped', text: 'stopped', title: 'The session was stopped; its transcript is kept' }));
      r.sub.replaceChildren(...sub);
      r.model.textContent = s.model || '–';
      r.iter.textContent = s.iterations != null ? String(s.iterations) : '–';
      setRel(r.age, s.started, 'age');
      setRel(r.last, s.lastActivity, 'ago');
      r.tokens.textContent = fmtCount(s.inputTokens) + ' / ' + fmtCount(s.outputTokens);
      r.tokens.title = 'input ' + (s.inputTokens != null ? Number(s.inputTokens).toLocaleString() : '–')
        + ' · output ' + (s.outputTokens != null ? Number(s.outputTokens).toLocaleString() : '–');
      return r;
    }
  }

  // ================================================================== session view

  const normCode = (s) => String(s == null ? '' : s).replace(/[ \t]+$/gm, '').replace(/^\s*\n/, '').replace(/\s+$/, '');

  class SessionView {
    constructor(id) {
      this.id = id;
      this.base = '/api/sessions/' + enc(id);
      const known = store.sessions.get(id);
      this.meta = known ? { ...known } : { id };
      this.maxSeq = 0;
      this.blocks = new Map();       // block number -> block state
      this.replies = [];
      this.currentReply = null;      // the reply still being written (not final), if any
      this.lastReply = null;
      this.turn = 0;                 // count of turn_finished seen
      this.pending = new Map();      // block -> approval request {block, language, code, risk, flags, fromPoll}
      this.decided = new Set();      // blocks whose approval was decided or cancelled
      this.localEdits = new Map();   // block -> code approved after editing here
      this.firstUserText = '';
      this.cwd = null;
      this.follow = true;
      this.newBelow = false;
      this.dirtyReplies = new Set();
      this.dirtyOutputs = new Set();
      this.flushQueued = false;
      this.sending = false;
      this.dock = { card: null };
      this.unmounted = false;
    }

    // ------------------------------------------------------------ lifecycle

    async mount(root) {
      this.root = root;
      root.append(h('section', { class: 'page session-page' }, h('p', { class: 'muted loading', text: 'Loading session…' })));
      let data;
      try {
        data = await api('GET', this.base + '?limit=1');
      } catch (e) {
        if (this.unmounted) return;
        if (e.status === 404) this.renderNotFound();
        else this.renderLoadError(e);
        return;
      }
      if (this.unmounted) return;
      if (data && data.session) Object.assign(this.meta, data.session);
      this.build();
      this.stream = new EventStream(this.base + '/events', (ev) => this.onEvent(ev)).open();
      this.stream.onDown = () => scheduleRefresh(100);
      this.stream.onEnd = () => { this.meta.stopped = true; this.scheduleFlush(); scheduleRefresh(100); };
      this.onKey = (e) => this.handleKey(e);
      this.onScroll = () => this.handleScroll();
      document.addEventListener('keydown', this.onKey);
      window.addEventListener('scroll', this.onScroll, { passive: true });
      this.onStore();
    }

    unmount() {
      this.unmounted = true;
      if (this.stream) this.stream.close();
      if (this.onKey) document.removeEventListener('keydown', this.onKey);
      if (this.onScroll) window.removeEventListener('scroll', this.onScroll);
    }

    renderNotFound() {
      this.root.replaceChildren(h('section', { class: 'page notfound', 'data-testid': 'no-such-session' },
        h('h1', { text: 'No such session' }),
        h('p', null, 'There is no session with id ', h('code', { text: this.id }), '. The link may be wrong, or the server was restarted with another data directory.'),
        h('a', { class: 'btn', href: '#/', text: '← All sessions' })));
    }

    renderLoadError(e) {
      this.root.replaceChildren(h('section', { class: 'page notfound' },
        h('h1', { text: 'Could not load this session' }),
        h('p', { text: e.message + (e.detail ? ' — ' + e.detail : '') }),
        h('div', { class: 'row-gap' },
          h('button', { type: 'button', class: 'btn btn-primary', text: 'Retry', onclick: () => { this.root.replaceChildren(); this.mount(this.root); } }),
          h('a', { class: 'btn', href: '#/', text: '← All sessions' }))));
    }

    build() {
      this.el = {};
      const E = this.el;
      E.title = h('h1', { class: 'session-title' });
      E.pill = h('span', { class: 'session-pill' });
      E.meta = h('div', { class: 'session-meta' });
      E.interrupt = h('button', {
        type: 'button', class: 'btn btn-warn', 'data-testid': 'interrupt-button', hidden: true,
        title: 'Stop what the session is doing now (model writing, approval wait or running code); the session stays open',
        onclick: () => this.interrupt(),
      }, 'Interrupt');
      E.stop = h('button', {
        type: 'button', class: 'btn btn-danger-outline', 'data-testid': 'stop-button',
        title: 'Stop the session for good (its transcript is kept)', onclick: () => this.stop(),
      }, 'Stop session');
      E.head = h('div', { class: 'session-head' }, h('div', { class: 'session-head-inner' },
        h('div', { class: 'session-head-row' },
          h('a', { class: 'back', href: '#/', title: 'All sessions', 'aria-label': 'All sessions', text: '←' }),
          E.title, E.pill, h('span', { class: 'spacer' }), E.interrupt, E.stop),
        E.meta));
      E.transcript = h('div', { class: 'transcript', 'data-testid': 'transcript', role: 'log', 'aria-label': 'Transcript' });
      E.transcript.addEventListener('click', (e) => this.onTranscriptClick(e));
      E.jump = h('button', {
        type: 'button', class: 'jump', hidden: true,
        onclick: () => { this.follow = true; this.scrollToBottom(); },
      }, '↓ New activity');

      E.approvalSlot = h('div', { class: 'approval-slot' });
      E.input = h('textarea', {
        class: 'input composer-input', rows: 1, 'data-testid': 'message-input', 'aria-label': 'Message to the model',
        placeholder: 'Send a follow-up message…',
      });
      E.input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && !e.altKey) { e.preventDefault(); this.send(); }
      });
      E.input.addEventListener('input', () => { this.autosize(); this.updateControls(); });
      E.send = h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'send-button', text: 'Send' });
      E.hint = h('div', { class: 'composer-hint' });
      E.composer = h('form', { class: 'composer', onsubmit: (e) => { e.preventDefault(); this.send(); } },
        h('div', { class: 'composer-row' }, E.input, E.send), E.hint);
      E.dock = h('div', { class: 'dock' }, E.approvalSlot, E.composer);

      this.root.replaceChildren(E.head, h('section', { class: 'page session-page' }, E.transcript, E.jump, E.dock));
      this.renderHead();
      this.updateControls();
    }

    titleText() {
      return this.meta.title || (this.firstUserText ? this.firstUserText.split('\n')[0].slice(0, 80) : '') || this.id;
    }

    // ------------------------------------------------------------ store + header

    onStore() {
      if (!this.el) return;
      const s = store.sessions.get(this.id);
      if (s) {
        Object.assign(this.meta, s);
        // A pending approval the events have not shown yet (or a stream that is down) still gets its card.
        const p = s.pendingApproval ? { ...s.pendingApproval, block: Number(s.pendingApproval.block) } : null;
        if (p && Number.isFinite(p.block) && !this.decided.has(p.block) && !this.pending.has(p.block)) {
          this.pending.set(p.block, { ...p, fromPoll: true });
          const b = this.blocks.get(p.block);
          if (b && !b.approval) { b.state = 'awaiting'; this.renderBlockHead(b); }
        }
        // Entries only the poll knew about go when the poll stops listing them.
        for (const [n, entry] of this.pending) {
          if (entry.fromPoll && !(p && p.block === n)) this.pending.delete(n);
        }
        // After we sent a decision, a list fetched later that no longer shows the block settles it.
        const card = this.dock.card;
        if (card && card.sentAt && store.appliedFrom > card.sentAt && !(p && p.block === card.block)) {
          this.decided.add(card.block);
          this.pending.delete(card.block);
        }
        this.renderDock();
      }
      this.renderHead();
      this.updateControls();
    }

    setStatus(status) {
      if (!status || this.meta.status === status) return;
      this.meta.status = status;
      const s = store.sessions.get(this.id);
      if (s) s.status = status;
    }

    renderHead() {
      const E = this.el;
      if (!E) return;
      const m = this.meta;
      E.title.textContent = this.titleText();
      E.title.title = this.titleText();
      const pillKey = (m.status || '') + '|' + (m.runningBlock != null ? m.runningBlock : '') + '|' + !!m.stopped;
      if (this.pillKey !== pillKey) {
        this.pillKey = pillKey;
        const extra = m.stopped ? 'stopped' : m.status === 'executing' && m.runningBlock != null ? '#' + m.runningBlock : '';
        E.pill.replaceChildren(statusPill(m.status, extra));
      }
      const items = [];
      const item = (label, value, cls) => h('span', { class: 'meta-item ' + (cls || '') }, h('span', { class: 'meta-label', text: label }), value);
      items.push(item('model', h('span', { class: 'mono', text: m.model || '–' })));
      items.push(item('id', h('span', { class: 'mono', text: this.id })));
      if (m.started) items.push(item('age', setRel(h('span'), m.started, 'age')));
      if (m.lastActivity) items.push(item('last activity', setRel(h('span'), m.lastActivity, 'ago')));
      items.push(item('iterations', h('span', { text: m.iterations != null ? String(m.iterations) : '–' })));
      const tok = h('span', { class: 'mono', text: fmtCount(m.inputTokens) + ' in / ' + fmtCount(m.outputTokens) + ' out' });
      tok.title = 'input ' + (m.inputTokens != null ? Number(m.inputTokens).toLocaleString() : '–') + ' · output '
        + (m.outputTokens != null ? Number(m.outputTokens).toLocaleString() : '–');
      items.push(item('tokens', tok));
      if (this.cwd) items.push(item('cwd', h('span', { class: 'mono', text: this.cwd, title: this.cwd }), 'meta-cwd'));
      E.meta.replaceChildren(...items);
    }

    isRunning() {
      return RUNNING.has(this.meta.status);
    }

    updateControls() {
      const E = this.el;
      if (!E) return;
      const stopped = !!this.meta.stopped;
      const running = this.isRunning() && !stopped;
      E.interrupt.hidden = !running;
      E.stop.hidden = stopped;
      E.input.disabled = running || stopped || this.sending;
      E.send.disabled = running || stopped || this.sending || !E.input.value.trim();
      let hint;
      if (stopped) hint = 'This session was stopped: it takes no more messages. Its transcript stays here.';
      else if (this.sending) hint = 'Sending…';
      else if (running && this.meta.status === 'awaiting_approval') hint = 'The session is waiting for your approval above. You can send a message when the turn ends.';
      else if (running) hint = 'The model is working: you can send a message when this turn ends (or Interrupt it).';
      else hint = 'Enter to send · Shift+Enter for a new line';
      E.hint.textContent = hint;
      E.composer.classList.toggle('busy', running || stopped);
    }

    autosize() {
      const ta = this.el.input;
      ta.style.height = 'auto';
      ta.style.height = Math.min(ta.scrollHeight + 2, 240) + 'px';
    }

    // ------------------------------------------------------------ events

    onEvent(ev) {
      if (this.unmounted) return;
      if (ev.session != null && String(ev.session) !== this.id) return;
      if (ev.block != null) ev.block = Number(ev.block);
      const seq = Number(ev.seq);
      if (Number.isFinite(seq)) {
        if (seq <= this.maxSeq) return; // duplicate (reconnect replay)
        this.maxSeq = seq;
      }
      try {
        this.apply(ev);
      } catch (e) {
        console.error('interpreter4j: could not apply event', ev, e);
      }
      if (ev.ts) this.meta.lastActivity = ev.ts;
      if (ev.type !== 'assistant_delta' && ev.type !== 'output') scheduleRefresh(1000);
      this.scheduleFlush();
    }

    apply(ev) {
      switch (ev.type) {
        case 'session_started':
          this.cwd = ev.cwd || null;
          if (ev.model && !this.meta.model) this.meta.model = ev.model;
          this.append(h('div', { class: 'session-start' },
            h('span', { text: 'Session started' }),
            ev.model ? h('span', null, ' · model ', h('span', { class: 'mono', text: ev.model })) : null,
            ev.cwd ? h('span', null, ' · in ', h('span', { class: 'mono', text: ev.cwd })) : null,
            this.timeEl(ev.ts)));
          break;
        case 'user_message':
          this.closeReply();
          if (!this.firstUserText) this.firstUserText = ev.text || '';
          this.append(h('div', { class: 'msg msg-user' },
            h('div', { class: 'msg-head' }, h('span', { class: 'msg-who', text: 'You' }), this.timeEl(ev.ts)),
            h('div', { class: 'bubble', text: ev.text || '' })));
          this.setStatus('streaming');
          break;
        case 'assistant_delta': {
          const r = this.openReply(ev);
          r.text += ev.text || '';
          this.dirtyReplies.add(r);
          this.setStatus('streaming');
          break;
        }
        case 'assistant_message': {
          const r = this.currentReply && !this.currentReply.final ? this.currentReply : this.newReply(ev);
          r.text = ev.text || '';
          r.final = true;
          this.currentReply = null;
          this.dirtyReplies.add(r);
          break;
        }
        case 'code_block':
          this.onCodeBlock(ev);
          break;
        case 'approval_requested':
          this.onApprovalRequested(ev);
          break;
        case 'approval':
          this.onApproval(ev);
          break;
        case 'exec_started':
          this.onExecStarted(ev);
          break;
        case 'output': {
          const b = this.blockFor(ev.block, ev.language, null);
          this.appendOutput(b, ev.stream, ev.text);
          break;
        }
        case 'exec_finished':
          this.onExecFinished(ev);
          break;
        case 'retry':
          this.discardOpenReply();
          this.notice('retry', 'Retrying the model call' + (ev.attempt != null ? ' (attempt ' + ev.attempt + ')' : ''), ev.reason, ev.ts);
          this.setStatus('streaming');
          break;
        case 'usage':
          scheduleRefresh(1500); // the session summary has the totals
          break;
        case 'turn_finished':
          this.onTurnFinished(ev);
          break;
        case 'error':
          this.notice('error', ev.message || 'error', null, ev.ts);
          break;
        default:
          break; // unknown event types are ignored
      }
    }

    timeEl(ts) {
      const t = parseTs(ts);
      if (t == null) return null;
      return h('time', { class: 'ts', datetime: new Date(t).toISOString(), title: new Date(t).toLocaleString(), text: fmtClock(t) });
    }

    append(node) {
      this.el.transcript.append(node);
      if (!this.follow) this.newBelow = true;
    }

    notice(kind, message, detail, ts) {
      this.append(h('div', { class: 'notice notice-' + kind, role: kind === 'error' ? 'alert' : null },
        h('span', { class: 'notice-icon', 'aria-hidden': 'true', text: kind === 'error' ? '✕' : '↻' }),
        h('div', { class: 'notice-body' }, h('div', { class: 'notice-msg', text: message }),
          detail ? h('div', { class: 'notice-detail', text: detail }) : null),
        this.timeEl(ts)));
    }

    // ------------------------------------------------------------ replies

    newReply(ev) {
      const r = {
        text: '',
        final: false,
        blocks: [],
        turn: this.turn,
        textEl: h('div', { class: 'md' }),
        extraEl: h('div', { class: 'reply-blocks' }),
      };
      r.el = h('div', { class: 'msg msg-assistant streaming' },
        h('div', { class: 'msg-head' }, h('span', { class: 'msg-who', text: 'Model' }), this.timeEl(ev && ev.ts)),
        r.textEl, h('span', { class: 'caret', 'aria-hidden': 'true' }), r.extraEl);
      this.append(r.el);
      this.replies.push(r);
      this.currentReply = r;
      this.lastReply = r;
      return r;
    }

    openReply(ev) {
      return this.currentReply && !this.currentReply.final ? this.currentReply : this.newReply(ev);
    }

    closeReply() {
      const r = this.currentReply;
      if (r && !r.final) {
        r.final = true;
        this.dirtyReplies.add(r);
      }
      this.currentReply = null;
    }

    /** retry: the partial text of the failed call (and its undecided blocks) is discarded. */
    discardOpenReply() {
      const r = this.currentReply;
      if (!r || r.final) return;
      for (const b of r.blocks) {
        if (!b.approval && !b.started && !this.pending.has(b.n)) this.blocks.delete(b.n);
      }
      r.el.remove();
      this.dirtyReplies.delete(r);
      this.replies = this.replies.filter((x) => x !== r);
      this.currentReply = null;
      this.lastReply = this.replies[this.replies.length - 1] || null;
    }

    renderReply(r) {
      const used = new Set();
      const html = renderMarkdown(r.text, {
        codeHook: (language, code) => {
          const norm = normCode(code);
          const b = r.blocks.find((x) => !used.has(x) && normCode(x.origCode) === norm);
          if (!b) return null;
          used.add(b);
          return '<div class="block-slot" data-slot="' + Number(b.n) + '"></div>';
        },
      });
      setRenderedHtml(r.textEl, html);
      for (const slot of r.textEl.querySelectorAll('.block-slot')) {
        const b = this.blocks.get(Number(slot.dataset.slot));
        if (b) slot.replaceWith(b.el);
        else slot.remove();
      }
      for (const b of r.blocks) if (!used.has(b)) r.extraEl.append(b.el);
      r.textEl.hidden = !r.text.trim();
      r.el.classList.toggle('streaming', !r.final);
    }

    // ------------------------------------------------------------ code blocks

    /** The block with this number; made (and placed in the latest reply of this turn) if unseen. */
    blockFor(n, language, code) {
      let b = this.blocks.get(n);
      if (b) return b;
      b = this.createBlock(n, language, code);
      const r = this.lastReply && this.lastReply.turn === this.turn ? this.lastReply : null;
      if (r) {
        b.reply = r;
        r.blocks.push(b);
        this.dirtyReplies.add(r);
      } else {
        this.append(b.el);
      }
      return b;
    }

    onCodeBlock(ev) {
      const n = ev.block;
      const r = this.openReply(ev);
      let b = this.blocks.get(n);
      if (b && (b.approval || b.started)) {
        // a block number seen again after it was decided: keep the old card, show the new one separately
        b.el.removeAttribute('data-block');
        this.blocks.delete(n);
        b = null;
      }
      if (!b) {
        b = this.createBlock(n, ev.language, ev.code);
        this.blocks.set(n, b);
      } else {
        if (b.reply && b.reply !== r) b.reply.blocks = b.reply.blocks.filter((x) => x !== b);
        this.setBlockCode(b, ev.code, ev.language);
        b.origCode = ev.code || '';
      }
      b.unterminated = !!ev.unterminated;
      if (b.reply !== r) {
        b.reply = r;
        r.blocks.push(b);
      }
      this.renderBlockHead(b);
      this.dirtyReplies.add(r);
    }

    createBlock(n, language, code) {
      const b = {
        n,
        language: language || '',
        code: code || '',
        origCode: code || '',
        state: 'proposed',
        approval: null,
        risk: null,
        flags: [],
        started: null,
        finished: null,
        out: { chunks: [], total: 0, dropped: 0, pending: [], pendingLen: 0 },
      };
      const E = {};
      E.lang = h('span', { class: 'block-lang' });
      E.num = h('span', { class: 'block-num', text: '#' + n });
      E.state = h('span', { class: 'block-state' });
      E.risk = h('span', { class: 'risk', hidden: true });
      E.run = h('span', { class: 'block-run' });
      E.copy = h('button', { type: 'button', class: 'copy-btn', title: 'Copy code', text: 'Copy' });
      E.code = h('code', { class: 'hl' });
      E.note = h('div', { class: 'block-note', hidden: true });
      E.flags = h('ul', { class: 'flags', hidden: true });
      E.output = h('pre', { class: 'block-output', 'data-testid': 'block-output', dataset: { block: String(n) } });
      E.output.addEventListener('scroll', () => {
        b.stick = E.output.scrollHeight - E.output.scrollTop - E.output.clientHeight < 24;
      }, { passive: true });
      E.dropped = h('div', { class: 'out-dropped', hidden: true });
      E.foot = h('div', { class: 'out-foot', hidden: true });
      E.outWrap = h('div', { class: 'block-out', hidden: true }, E.dropped, E.output, E.foot);
      b.stick = true;
      b.E = E;
      b.el = h('div', { class: 'block-card', dataset: { block: String(n) } },
        h('div', { class: 'block-head' }, E.lang, E.num, E.state, E.risk, h('span', { class: 'spacer' }), E.run, E.copy),
        h('pre', { class: 'block-code' }, E.code),
        E.note, E.flags, E.outWrap);
      this.setBlockCode(b, code, language);
      this.renderBlockHead(b);
      this.blocks.set(n, b);
      return b;
    }

    setBlockCode(b, code, language) {
      if (language) b.language = language;
      b.code = code || '';
      b.E.lang.textContent = b.language || 'code';
      setRenderedHtml(b.E.code, highlight(b.code, b.language));
    }

    renderBlockHead(b) {
      const E = b.E;
      let text;
      let tone;
      const a = b.approval;
      if (a) {
        const by = a.by === 'auto' ? 'auto' : a.by === 'policy' ? 'by policy' : a.by === 'user' ? 'by user' : a.by || '';
        if (a.decision === 'denied') { text = 'Denied' + (by ? ' · ' + by : ''); tone = 'red'; }
        else if (a.decision === 'edited') { text = 'Edited & approved' + (by ? ' · ' + by : ''); tone = 'green'; }
        else { text = 'Approved' + (by ? ' · ' + by : ''); tone = 'green'; }
      } else if (this.pending.has(b.n)) {
        text = 'Awaiting approval'; tone = 'alert';
      } else if (b.cancelled) {
        text = 'Not run'; tone = 'gray';
      } else if (b.unterminated) {
        text = 'Unterminated'; tone = 'orange';
      } else {
        text = 'Proposed'; tone = 'gray';
      }
      E.state.className = 'block-state tone-' + tone;
      E.state.textContent = text;
      b.el.classList.toggle('is-waiting', tone === 'alert');
      b.el.classList.toggle('is-denied', !!a && a.decision === 'denied');

      const risk = b.risk || (this.pending.get(b.n) || {}).risk;
      E.risk.hidden = !risk;
      if (risk) {
        E.risk.className = 'risk risk-' + (['low', 'medium', 'high'].includes(risk) ? risk : 'unknown');
        E.risk.textContent = 'risk: ' + risk;
      }
      const flags = (a && a.flags && a.flags.length ? a.flags : null) || b.flags || [];
      E.flags.hidden = !flags.length;
      E.flags.replaceChildren(...flags.map(flagItem));

      const notes = [];
      if (a && a.reason) notes.push((a.decision === 'denied' ? 'Reason: ' : 'Note: ') + a.reason);
      if (b.ranEdited && a && a.decision === 'edited') notes.push('Edited before it ran: the code above is what ran.');
      else if (a && a.decision === 'edited') notes.push('The code was edited before it ran; the code shown is the model’s original.');
      E.note.hidden = !notes.length;
      E.note.textContent = notes.join('  ');
    }

    onApprovalRequested(ev) {
      const n = ev.block;
      if (this.decided.has(n)) return;
      const b = this.blockFor(n, ev.language, ev.code);
      if (!b.code && ev.code) this.setBlockCode(b, ev.code, ev.language);
      this.pending.set(n, { block: n, language: ev.language || b.language, code: ev.code != null ? ev.code : b.code, risk: ev.risk || null, flags: ev.flags || [] });
      if (ev.risk) b.risk = ev.risk;
      if (ev.flags) b.flags = ev.flags;
      this.renderBlockHead(b);
      this.setStatus('awaiting_approval');
      this.renderDock();
    }

    onApproval(ev) {
      const n = ev.block;
      const req = this.pending.get(n);
      this.decided.add(n);
      this.pending.delete(n);
      const b = this.blockFor(n, req && req.language, req && req.code);
      b.approval = ev;
      if (ev.risk) b.risk = ev.risk;
      if (ev.flags && ev.flags.length) b.flags = ev.flags;
      // An edited block shows the code that ran: the event carries it (edits made here, in the terminal or by API).
      const ran = ev.decision === 'edited' ? (typeof ev.code === 'string' ? ev.code : this.localEdits.get(n)) : null;
      if (ran != null) {
        this.setBlockCode(b, ran, b.language);
        b.ranEdited = true;
      }
      this.renderBlockHead(b);
      if (this.meta.status === 'awaiting_approval') this.setStatus('executing');
      this.renderDock();
    }

    onExecStarted(ev) {
      const b = this.blockFor(ev.block, ev.language, null);
      b.started = ev.ts || new Date().toISOString();
      b.E.outWrap.hidden = false;
      b.E.outWrap.classList.add('running');
      b.E.run.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'running ', setRel(h('span'), b.started, 'elapsed'));
      this.meta.runningBlock = ev.block;
      this.setStatus('executing');
    }

    onExecFinished(ev) {
      const b = this.blockFor(ev.block, null, null);
      b.finished = ev;
      const E = b.E;
      E.outWrap.hidden = false;
      E.outWrap.classList.remove('running');
      E.outWrap.classList.add('finished');
      let text;
      let tone;
      if (ev.timed_out) { text = 'timed out'; tone = 'orange'; }
      else if (ev.interrupted) { text = 'interrupted'; tone = 'gray'; }
      else if (ev.exit_code === 0) { text = 'exit 0'; tone = 'green'; }
      else { text = 'exit ' + (ev.exit_code != null ? ev.exit_code : '?'); tone = 'red'; }
      const badge = h('span', {
        class: 'exit-badge tone-' + tone, 'data-testid': 'exit-badge',
        dataset: { block: String(ev.block), exitCode: ev.exit_code != null ? String(ev.exit_code) : '' },
        title: 'exit code ' + ev.exit_code + (ev.timed_out ? ' (timed out)' : '') + (ev.interrupted ? ' (interrupted)' : ''),
        text,
      });
      E.run.replaceChildren(badge, ev.duration_ms != null ? h('span', { class: 'duration', text: fmtDuration(ev.duration_ms) }) : null);
      if (this.meta.runningBlock === ev.block) this.meta.runningBlock = null;
      this.dirtyOutputs.add(b); // the footer (full output link) is drawn by flushOutput
    }

    onTurnFinished(ev) {
      this.closeReply();
      for (const n of this.pending.keys()) this.decided.add(n);
      this.pending.clear();
      for (const b of this.blocks.values()) {
        if (!b.approval && !b.started) { b.cancelled = true; this.renderBlockHead(b); }
      }
      this.renderDock();
      const info = STATUS[ev.status] || { label: ev.status || 'finished', tone: 'gray' };
      const parts = [info.label];
      if (ev.iterations != null) parts.push(ev.iterations + (ev.iterations === 1 ? ' iteration' : ' iterations'));
      this.append(h('div', { class: 'turn-end tone-' + info.tone, dataset: { status: ev.status || '' } },
        h('div', { class: 'turn-end-line' },
          h('span', { class: 'turn-end-label' }, 'Turn finished · ', h('strong', { text: parts.join(' · ') })),
          this.timeEl(ev.ts)),
        ev.reason ? h('div', { class: 'turn-end-reason', text: ev.reason }) : null));
      this.turn++;
      this.meta.runningBlock = null;
      this.setStatus(ev.status);
    }

    // ------------------------------------------------------------ output

    appendOutput(b, stream, text) {
      if (!text) return;
      const o = b.out;
      o.pending.push([stream === 'stderr' ? 'stderr' : 'stdout', stripAnsi(String(text))]);
      o.pendingLen += text.length;
      while (o.pendingLen > OUTPUT_CAP * 2 && o.pending.length > 1) { // bounded while the tab is hidden
        const [, t] = o.pending.shift();
        o.pendingLen -= t.length;
        o.dropped += t.length;
      }
      b.E.outWrap.hidden = false;
      this.dirtyOutputs.add(b);
    }

    flushOutput(b) {
      const o = b.out;
      const E = b.E;
      const el = E.output;
      for (const [stream, text] of o.pending) {
        const last = o.chunks[o.chunks.length - 1];
        if (last && last.stream === stream && last.len + text.length <= OUTPUT_CHUNK) {
          last.node.firstChild.appendData(text);
          last.len += text.length;
        } else {
          const node = h('span', { class: stream === 'stderr' ? 'out-err' : 'out-std', text });
          el.append(node);
          o.chunks.push({ stream, node, len: text.length });
        }
        o.total += text.length;
      }
      o.pending = [];
      o.pendingLen = 0;
      while (o.total > OUTPUT_CAP && o.chunks.length) {
        const first = o.chunks[0];
        const excess = o.total - OUTPUT_CAP;
        if (first.len <= excess) {
          first.node.remove();
          o.chunks.shift();
          o.total -= first.len;
          o.dropped += first.len;
        } else {
          first.node.firstChild.deleteData(0, excess);
          first.len -= excess;
          o.total -= excess;
          o.dropped += excess;
        }
      }
      const fullHref = this.base + '/blocks/' + enc(b.n) + '/output';
      const fullLink = () => h('a', { href: fullHref, target: '_blank', rel: 'noopener', class: 'full-output', text: 'full output' });
      if (o.dropped) {
        E.dropped.hidden = false;
        E.dropped.replaceChildren('… ' + fmtBytes(o.dropped) + ' of earlier output not shown here · ', fullLink());
      }
      const f = b.finished;
      if (f) {
        const bits = [];
        if (f.output_file || f.truncated || o.dropped) bits.push(fullLink());
        if (f.truncated) bits.push(h('span', { class: 'muted', text: 'the model saw only the head and tail of this output' }));
        E.foot.hidden = !bits.length;
        E.foot.replaceChildren(...bits);
      }
      if (b.stick) el.scrollTop = el.scrollHeight;
    }

    // ------------------------------------------------------------ approval dock

    firstPending() {
      let best = null;
      for (const [n, p] of this.pending) {
        if (this.decided.has(n)) continue;
        if (best == null || n < best.block) best = p;
      }
      return best;
    }

    renderDock() {
      const p = this.firstPending();
      const cur = this.dock.card;
      if (!p) {
        if (cur) {
          cur.el.remove();
          this.dock.card = null;
          updateDocTitle();
        }
        return;
      }
      if (cur && cur.block === p.block) {
        cur.update(p);
        return;
      }
      if (cur) cur.el.remove();
      this.dock.card = this.buildApprovalCard(p);
      this.el.approvalSlot.append(this.dock.card.el);
      if (document.activeElement === document.body || !document.activeElement) this.dock.card.el.focus({ preventScroll: true });
      updateDocTitle();
    }

    buildApprovalCard(p) {
      const card = { block: p.block, code: p.code || '', editing: false, busy: false, sentAt: 0 };
      const riskEl = h('span', { class: 'risk', hidden: true });
      const flagsEl = h('ul', { class: 'flags', hidden: true });
      const codeEl = h('code', { class: 'hl' });
      const pre = h('pre', { class: 'ac-code' }, codeEl);
      const editor = h('textarea', { class: 'ac-editor', spellcheck: 'false', 'aria-label': 'Edit the code, then approve it', hidden: true });
      const status = h('span', { class: 'ac-status', role: 'status' });
      const approveBtn = h('button', { type: 'button', class: 'btn btn-approve', 'data-testid': 'approve-button', onclick: () => this.decide(card.editing ? 'approve-edited' : 'approve') });
      const denyBtn = h('button', { type: 'button', class: 'btn btn-deny', 'data-testid': 'deny-button', onclick: () => this.decide('deny') });
      const editBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'edit-button', onclick: () => (card.editing ? card.setEditing(false) : card.setEditing(true)) });
      const langEl = h('span', { class: 'ac-lang' });
      card.el = h('section', {
        class: 'approval-card', 'data-testid': 'approval-card', dataset: { block: String(p.block) }, tabindex: '-1',
        role: 'region', 'aria-label': 'Approval needed for block ' + p.block,
      },
      h('div', { class: 'ac-head' },
        h('span', { class: 'ac-icon', 'aria-hidden': 'true', text: '!' }),
        h('h2', { class: 'ac-title', text: 'Approval needed' }),
        h('span', { class: 'ac-block', text: 'Block #' + p.block }), langEl, riskEl,
        h('span', { class: 'spacer' }),
        h('a', {
          href: '#', class: 'ac-jump', text: 'show in transcript',
          onclick: (e) => {
            e.preventDefault();
            const b = this.blocks.get(p.block);
            if (b) b.el.scrollIntoView({ block: 'center', behavior: 'smooth' });
          },
        })),
      flagsEl, pre, editor,
      h('div', { class: 'ac-actions' }, approveBtn, denyBtn, editBtn, status,
        h('span', { class: 'spacer' }), h('span', { class: 'ac-keys', text: 'Keys: A approve · D deny · E edit' })));

      const label = (btn, text, key) => btn.replaceChildren(text, key ? h('kbd', { text: key }) : null);
      card.update = (req) => {
        card.code = req.code != null ? req.code : card.code;
        langEl.textContent = req.language || '';
        if (!card.editing) setRenderedHtml(codeEl, highlight(card.code, req.language));
        riskEl.hidden = !req.risk;
        if (req.risk) {
          riskEl.className = 'risk risk-' + (['low', 'medium', 'high'].includes(req.risk) ? req.risk : 'unknown');
          riskEl.textContent = 'risk: ' + req.risk;
        }
        const flags = req.flags || [];
        flagsEl.hidden = !flags.length;
        flagsEl.replaceChildren(...flags.map(flagItem));
      };
      card.setEditing = (on) => {
        if (card.busy) return;
        card.editing = on;
        card.el.classList.toggle('editing', on);
        pre.hidden = on;
        editor.hidden = !on;
        label(approveBtn, on ? 'Approve edited' : 'Approve', on ? null : 'A');
        label(editBtn, on ? 'Cancel edit' : 'Edit', on ? null : 'E');
        if (on) {
          editor.value = card.code;
          editor.rows = Math.min(Math.max(card.code.split('\n').length + 1, 4), 18);
          editor.focus();
        } else {
          card.el.focus({ preventScroll: true });
        }
      };
      card.setBusy = (text, sent) => {
        card.busy = !!text;
        if (sent) card.sentAt = Date.now();
        for (const btn of [approveBtn, denyBtn, editBtn]) btn.disabled = card.busy;
        editor.readOnly = card.busy;
        status.textContent = text || '';
      };
      editor.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.decide('approve-edited'); }
        else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); card.setEditing(false); }
      });
      label(approveBtn, 'Approve', 'A');
      label(denyBtn, 'Deny…', 'D');
      label(editBtn, 'Edit', 'E');
      card.update(p);
      return card;
    }

    async decide(kind) {
      const card = this.dock.card;
      if (!card || card.busy) return;
      const n = card.block;
      let body;
      if (kind === 'deny') {
        const reason = await promptDialog({
          title: 'Deny block #' + n,
          message: 'The block will not run. The model is told it was denied, with your reason if you give one.',
          label: 'Reason (optional)', placeholder: 'e.g. do not delete files outside the project',
          confirmLabel: 'Deny', danger: true,
        });
        if (reason === null || this.dock.card !== card) return;
        body = { decision: 'deny' };
        if (reason.trim()) body.reason = reason.trim();
      } else if (kind === 'approve-edited') {
        const code = card.el.querySelector('.ac-editor').value;
        body = { decision: 'approve' };
        if (code !== card.code) {
          body.code = code;
          this.localEdits.set(n, code);
        }
      } else {
        body = { decision: 'approve' };
      }
      card.setBusy('Sending…');
      try {
        await api('POST', this.base + '/blocks/' + enc(n) + '/approval', body);
        card.setBusy(body.decision === 'deny' ? 'Denied · waiting for the session…' : 'Approved · waiting for the session…', true);
        scheduleRefresh(1500);
      } catch (e) {
        if (e.status === 409) {
          toast('Block #' + n + ': already decided', { kind: 'info', detail: e.detail });
          this.decided.add(n);
          this.pending.delete(n);
          this.renderDock();
          const b = this.blocks.get(n);
          if (b) this.renderBlockHead(b);
          scheduleRefresh(200);
        } else {
          card.setBusy(null);
          showError(e, 'Block #' + n + ': decision not sent');
        }
      }
    }

    handleKey(e) {
      const card = this.dock.card;
      if (!card || card.busy || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
      if (isEditable(e.target) || document.querySelector('dialog[open]')) return;
      const k = e.key.toLowerCase();
      if (k === 'a') { e.preventDefault(); this.decide(card.editing ? 'approve-edited' : 'approve'); }
      else if (k === 'd') { e.preventDefault(); this.decide('deny'); }
      else if (k === 'e') { e.preventDefault(); card.setEditing(!card.editing); }
    }

    // ------------------------------------------------------------ actions

    async send() {
      const E = this.el;
      const text = E.input.value;
      if (!text.trim() || this.isRunning() || this.meta.stopped || this.sending) return;
      this.sending = true;
      this.updateControls();
      try {
        await api('POST', this.base + '/messages', { text });
        E.input.value = '';
        this.autosize();
        this.setStatus('streaming');
        this.follow = true;
        this.scheduleFlush();
      } catch (e) {
        showError(e, 'Message not sent');
      } finally {
        this.sending = false;
        this.updateControls();
        if (!this.isRunning()) E.input.focus();
      }
    }

    async interrupt() {
      const btn = this.el.interrupt;
      btn.disabled = true;
      try {
        await api('POST', this.base + '/interrupt', {});
        toast('Interrupt sent', { kind: 'info' });
        scheduleRefresh(500);
      } catch (e) {
        showError(e, 'Interrupt failed');
      } finally {
        btn.disabled = false;
      }
    }

    async stop() {
      const ok = await confirmDialog({
        title: 'Stop this session?',
        message: 'What it is doing now is interrupted and the session ends. Its transcript is kept.',
        confirmLabel: 'Stop session', danger: true,
      });
      if (!ok) return;
      try {
        await api('DELETE', this.base);
        toast('Session stopped', { kind: 'success' });
        scheduleRefresh(200);
      } catch (e) {
        showError(e, 'Could not stop the session');
      }
    }

    onTranscriptClick(e) {
      const btn = e.target.closest('.copy-btn');
      if (!btn) return;
      const card = btn.closest('.block-card');
      let text = '';
      if (card) {
        const b = this.blocks.get(Number(card.dataset.block));
        text = b ? b.code : card.querySelector('.block-code').textContent;
      } else {
        const md = btn.closest('.md-code');
        text = md ? md.querySelector('code').textContent : '';
      }
      copyText(text).then((ok) => {
        btn.textContent = ok ? 'Copied' : 'Copy failed';
        setTimeout(() => { btn.textContent = 'Copy'; }, 1200);
      });
    }

    // ------------------------------------------------------------ rendering + scrolling

    scheduleFlush() {
      if (this.flushQueued) return;
      this.flushQueued = true;
      const run = () => {
        if (!this.flushQueued || this.unmounted) return;
        this.flushQueued = false;
        this.flush();
      };
      requestAnimationFrame(run);
      setTimeout(run, 200); // rAF does not run in background tabs
    }

    flush() {
      const follow = this.follow;
      let deferred = false;
      for (const r of [...this.dirtyReplies]) {
        // A reply still streaming is re-rendered whole, so long ones are redrawn less often (cost-adaptive).
        const now = performance.now();
        if (!r.final && r.renderedAt && now - r.renderedAt < Math.min(40 + r.renderCost * 4, 1000)) {
          deferred = true;
          continue;
        }
        this.renderReply(r);
        r.renderCost = performance.now() - now;
        r.renderedAt = performance.now();
        this.dirtyReplies.delete(r);
      }
      if (deferred) setTimeout(() => this.scheduleFlush(), 50);
      for (const b of this.dirtyOutputs) this.flushOutput(b);
      this.dirtyOutputs.clear();
      this.renderHead();
      this.updateControls();
      updateDocTitle();
      if (follow) this.scrollToBottom();
      else if (this.newBelow) this.el.jump.hidden = false;
    }

    nearBottom() {
      const doc = document.documentElement;
      return window.innerHeight + window.scrollY >= doc.scrollHeight - 120;
    }

    handleScroll() {
      this.follow = this.nearBottom();
      if (this.follow) {
        this.newBelow = false;
        this.el.jump.hidden = true;
      }
    }

    scrollToBottom() {
      window.scrollTo(0, document.documentElement.scrollHeight);
      this.newBelow = false;
      this.el.jump.hidden = true;
    }
  }

  function flagItem(f) {
    const level = String((f && f.level) || 'info').toLowerCase();
    const known = ['info', 'low', 'medium', 'warn', 'warning', 'high', 'danger', 'critical', 'block', 'deny'];
    return h('li', { class: 'flag flag-' + (known.includes(level) ? level : 'info') },
      h('span', { class: 'flag-level', text: level }),
      f && f.rule ? h('span', { class: 'flag-rule mono', text: f.rule }) : null,
      h('span', { class: 'flag-reason', text: (f && f.reason) || '' }));
  }

  // ================================================================== boot

  function stripToken() {
    const u = new URL(location.href);
    if (!u.searchParams.has('token')) return;
    u.searchParams.delete('token');
    history.replaceState(history.state, '', u.pathname + u.search + u.hash);
  }

  function globalKeys(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isEditable(e.target) || document.querySelector('dialog[open]')) return;
    if (e.key === 'n' && !(currentView instanceof SessionView && currentView.dock.card)) {
      e.preventDefault();
      newSession.open();
    } else if (e.key === '/' && currentView instanceof SessionsView) {
      e.preventDefault();
      currentView.focusSearch();
    }
  }

  function boot() {
    stripToken();
    newSession.init();
    document.getElementById('new-session').addEventListener('click', () => newSession.open());
    header.approvals.addEventListener('click', goToFirstWaiting);
    document.addEventListener('keydown', globalKeys);
    window.addEventListener('hashchange', route);
    document.addEventListener('visibilitychange', () => { if (!document.hidden) scheduleRefresh(50); });
    setInterval(() => { for (const el of document.querySelectorAll('[data-rel]')) updateRel(el); }, 1000);
    setFavicon(false);
    route();
    pollLoop();
  }

  boot();
})();
