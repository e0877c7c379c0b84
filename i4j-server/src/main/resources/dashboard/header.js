/*
 * The page header's counts (active sessions, running blocks, approvals waiting), the document title and the
 * favicon, which turns to "!" while an approval waits. The view on screen supplies its title (showing).
 */
import { h } from './dom.js';
import { counters } from './store.js';

const el = {
  active: document.getElementById('count-active'),
  running: document.getElementById('count-running'),
  approvals: document.getElementById('count-approvals'),
};
let view = null;
let faviconAlert = null;

/** The view on screen; its optional titleInfo() gives {title, needsApproval}. */
export function showing(v) {
  view = v;
}

/** The "approvals waiting" button, for its click handler. */
export const approvalsButton = el.approvals;

export function renderHeader() {
  const c = counters();
  if (!c) return;
  el.active.textContent = c.activeSessions + ' active';
  el.active.title = 'Sessions with a turn running now';
  el.running.textContent = c.runningBlocks + (c.runningBlocks === 1 ? ' running block' : ' running blocks');
  const n = c.approvalsWaiting;
  el.approvals.replaceChildren(
    h('span', { class: 'badge-num', text: String(n) }),
    n === 1 ? ' approval waiting' : ' approvals waiting');
  el.approvals.dataset.count = String(n);
  el.approvals.classList.toggle('hot', n > 0);
  el.approvals.disabled = n === 0;
  el.approvals.title = n > 0 ? 'Go to the first session waiting for approval' : 'No approvals waiting';
}

export function setFavicon(alert) {
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

export function updateDocTitle() {
  const waiting = (counters() || { approvalsWaiting: 0 }).approvalsWaiting;
  const own = view && view.titleInfo ? view.titleInfo() : null;
  let t;
  if (own && own.needsApproval) {
    t = '(!) Approval needed — ' + own.title;
  } else {
    const prefix = waiting > 0 ? '(!) ' + waiting + ' waiting · ' : '';
    t = prefix + (own ? own.title : 'Sessions') + ' — interpreter4j';
  }
  if (document.title !== t) document.title = t;
  setFavicon(waiting > 0 || !!(own && own.needsApproval));
}
