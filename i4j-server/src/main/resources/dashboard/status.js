/*
 * What a session's status means to the dashboard: its label and tone, and the one definition of "active",
 * "waiting", "finished" and "failed" that the header counts and the sessions list's filters both use. "Active" is
 * what the server's /api/summary counts as activeSessions: a session not stopped with a turn running.
 */
import { h } from './dom.js';

const STATUS = {
  streaming: { label: 'Streaming', tone: 'blue' },
  awaiting_approval: { label: 'Needs approval', tone: 'alert' },
  executing: { label: 'Executing', tone: 'violet' },
  done: { label: 'Done', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  gave_up: { label: 'Gave up', tone: 'orange' },
  interrupted: { label: 'Interrupted', tone: 'gray' },
  blocked: { label: 'Blocked', tone: 'red' },
};
/** `idle`: the session has had no turn. Open, it waits for a first message; stopped, nothing was ever said. */
const NO_TURN_OPEN = { label: 'Ready', tone: 'gray', title: 'No message yet: the session waits for a first one' };
const NO_TURN_STOPPED = { label: 'Empty', tone: 'gray', title: 'Nothing was said in this session before it ended' };

/** Statuses in which a turn is running (as the server's SessionView.RUNNING). */
export const RUNNING = new Set(['streaming', 'awaiting_approval', 'executing']);
const FAILED = new Set(['failed', 'gave_up', 'blocked']);

/** The label, tone and (maybe) tooltip of a status; stopped matters only for a session with no turn. */
export function statusInfo(status, stopped) {
  if (status === 'idle') return stopped ? NO_TURN_STOPPED : NO_TURN_OPEN;
  return STATUS[status] || { label: status || 'unknown', tone: 'gray' };
}

/** Whether a session has had no turn (its journal holds no message). */
export const hasNoTurn = (s) => s.status === 'idle';
/** A turn is running now: counted in the header's "N active" and under the Active filter. */
export const isActive = (s) => !s.stopped && RUNNING.has(s.status);
/** A block waits for a person's decision: the header's "approvals waiting" and the Waiting approval filter. */
export const isWaiting = (s) => !s.stopped && (s.status === 'awaiting_approval' || !!s.pendingApproval);
export const isFailed = (s) => FAILED.has(s.status);
/** Not running and not failed: its last turn ended done or interrupted, or it has had no turn. */
export const isFinished = (s) => !isActive(s) && !isFailed(s);

/** The sessions list's filters: Active, Finished and Failed split All; Waiting approval is a part of Active. */
export const FILTERS = [
  { key: 'all', label: 'All', test: () => true },
  { key: 'active', label: 'Active', test: isActive, title: 'A turn is running now' },
  { key: 'waiting', label: 'Waiting approval', test: isWaiting, title: 'A block waits for your decision' },
  { key: 'finished', label: 'Finished', test: isFinished, title: 'Done, interrupted, or no turn at all' },
  { key: 'failed', label: 'Failed', test: isFailed, title: 'Failed, gave up or blocked' },
];

/** The title a session is shown with; a session without messages says so. */
export function sessionTitle(s) {
  if (s.title) return s.title;
  return hasNoTurn(s) ? '(no messages)' : '(untitled)';
}

export function statusPill(status, extra, stopped) {
  const info = statusInfo(status, stopped);
  return h('span', { class: 'pill tone-' + info.tone, dataset: { status: status || '' }, title: info.title || null },
    h('span', { class: 'pill-dot', 'aria-hidden': 'true' }), info.label, extra ? h('span', { class: 'pill-extra', text: extra }) : null);
}
