/*
 * One session's page (#/session/ID): its head (title, status, model, counters; Interrupt and Stop), the live
 * transcript of its events, the approval dock and the composer for follow-up messages. The session's own event
 * stream drives it; events are applied at once and drawn at most once a frame (flush).
 */
import { api, EventStream } from '../api.js';
import { copyText, h } from '../dom.js';
import { enc } from '../format.js';
import { updateDocTitle } from '../header.js';
import { RUNNING, sessionTitle } from '../status.js';
import { scheduleRefresh, store } from '../store.js';
import { ApprovalDock } from './approval.js';
import { BlockCard } from './block.js';
import { Composer } from './composer.js';
import { SessionHead } from './session-head.js';
import { Transcript } from './transcript.js';

export class SessionView {
  constructor(id) {
    this.id = id;
    this.base = '/api/sessions/' + enc(id);
    const known = store.sessions.get(id);
    this.meta = known ? { ...known } : { id };
    this.maxSeq = 0;
    this.blocks = new Map();       // block number -> BlockCard
    this.firstUserText = '';
    this.cwd = null;
    this.dirtyOutputs = new Set();
    this.flushQueued = false;
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
    this.onKey = (e) => this.dock.handleKey(e);
    this.onScroll = () => this.transcript.handleScroll();
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
    this.head = new SessionHead(this.id, this.base);
    this.transcript = new Transcript((n) => this.blocks.get(n));
    this.transcript.el.addEventListener('click', (e) => this.onTranscriptClick(e));
    const approvalSlot = h('div', { class: 'approval-slot' });
    this.dock = new ApprovalDock(this.base, approvalSlot, {
      blockCard: (n) => this.blocks.get(n),
      settled: (n) => { const b = this.blocks.get(n); if (b) this.renderBlockHead(b); },
      changed: () => updateDocTitle(),
    });
    this.composer = new Composer(this.base, {
      busy: () => this.busyReason(),
      sent: () => { this.setStatus('streaming'); this.transcript.follow = true; this.scheduleFlush(); },
    });
    this.root.replaceChildren(this.head.el, h('section', { class: 'page session-page' }, this.transcript.el, this.transcript.jump,
      h('div', { class: 'dock' }, approvalSlot, this.composer.el)));
    this.renderHead();
    this.composer.update();
  }

  /** The document title's part: the session's title, and whether an approval card is up. */
  titleInfo() {
    return { title: this.titleText(), needsApproval: !!(this.dock && this.dock.card) };
  }

  titleText() {
    const fromFirstMessage = this.firstUserText ? this.firstUserText.split('\n')[0].slice(0, 80) : '';
    return this.meta.title || fromFirstMessage || (this.meta.status === 'idle' ? sessionTitle(this.meta) + ' · ' + this.id : this.id);
  }

  /** Whether a new message must wait: 'stopped', 'approval', 'running', or null when it may be sent. */
  busyReason() {
    if (this.meta.stopped) return 'stopped';
    if (!RUNNING.has(this.meta.status)) return null;
    return this.meta.status === 'awaiting_approval' ? 'approval' : 'running';
  }

  // ------------------------------------------------------------ store + header

  onStore() {
    if (!this.head) return;
    const s = store.sessions.get(this.id);
    if (s) {
      Object.assign(this.meta, s);
      const added = this.dock.fromList(s.pendingApproval, store.appliedFrom);
      const b = added != null ? this.blocks.get(added) : null;
      if (b && !b.approval) this.renderBlockHead(b);
    }
    this.renderHead();
    this.composer.update();
  }

  setStatus(status) {
    if (!status || this.meta.status === status) return;
    this.meta.status = status;
    const s = store.sessions.get(this.id);
    if (s) s.status = status;
  }

  renderHead() {
    if (this.head) this.head.render(this.meta, this.titleText(), this.cwd, this.busyReason());
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
    const T = this.transcript;
    switch (ev.type) {
      case 'session_started':
        this.cwd = ev.cwd || null;
        if (ev.model && !this.meta.model) this.meta.model = ev.model;
        T.sessionStarted(ev);
        break;
      case 'user_message':
        if (!this.firstUserText) this.firstUserText = ev.text || '';
        T.userMessage(ev);
        this.setStatus('streaming');
        break;
      case 'assistant_delta':
        T.delta(ev);
        this.setStatus('streaming');
        break;
      case 'assistant_message':
        T.message(ev);
        break;
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
        this.blockFor(ev.block, ev.language, null).markStarted(ev.ts);
        this.meta.runningBlock = ev.block;
        this.setStatus('executing');
        break;
      case 'output': {
        const b = this.blockFor(ev.block, ev.language, null);
        if (b.output.append(ev.stream, ev.text)) this.dirtyOutputs.add(b);
        break;
      }
      case 'image': {
        // the API counts a session's images 1, 2, ... in the order of their events, as this page sees them
        this.imageCount = (this.imageCount || 0) + 1;
        const b = this.blockFor(ev.block, null, null);
        if (b.output.image(this.base + '/images/' + this.imageCount, ev)) this.dirtyOutputs.add(b);
        break;
      }
      case 'html': {
        // counted 1, 2, ... per session like images, in the order of their events
        this.htmlCount = (this.htmlCount || 0) + 1;
        const b = this.blockFor(ev.block, null, null);
        if (b.output.html(this.base + '/html/' + this.htmlCount, ev)) this.dirtyOutputs.add(b);
        break;
      }
      case 'computer_action': {
        // a line in the block's output; the screenshot it took follows as the block's image
        const b = this.blockFor(ev.block, null, null);
        if (b.output.action(ev)) this.dirtyOutputs.add(b);
        break;
      }
      case 'exec_finished': {
        const b = this.blockFor(ev.block, null, null);
        b.markFinished(ev);
        if (this.meta.runningBlock === ev.block) this.meta.runningBlock = null;
        this.dirtyOutputs.add(b); // the footer (full output link) is drawn by the flush
        break;
      }
      case 'retry':
        this.onRetry(ev);
        break;
      case 'usage':
        scheduleRefresh(1500); // the session summary has the totals
        break;
      case 'turn_finished':
        this.onTurnFinished(ev);
        break;
      case 'error':
        T.error(ev);
        break;
      default:
        break; // unknown event types are ignored
    }
  }

  // ------------------------------------------------------------ code blocks

  renderBlockHead(b) {
    b.renderHead(this.dock.request(b.n));
  }

  newBlock(n, language, code) {
    const b = new BlockCard(n, language, code, this.base + '/blocks/' + enc(n) + '/output');
    this.blocks.set(n, b);
    this.renderBlockHead(b);
    return b;
  }

  /** The block with this number; made (and placed in the latest reply of this turn) if unseen. */
  blockFor(n, language, code) {
    let b = this.blocks.get(n);
    if (b) return b;
    b = this.newBlock(n, language, code);
    const r = this.transcript.replyOfThisTurn();
    if (r) {
      b.reply = r;
      r.blocks.push(b);
      this.transcript.dirtyReplies.add(r);
    } else {
      this.transcript.append(b.el);
    }
    return b;
  }

  onCodeBlock(ev) {
    const n = ev.block;
    const r = this.transcript.openReply(ev);
    let b = this.blocks.get(n);
    if (b && (b.approval || b.started)) {
      // a block number seen again after it was decided: keep the old card, show the new one separately
      b.el.removeAttribute('data-block');
      this.blocks.delete(n);
      b = null;
    }
    if (!b) {
      b = this.newBlock(n, ev.language, ev.code);
    } else {
      if (b.reply && b.reply !== r) b.reply.blocks = b.reply.blocks.filter((x) => x !== b);
      b.setCode(ev.code, ev.language);
      b.origCode = ev.code || '';
    }
    b.unterminated = !!ev.unterminated;
    if (b.reply !== r) {
      b.reply = r;
      r.blocks.push(b);
    }
    this.renderBlockHead(b);
    this.transcript.dirtyReplies.add(r);
  }

  onApprovalRequested(ev) {
    if (this.dock.decided.has(ev.block)) return;
    const b = this.blockFor(ev.block, ev.language, ev.code);
    if (!b.code && ev.code) b.setCode(ev.code, ev.language);
    if (ev.risk) b.risk = ev.risk;
    if (ev.flags) b.flags = ev.flags;
    this.dock.asked(ev, b.language, b.code);
    this.renderBlockHead(b);
    this.setStatus('awaiting_approval');
  }

  onApproval(ev) {
    const n = ev.block;
    const req = this.dock.answered(n);
    const b = this.blockFor(n, req && req.language, req && req.code);
    b.approval = ev;
    if (ev.risk) b.risk = ev.risk;
    if (ev.flags && ev.flags.length) b.flags = ev.flags;
    // An edited block shows the code that ran: the event carries it (edits made here, in the terminal or by API).
    const ran = ev.decision === 'edited' ? (typeof ev.code === 'string' ? ev.code : this.dock.editedHere(n)) : null;
    if (ran != null) {
      b.setCode(ran, b.language);
      b.ranEdited = true;
    }
    this.renderBlockHead(b);
    if (this.meta.status === 'awaiting_approval') this.setStatus('executing');
  }

  /** retry: the partial reply of the failed call goes, with its undecided blocks. */
  onRetry(ev) {
    for (const b of this.transcript.discardOpenReply()) {
      if (!b.approval && !b.started && !this.dock.request(b.n)) this.blocks.delete(b.n);
    }
    this.transcript.notice('retry', 'Retrying the model call' + (ev.attempt != null ? ' (attempt ' + ev.attempt + ')' : ''), ev.reason, ev.ts);
    this.setStatus('streaming');
  }

  onTurnFinished(ev) {
    this.dock.turnEnded();
    for (const b of this.blocks.values()) {
      if (!b.approval && !b.started) { b.cancelled = true; this.renderBlockHead(b); }
    }
    this.transcript.turnEnded(ev);
    this.meta.runningBlock = null;
    this.setStatus(ev.status);
  }

  // ------------------------------------------------------------ drawing

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
    const follow = this.transcript.follow;
    if (this.transcript.flushReplies()) setTimeout(() => this.scheduleFlush(), 50);
    for (const b of this.dirtyOutputs) b.flushOutput();
    this.dirtyOutputs.clear();
    this.renderHead();
    this.composer.update();
    updateDocTitle();
    this.transcript.settle(follow);
  }
}
