/*
 * The sessions list and the header's counts, shared by every view: /api/sessions and /api/summary polled every
 * 5 s and refreshed sooner after changes; live events patch the list between refreshes (the next refresh corrects
 * it). Views and the header subscribe with onStoreChange.
 */
import { api, ApiError } from './api.js';
import { parseTs, num } from './format.js';
import { showError } from './notify.js';
import { isActive, isWaiting } from './status.js';

const POLL_MS = 5000;

export const store = {
  sessions: new Map(),
  loaded: false,
  listError: null,
  summary: null,
  summaryOk: false,
  appliedFrom: 0, // start time of the request whose list is in `sessions`
};

const listeners = [];
let refreshing = null;
let refreshAgain = false;
let refreshTimer = 0;
let changeQueued = false;

/** Calls fn after every change of the store. */
export function onStoreChange(fn) {
  listeners.push(fn);
}

function storeChanged() {
  for (const fn of listeners) fn();
}

/** Live events re-render at most ~5 times a second. */
function storeChangedSoon() {
  if (changeQueued) return;
  changeQueued = true;
  setTimeout(() => { changeQueued = false; storeChanged(); }, 200);
}

export function refreshNow() {
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

export function scheduleRefresh(delay) {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => { refreshTimer = 0; refreshNow(); }, delay == null ? 800 : delay);
}

export function startPolling() {
  refreshNow().finally(() => setTimeout(startPolling, POLL_MS));
}

/** The first line of the first message, at most 80 characters (SessionView.titleOf on the server). */
function titleOf(text) {
  const first = String(text || '').trim().split(/\r?\n/)[0] || '';
  return first.length > 80 ? first.slice(0, 77) + '...' : first;
}

/** Applies one live event to a session summary, for the list (the next refresh corrects it). */
function applyEventToSummary(s, ev) {
  if (ev.ts) s.lastActivity = ev.ts;
  switch (ev.type) {
    case 'user_message':
      // a session listed between its start and its first message gets its title now, as the server titles it
      if (!s.title) s.title = titleOf(ev.text);
      s.status = 'streaming';
      break;
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

/** An event of the all-sessions stream. */
export function applyGlobalEvent(ev) {
  if (!ev || ev.session == null) return;
  const s = store.sessions.get(String(ev.session));
  if (!s) { scheduleRefresh(200); return; }
  applyEventToSummary(s, ev);
  if (ev.type !== 'assistant_delta' && ev.type !== 'output') scheduleRefresh(800);
  storeChangedSoon();
}

/** Waiting ones first, then the most recently active. */
export function sortSessions(list) {
  const t = (s) => parseTs(s.lastActivity) || parseTs(s.started) || 0;
  return list.sort((a, b) => (isWaiting(b) - isWaiting(a)) || (t(b) - t(a)) || String(b.id).localeCompare(String(a.id)));
}

/**
 * The header's counts, from the same list and the same definitions (status.js) as the list's filters, so that
 * "N active" and the Active filter always agree; the server's summary (the same definitions) only while the list
 * could not be loaded. Null before either is known.
 */
export function counters() {
  if (store.loaded) {
    const list = [...store.sessions.values()];
    return {
      activeSessions: list.filter(isActive).length,
      runningBlocks: list.filter((s) => !s.stopped && s.runningBlock != null).length,
      approvalsWaiting: list.filter(isWaiting).length,
    };
  }
  if (store.summaryOk && store.summary) {
    return {
      activeSessions: num(store.summary.activeSessions, 0),
      runningBlocks: num(store.summary.runningBlocks, 0),
      approvalsWaiting: num(store.summary.approvalsWaiting, 0),
    };
  }
  return null;
}
