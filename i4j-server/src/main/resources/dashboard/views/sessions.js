/*
 * The sessions list (#/): filter chips with counts, a search box, one row per session (status, title, model,
 * iterations, age, last activity, tokens; in cluster mode also the node it runs on), batches above. Follows the
 * all-sessions event stream.
 */
import { EventStream } from '../api.js';
import { h } from '../dom.js';
import { enc, fmtCount, nodeName, setRel, tokensTitle } from '../format.js';
import { FILTERS, isWaiting, sessionTitle, statusInfo, statusPill } from '../status.js';
import { applyGlobalEvent, scheduleRefresh, sortSessions, store } from '../store.js';
import { loadBatches } from './batches.js';
import { newSession } from './new-session.js';

/** The filter and search, kept while the user visits sessions. */
const ui = { filter: 'all', query: '' };
let mounted = null;

/** The header's "approvals waiting" button: the first session waiting, or the Waiting approval filter. */
export function goToFirstWaiting() {
  const first = sortSessions([...store.sessions.values()]).find(isWaiting);
  if (first) {
    location.hash = '#/session/' + enc(first.id);
  } else {
    ui.filter = 'waiting';
    if (location.hash && location.hash !== '#/') location.hash = '#/';
    else if (mounted) mounted.render();
  }
}

export class SessionsView {
  mount(root) {
    mounted = this;
    this.rows = new Map();
    this.chips = new Map();
    const chips = h('div', { class: 'chips', role: 'group', 'aria-label': 'Filter by status' });
    for (const f of FILTERS) {
      const chip = h('button', {
        type: 'button', class: 'chip chip-' + f.key, dataset: { filter: f.key }, 'data-testid': 'filter-chip',
        title: f.title || null, onclick: () => { ui.filter = f.key; this.render(); },
      }, h('span', { class: 'chip-label', text: f.label }), h('span', { class: 'chip-count' }));
      this.chips.set(f.key, chip);
      chips.append(chip);
    }
    this.search = h('input', {
      type: 'search', class: 'input search', placeholder: 'Search title, id, model…', 'aria-label': 'Search sessions',
      value: ui.query, oninput: (e) => { ui.query = e.target.value; this.render(); },
    });
    this.tbody = h('tbody');
    const th = (label, cls) => h('th', { scope: 'col', class: cls || null, text: label });
    // shown only in cluster mode, where GET /api/sessions gives each session's node
    this.nodeTh = h('th', { scope: 'col', class: 'col-node', text: 'Node', hidden: true });
    this.table = h('table', { class: 'sessions-table', 'data-testid': 'sessions-table' },
      h('thead', null, h('tr', null, th('Status', 'col-status'), th('Title', 'col-title'), th('Model', 'col-model'), this.nodeTh,
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
    loadBatches(this.batches);
    this.batchTimer = setInterval(() => loadBatches(this.batches), 2000);
  }

  unmount() {
    if (mounted === this) mounted = null;
    this.stream.close();
    clearInterval(this.batchTimer);
  }

  onStore() {
    this.render();
  }

  focusSearch() {
    this.search.focus();
    this.search.select();
  }

  matchesQuery(s) {
    const q = ui.query.trim().toLowerCase();
    if (!q) return true;
    const hay = [s.title, s.id, s.model, s.node, s.status, statusInfo(s.status, s.stopped).label].join(' ').toLowerCase();
    return q.split(/\s+/).every((term) => hay.includes(term));
  }

  render() {
    const all = [...store.sessions.values()];
    const filter = FILTERS.find((f) => f.key === ui.filter) || FILTERS[0];
    for (const f of FILTERS) {
      const chip = this.chips.get(f.key);
      const count = all.filter(f.test).length;
      chip.querySelector('.chip-count').textContent = store.loaded ? String(count) : '';
      chip.dataset.count = store.loaded ? String(count) : '';
      chip.classList.toggle('active', f === filter);
      chip.setAttribute('aria-pressed', String(f === filter));
      chip.classList.toggle('hot', f.key === 'waiting' && count > 0);
    }
    const shown = sortSessions(all.filter((s) => filter.test(s) && this.matchesQuery(s)));
    this.cluster = all.some((s) => s.node);
    this.nodeTh.hidden = !this.cluster;

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
          onclick: () => { ui.filter = 'all'; ui.query = ''; this.search.value = ''; this.render(); },
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
        node: h('td', { class: 'col-node mono', 'data-testid': 'session-node', hidden: true }),
        iter: h('td', { class: 'num col-iter' }),
        age: h('span'),
        last: h('span'),
        tokens: h('td', { class: 'num col-tokens mono' }),
      };
      r.tr.append(r.status, h('td', { class: 'col-title' }, r.link, r.sub), r.model, r.node, r.iter,
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
    const key = status + '|' + (s.runningBlock != null ? s.runningBlock : '') + '|' + !!s.stopped;
    if (r.statusKey !== key) {
      r.statusKey = key;
      r.status.replaceChildren(statusPill(status, s.runningBlock != null && status === 'executing' ? '#' + s.runningBlock : '', s.stopped));
    }
    r.link.textContent = sessionTitle(s);
    r.link.classList.toggle('untitled', !s.title);
    const sub = [h('span', { class: 'mono', text: id })];
    if (s.pendingApproval) {
      const p = s.pendingApproval;
      sub.push(h('span', { class: 'sub-alert', text: 'block #' + p.block + (p.language ? ' · ' + p.language : '') + ' waits for approval' }));
    } else if (s.runningBlock != null) {
      sub.push(h('span', { class: 'sub-run', text: 'running block #' + s.runningBlock }));
    }
    if (s.resumedFrom) sub.push(h('span', { class: 'sub-resumed', text: 'resumed from ' + s.resumedFrom }));
    if (s.stopped) sub.push(h('span', { class: 'sub-stopped', text: 'stopped', title: 'The session was stopped; its transcript is kept' }));
    r.sub.replaceChildren(...sub);
    r.model.textContent = s.model || '–';
    r.node.hidden = !this.cluster;
    r.node.textContent = s.node ? nodeName(s.node) : '–';
    r.node.title = s.node || '';
    r.iter.textContent = s.iterations != null ? String(s.iterations) : '–';
    setRel(r.age, s.started, 'age');
    setRel(r.last, s.lastActivity, 'ago');
    r.tokens.textContent = fmtCount(s.inputTokens) + ' / ' + fmtCount(s.outputTokens);
    r.tokens.title = tokensTitle(s.inputTokens, s.outputTokens);
    return r;
  }
}
