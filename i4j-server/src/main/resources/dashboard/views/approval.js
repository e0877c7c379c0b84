/*
 * The approval dock above the composer: the questions a session asks (approval_requested), the card of the first
 * one (code, language, risk and flags; Approve, Deny with a reason, Edit then approve; keys A, D, E), and the
 * answer sent to POST /api/sessions/{id}/blocks/{n}/approval. A question is settled by its `approval` event, the
 * end of its turn, or a later list from the server that no longer shows it.
 */
import { api } from '../api.js';
import { h, isEditable, setRenderedHtml } from '../dom.js';
import { promptDialog } from '../dialogs.js';
import { enc } from '../format.js';
import { highlight } from '../highlight.js';
import { showError, toast } from '../notify.js';
import { scheduleRefresh } from '../store.js';
import { flagItem, showRisk } from './block.js';

export class ApprovalDock {
  /**
   * base: the session's API path; slot: where the card goes; hooks: blockCard(n) (the transcript's card, to scroll
   * to), settled(n) (a question went without its approval event), changed() (the card came or went).
   */
  constructor(base, slot, hooks) {
    this.base = base;
    this.slot = slot;
    this.hooks = hooks;
    this.pending = new Map();      // block -> approval request {block, language, code, risk, flags, fromPoll}
    this.decided = new Set();      // blocks whose approval was decided or cancelled
    this.localEdits = new Map();   // block -> code approved after editing here
    this.card = null;
  }

  /** The question waiting for block n, if any. */
  request(n) {
    return this.pending.get(n);
  }

  /** approval_requested; false when the block was already decided (a replay). */
  asked(ev, fallbackLanguage, fallbackCode) {
    const n = ev.block;
    if (this.decided.has(n)) return false;
    this.pending.set(n, {
      block: n, language: ev.language || fallbackLanguage, code: ev.code != null ? ev.code : fallbackCode,
      risk: ev.risk || null, flags: ev.flags || [],
    });
    this.render();
    return true;
  }

  /** approval: the question is settled; returns what was asked (or undefined). */
  answered(n) {
    const req = this.pending.get(n);
    this.decided.add(n);
    this.pending.delete(n);
    this.render();
    return req;
  }

  /** The code approved after an edit here, for an edited block whose event does not carry it. */
  editedHere(n) {
    return this.localEdits.get(n);
  }

  /** turn_finished: every question of the turn is settled. */
  turnEnded() {
    for (const n of this.pending.keys()) this.decided.add(n);
    this.pending.clear();
    this.render();
  }

  /**
   * The session's row of a fresh list: a question the events have not shown yet (or a stream that is down) still
   * gets its card; one only the list knew goes when the list stops showing it; after a decision was sent, a list
   * fetched later that no longer shows the block settles it. Returns the block now waiting from the list, if new.
   */
  fromList(pendingApproval, appliedFrom) {
    const p = pendingApproval ? { ...pendingApproval, block: Number(pendingApproval.block) } : null;
    let added = null;
    if (p && Number.isFinite(p.block) && !this.decided.has(p.block) && !this.pending.has(p.block)) {
      this.pending.set(p.block, { ...p, fromPoll: true });
      added = p.block;
    }
    for (const [n, entry] of this.pending) {
      if (entry.fromPoll && !(p && p.block === n)) this.pending.delete(n);
    }
    const card = this.card;
    if (card && card.sentAt && appliedFrom > card.sentAt && !(p && p.block === card.block)) {
      this.decided.add(card.block);
      this.pending.delete(card.block);
    }
    this.render();
    return added;
  }

  firstPending() {
    let best = null;
    for (const [n, p] of this.pending) {
      if (this.decided.has(n)) continue;
      if (best == null || n < best.block) best = p;
    }
    return best;
  }

  render() {
    const p = this.firstPending();
    const cur = this.card;
    if (!p) {
      if (cur) {
        cur.el.remove();
        this.card = null;
        this.hooks.changed();
      }
      return;
    }
    if (cur && cur.block === p.block) {
      cur.update(p);
      return;
    }
    if (cur) cur.el.remove();
    this.card = this.buildCard(p);
    this.slot.append(this.card.el);
    if (document.activeElement === document.body || !document.activeElement) this.card.el.focus({ preventScroll: true });
    this.hooks.changed();
  }

  buildCard(p) {
    const card = { block: p.block, code: p.code || '', editing: false, busy: false, sentAt: 0 };
    const riskEl = h('span', { class: 'risk', hidden: true });
    const flagsEl = h('ul', { class: 'flags', hidden: true });
    const codeEl = h('code', { class: 'hl' });
    const pre = h('pre', { class: 'ac-code' }, codeEl);
    const editor = h('textarea', { class: 'ac-editor', spellcheck: 'false', 'aria-label': 'Edit the code, then approve it', hidden: true });
    const status = h('span', { class: 'ac-status', role: 'status' });
    const approveBtn = h('button', { type: 'button', class: 'btn btn-approve', 'data-testid': 'approve-button', onclick: () => this.decide(card.editing ? 'approve-edited' : 'approve') });
    const denyBtn = h('button', { type: 'button', class: 'btn btn-deny', 'data-testid': 'deny-button', onclick: () => this.decide('deny') });
    const editBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'edit-button', onclick: () => card.setEditing(!card.editing) });
    const langEl = h('span', { class: 'ac-lang' });
    card.el = h('section', {
      class: 'approval-card', 'data-testid': 'approval-card', dataset: { block: String(p.block) }, tabindex: '-1',
      role: 'region', 'aria-label': 'Approval needed for block ' + p.block,
    },
    h('div', { class: 'ac-head' },
      h('span', { class: 'ac-icon', 'aria-hidden': 'true', text: '!' }),
      h('h2', { class: 'ac-title', text: 'Approval needed' }),
      h('span', { class: 'ac-block', text: 'Block #' + p.block }), langEl, riskEl,
      h('span', { class: 'spacer' }),
      h('a', {
        href: '#', class: 'ac-jump', text: 'show in transcript',
        onclick: (e) => {
          e.preventDefault();
          const b = this.hooks.blockCard(p.block);
          if (b) b.el.scrollIntoView({ block: 'center', behavior: 'smooth' });
        },
      })),
    flagsEl, pre, editor,
    h('div', { class: 'ac-actions' }, approveBtn, denyBtn, editBtn, status,
      h('span', { class: 'spacer' }), h('span', { class: 'ac-keys', text: 'Keys: A approve · D deny · E edit' })));

    const label = (btn, text, key) => btn.replaceChildren(text, key ? h('kbd', { text: key }) : null);
    card.update = (req) => {
      card.code = req.code != null ? req.code : card.code;
      langEl.textContent = req.language || '';
      if (!card.editing) setRenderedHtml(codeEl, highlight(card.code, req.language));
      showRisk(riskEl, req.risk);
      const flags = req.flags || [];
      flagsEl.hidden = !flags.length;
      flagsEl.replaceChildren(...flags.map(flagItem));
    };
    card.setEditing = (on) => {
      if (card.busy) return;
      card.editing = on;
      card.el.classList.toggle('editing', on);
      pre.hidden = on;
      editor.hidden = !on;
      label(approveBtn, on ? 'Approve edited' : 'Approve', on ? null : 'A');
      label(editBtn, on ? 'Cancel edit' : 'Edit', on ? null : 'E');
      if (on) {
        editor.value = card.code;
        editor.rows = Math.min(Math.max(card.code.split('\n').length + 1, 4), 18);
        editor.focus();
      } else {
        card.el.focus({ preventScroll: true });
      }
    };
    card.setBusy = (text, sent) => {
      card.busy = !!text;
      if (sent) card.sentAt = Date.now();
      for (const btn of [approveBtn, denyBtn, editBtn]) btn.disabled = card.busy;
      editor.readOnly = card.busy;
      status.textContent = text || '';
    };
    editor.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.decide('approve-edited'); }
      else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); card.setEditing(false); }
    });
    label(approveBtn, 'Approve', 'A');
    label(denyBtn, 'Deny…', 'D');
    label(editBtn, 'Edit', 'E');
    card.update(p);
    return card;
  }

  async decide(kind) {
    const card = this.card;
    if (!card || card.busy) return;
    const n = card.block;
    let body;
    if (kind === 'deny') {
      const reason = await promptDialog({
        title: 'Deny block #' + n,
        message: 'The block will not run. The model is told it was denied, with your reason if you give one.',
        label: 'Reason (optional)', placeholder: 'e.g. do not delete files outside the project',
        confirmLabel: 'Deny', danger: true,
      });
      if (reason === null || this.card !== card) return;
      body = { decision: 'deny' };
      if (reason.trim()) body.reason = reason.trim();
    } else if (kind === 'approve-edited') {
      const code = card.el.querySelector('.ac-editor').value;
      body = { decision: 'approve' };
      if (code !== card.code) {
        body.code = code;
        this.localEdits.set(n, code);
      }
    } else {
      body = { decision: 'approve' };
    }
    card.setBusy('Sending…');
    try {
      await api('POST', this.base + '/blocks/' + enc(n) + '/approval', body);
      card.setBusy(body.decision === 'deny' ? 'Denied · waiting for the session…' : 'Approved · waiting for the session…', true);
      scheduleRefresh(1500);
    } catch (e) {
      if (e.status === 409) {
        toast('Block #' + n + ': already decided', { kind: 'info', detail: e.detail });
        this.decided.add(n);
        this.pending.delete(n);
        this.render();
        this.hooks.settled(n);
        scheduleRefresh(200);
      } else {
        card.setBusy(null);
        showError(e, 'Block #' + n + ': decision not sent');
      }
    }
  }

  /** Keys A, D and E answer the card (not while typing or while a dialog is open). */
  handleKey(e) {
    const card = this.card;
    if (!card || card.busy || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
    if (isEditable(e.target) || document.querySelector('dialog[open]')) return;
    const k = e.key.toLowerCase();
    if (k === 'a') { e.preventDefault(); this.decide(card.editing ? 'approve-edited' : 'approve'); }
    else if (k === 'd') { e.preventDefault(); this.decide('deny'); }
    else if (k === 'e') { e.preventDefault(); card.setEditing(!card.editing); }
  }
}
