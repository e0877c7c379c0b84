/*
 * A session's transcript: the start line, your messages, the model's replies (markdown re-rendered while they
 * stream, code-block cards placed where their fences are), notices (errors, retries) and the end of each turn.
 * Follows the bottom of the page unless the user scrolled up ("↓ New activity" then).
 */
import { h, setRenderedHtml } from '../dom.js';
import { fmtClock, parseTs } from '../format.js';
import { renderMarkdown } from '../markdown.js';
import { statusInfo } from '../status.js';

const normCode = (s) => String(s == null ? '' : s).replace(/[ \t]+$/gm, '').replace(/^\s*\n/, '').replace(/\s+$/, '');

export class Transcript {
  /** blockCard(n): the session's card of block n, if any (to put into a reply where its fence is). */
  constructor(blockCard) {
    this.blockCard = blockCard;
    this.replies = [];
    this.currentReply = null;      // the reply still being written (not final), if any
    this.lastReply = null;
    this.turn = 0;                 // count of turn_finished seen
    this.turnErrors = [];          // the error notices of the turn running (its end does not repeat them)
    this.dirtyReplies = new Set();
    this.follow = true;
    this.newBelow = false;
    this.el = h('div', { class: 'transcript', 'data-testid': 'transcript', role: 'log', 'aria-label': 'Transcript' });
    this.jump = h('button', {
      type: 'button', class: 'jump', hidden: true,
      onclick: () => { this.follow = true; this.scrollToBottom(); },
    }, '↓ New activity');
  }

  timeEl(ts) {
    const t = parseTs(ts);
    if (t == null) return null;
    return h('time', { class: 'ts', datetime: new Date(t).toISOString(), title: new Date(t).toLocaleString(), text: fmtClock(t) });
  }

  append(node) {
    this.el.append(node);
    if (!this.follow) this.newBelow = true;
  }

  sessionStarted(ev) {
    this.append(h('div', { class: 'session-start' },
      h('span', { text: 'Session started' }),
      ev.model ? h('span', null, ' · model ', h('span', { class: 'mono', text: ev.model })) : null,
      ev.cwd ? h('span', null, ' · in ', h('span', { class: 'mono', text: ev.cwd })) : null,
      this.timeEl(ev.ts)));
  }

  userMessage(ev) {
    this.closeReply();
    this.append(h('div', { class: 'msg msg-user' },
      h('div', { class: 'msg-head' }, h('span', { class: 'msg-who', text: 'You' }), this.timeEl(ev.ts)),
      h('div', { class: 'bubble', text: ev.text || '' })));
  }

  notice(kind, message, detail, ts) {
    this.append(h('div', { class: 'notice notice-' + kind, role: kind === 'error' ? 'alert' : null },
      h('span', { class: 'notice-icon', 'aria-hidden': 'true', text: kind === 'error' ? '✕' : '↻' }),
      h('div', { class: 'notice-body' }, h('div', { class: 'notice-msg', text: message }),
        detail ? h('div', { class: 'notice-detail', text: detail }) : null),
      this.timeEl(ts)));
  }

  error(ev) {
    const message = ev.message || 'error';
    this.turnErrors.push(message);
    this.notice('error', message, null, ev.ts);
  }

  /**
   * The end of a turn: a divider with its status and iterations, and its reason unless an error notice of this
   * turn already said it (a failed model call publishes both; the transcript shows the text once).
   */
  turnEnded(ev) {
    this.closeReply();
    const info = ev.status ? statusInfo(ev.status, false) : { label: 'finished', tone: 'gray' };
    const parts = [info.label];
    if (ev.iterations != null) parts.push(ev.iterations + (ev.iterations === 1 ? ' iteration' : ' iterations'));
    const reason = typeof ev.reason === 'string' ? ev.reason.trim() : '';
    const saidAbove = !!reason && this.turnErrors.some((m) => m.includes(reason));
    this.append(h('div', { class: 'turn-end tone-' + info.tone, dataset: { status: ev.status || '' }, 'data-testid': 'turn-end' },
      h('div', { class: 'turn-end-line' },
        h('span', { class: 'turn-end-label' }, 'Turn finished · ', h('strong', { text: parts.join(' · ') })),
        this.timeEl(ev.ts)),
      reason && !saidAbove ? h('div', { class: 'turn-end-reason', text: reason }) : null));
    this.turn++;
    this.turnErrors = [];
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

  /** The latest reply of the turn running, if any (where a block seen out of order goes). */
  replyOfThisTurn() {
    return this.lastReply && this.lastReply.turn === this.turn ? this.lastReply : null;
  }

  delta(ev) {
    const r = this.openReply(ev);
    r.text += ev.text || '';
    this.dirtyReplies.add(r);
  }

  message(ev) {
    const r = this.openReply(ev);
    r.text = ev.text || '';
    r.final = true;
    this.currentReply = null;
    this.dirtyReplies.add(r);
  }

  closeReply() {
    const r = this.currentReply;
    if (r && !r.final) {
      r.final = true;
      this.dirtyReplies.add(r);
    }
    this.currentReply = null;
  }

  /** retry: the partial text of the failed call is discarded; returns its blocks (the caller forgets undecided ones). */
  discardOpenReply() {
    const r = this.currentReply;
    if (!r || r.final) return [];
    r.el.remove();
    this.dirtyReplies.delete(r);
    this.replies = this.replies.filter((x) => x !== r);
    this.currentReply = null;
    this.lastReply = this.replies[this.replies.length - 1] || null;
    return r.blocks;
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
      const b = this.blockCard(Number(slot.dataset.slot));
      if (b) slot.replaceWith(b.el);
      else slot.remove();
    }
    for (const b of r.blocks) if (!used.has(b)) r.extraEl.append(b.el);
    r.textEl.hidden = !r.text.trim();
    r.el.classList.toggle('streaming', !r.final);
  }

  /** Re-renders changed replies; a reply still streaming is redrawn less often the longer it is. Returns whether some waited. */
  flushReplies() {
    let deferred = false;
    for (const r of [...this.dirtyReplies]) {
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
    return deferred;
  }

  // ------------------------------------------------------------ following the bottom

  /** After a redraw: to the bottom when following, else the "new activity" button if something was added. */
  settle(follow) {
    if (follow) this.scrollToBottom();
    else if (this.newBelow) this.jump.hidden = false;
  }

  handleScroll() {
    const doc = document.documentElement;
    this.follow = window.innerHeight + window.scrollY >= doc.scrollHeight - 120;
    if (this.follow) {
      this.newBelow = false;
      this.jump.hidden = true;
    }
  }

  scrollToBottom() {
    window.scrollTo(0, document.documentElement.scrollHeight);
    this.newBelow = false;
    this.jump.hidden = true;
  }
}
