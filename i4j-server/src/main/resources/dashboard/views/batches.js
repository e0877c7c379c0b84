/* Batches run with `i4j batch --dashboard`, above the sessions list: progress and each task's status, linked to its session. */
import { api } from '../api.js';
import { h } from '../dom.js';
import { enc, fmtSpan, num } from '../format.js';
import { statusPill } from '../status.js';

/** Fetches /api/batches and shows one card per batch in el (hidden when there is none). */
export async function loadBatches(el) {
  let data;
  try {
    data = await api('GET', '/api/batches');
  } catch (e) {
    return;
  }
  const list = (data && Array.isArray(data.batches)) ? data.batches : [];
  el.hidden = list.length === 0;
  el.replaceChildren(...list.map(batchCard));
}

function batchCard(b) {
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
      ? h('a', { class: 'batch-task', href: '#/session/' + enc(t.session), dataset: { status: t.status } }, ...kids)
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
