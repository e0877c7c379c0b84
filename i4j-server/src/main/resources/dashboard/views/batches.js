/*
 * Batches (run with `i4j batch --dashboard`, by the server, or on the cluster), above the sessions list: progress and
 * each task's status, linked to its session; on a cluster, with the node each task ran on.
 */
import { api } from '../api.js';
import { h } from '../dom.js';
import { enc, fmtSpan, nodeName, num } from '../format.js';
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
  // the fields of i4j batch --json's batch_progress (Progress.toJson)
  const etaMs = num(b.eta_ms, -1);
  const ratePerMin = num(b.rate_per_min, 0);
  const eta = etaMs >= 0 && finished < total ? ' · ETA ' + fmtSpan(etaMs) : '';
  const rate = ratePerMin > 0 ? ' · ' + ratePerMin.toFixed(1) + '/min' : '';
  const tasks = (Array.isArray(b.tasks) ? b.tasks : []).map((t) => {
    const kids = [statusPill(t.status === 'running' ? 'executing' : t.status), h('span', { class: 'batch-task-id', text: t.id })];
    if (t.node) kids.push(h('span', { class: 'batch-task-node', text: nodeName(t.node) }));
    if (t.error) kids.push(h('span', { class: 'batch-task-error', text: t.error }));
    const attrs = { class: 'batch-task', title: t.node ? 'ran on ' + t.node : null, dataset: { status: t.status } };
    if (t.node) attrs.dataset.node = t.node;
    return t.session
      ? h('a', { ...attrs, href: '#/session/' + enc(t.session) }, ...kids)
      : h('span', attrs, ...kids);
  });
  const omitted = num(b.tasks_omitted, 0);
  if (omitted > 0) {
    tasks.push(h('a', { class: 'batch-tasks-more', href: '/api/batches/' + enc(b.id) + '/results', target: '_blank',
      text: '+' + omitted + ' more (all results)' }));
  }
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
