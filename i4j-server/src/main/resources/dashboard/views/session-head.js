/* The head of a session's page: back link, title, status, Interrupt and Stop, and a line of facts (model, id, age, tokens, ...). */
import { api } from '../api.js';
import { confirmDialog } from '../dialogs.js';
import { h } from '../dom.js';
import { fmtCount, setRel, tokensTitle } from '../format.js';
import { showError, toast } from '../notify.js';
import { statusPill } from '../status.js';
import { scheduleRefresh } from '../store.js';

export class SessionHead {
  /** id: the session's id; base: its API path. */
  constructor(id, base) {
    this.id = id;
    this.base = base;
    this.title = h('h1', { class: 'session-title' });
    this.pill = h('span', { class: 'session-pill' });
    this.meta = h('div', { class: 'session-meta' });
    this.interruptBtn = h('button', {
      type: 'button', class: 'btn btn-warn', 'data-testid': 'interrupt-button', hidden: true,
      title: 'Stop what the session is doing now (model writing, approval wait or running code); the session stays open',
      onclick: () => this.interrupt(),
    }, 'Interrupt');
    this.stopBtn = h('button', {
      type: 'button', class: 'btn btn-danger-outline', 'data-testid': 'stop-button',
      title: 'Stop the session for good (its transcript is kept)', onclick: () => this.stop(),
    }, 'Stop session');
    this.el = h('div', { class: 'session-head' }, h('div', { class: 'session-head-inner' },
      h('div', { class: 'session-head-row' },
        h('a', { class: 'back', href: '#/', title: 'All sessions', 'aria-label': 'All sessions', text: '←' }),
        this.title, this.pill, h('span', { class: 'spacer' }), this.interruptBtn, this.stopBtn),
      this.meta));
  }

  /** m: the session's summary; title: what to call it; cwd: its folder, if known; busy: as SessionView.busyReason. */
  render(m, title, cwd, busy) {
    this.title.textContent = title;
    this.title.title = title;
    const pillKey = (m.status || '') + '|' + (m.runningBlock != null ? m.runningBlock : '') + '|' + !!m.stopped;
    if (this.pillKey !== pillKey) {
      this.pillKey = pillKey;
      const extra = m.stopped ? 'stopped' : m.status === 'executing' && m.runningBlock != null ? '#' + m.runningBlock : '';
      this.pill.replaceChildren(statusPill(m.status, extra, m.stopped));
    }
    const items = [];
    const item = (label, value, cls) => h('span', { class: 'meta-item ' + (cls || '') }, h('span', { class: 'meta-label', text: label }), value);
    items.push(item('model', h('span', { class: 'mono', text: m.model || '–' })));
    items.push(item('id', h('span', { class: 'mono', text: this.id })));
    if (m.started) items.push(item('age', setRel(h('span'), m.started, 'age')));
    if (m.lastActivity) items.push(item('last activity', setRel(h('span'), m.lastActivity, 'ago')));
    items.push(item('iterations', h('span', { text: m.iterations != null ? String(m.iterations) : '–' })));
    items.push(item('tokens', h('span', {
      class: 'mono', text: fmtCount(m.inputTokens) + ' in / ' + fmtCount(m.outputTokens) + ' out',
      title: tokensTitle(m.inputTokens, m.outputTokens),
    })));
    if (m.resumedFrom) items.push(item('resumed from', h('span', { class: 'mono', text: m.resumedFrom })));
    if (cwd) items.push(item('cwd', h('span', { class: 'mono', text: cwd, title: cwd }), 'meta-cwd'));
    this.meta.replaceChildren(...items);
    this.interruptBtn.hidden = busy !== 'running' && busy !== 'approval';
    this.stopBtn.hidden = !!m.stopped;
  }

  async interrupt() {
    const btn = this.interruptBtn;
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
}
