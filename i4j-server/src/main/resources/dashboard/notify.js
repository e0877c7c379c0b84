/* Toasts: short messages in a corner of the page; errors of API calls are shown this way. */
import { h } from './dom.js';

const toastsEl = document.getElementById('toasts');
const recentToasts = new Map();

/** kind: 'error' | 'info' | 'success'. Identical toasts within 10 s are shown once. */
export function toast(message, opts) {
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

export function showError(err, context) {
  if (err && err.status === 401) return; // the banner says it
  const message = err && err.message ? err.message : String(err);
  toast(context ? context + ': ' + message : message, { detail: err && err.detail ? err.detail : '' });
}
