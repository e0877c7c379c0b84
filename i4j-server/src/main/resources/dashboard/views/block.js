/*
 * One code block's card in the transcript: language, number, approval state, risk and flags, the code
 * (highlighted), notes on the decision (a denial's reason as its own element), the run's badge and its output.
 */
import { h, setRenderedHtml } from '../dom.js';
import { fmtDuration, setRel } from '../format.js';
import { highlight } from '../highlight.js';
import { BlockOutput } from './output.js';

const RISKS = ['low', 'medium', 'high'];
const FLAG_LEVELS = ['info', 'low', 'medium', 'warn', 'warning', 'high', 'danger', 'critical', 'block', 'deny'];

/** One risk flag of the safety analysis, as a list item. */
export function flagItem(f) {
  const level = String((f && f.level) || 'info').toLowerCase();
  return h('li', { class: 'flag flag-' + (FLAG_LEVELS.includes(level) ? level : 'info') },
    h('span', { class: 'flag-level', text: level }),
    f && f.rule ? h('span', { class: 'flag-rule mono', text: f.rule }) : null,
    h('span', { class: 'flag-reason', text: (f && f.reason) || '' }));
}

/** Shows risk ('low', 'medium', 'high' or another word) in el, or hides el. */
export function showRisk(el, risk) {
  el.hidden = !risk;
  if (risk) {
    el.className = 'risk risk-' + (RISKS.includes(risk) ? risk : 'unknown');
    el.textContent = 'risk: ' + risk;
  }
}

/** "by user", "by policy", "auto": who decided. */
function decidedBy(by) {
  return by === 'auto' ? 'auto' : by === 'policy' ? 'by policy' : by === 'user' ? 'by user' : by || '';
}

/**
 * A decision's reason as its own element: a label, then the reason's text set apart (quoted by the style sheet,
 * line breaks kept), so that it never runs into what follows.
 */
function reasonNote(label, reason, testId) {
  return h('p', { class: 'block-note block-reason' },
    h('span', { class: 'note-label', text: label + ':' }), ' ',
    h('span', { class: 'note-text', 'data-testid': testId, text: String(reason).trim() }));
}

export class BlockCard {
  /** fullHref: where the server serves the block's whole output. */
  constructor(n, language, code, fullHref) {
    this.n = n;
    this.language = language || '';
    this.code = code || '';
    this.origCode = code || '';
    this.approval = null;
    this.risk = null;
    this.flags = [];
    this.started = null;
    this.finished = null;
    this.cancelled = false;
    this.unterminated = false;
    this.ranEdited = false;
    this.reply = null;
    this.output = new BlockOutput(n, fullHref);
    const E = {};
    E.lang = h('span', { class: 'block-lang' });
    E.num = h('span', { class: 'block-num', text: '#' + n });
    E.state = h('span', { class: 'block-state' });
    E.risk = h('span', { class: 'risk', hidden: true });
    E.run = h('span', { class: 'block-run' });
    E.copy = h('button', { type: 'button', class: 'copy-btn', title: 'Copy code', text: 'Copy' });
    E.code = h('code', { class: 'hl' });
    E.notes = h('div', { class: 'block-notes', hidden: true });
    E.flags = h('ul', { class: 'flags', hidden: true });
    this.E = E;
    this.el = h('div', { class: 'block-card', dataset: { block: String(n) } },
      h('div', { class: 'block-head' }, E.lang, E.num, E.state, E.risk, h('span', { class: 'spacer' }), E.run, E.copy),
      h('pre', { class: 'block-code' }, E.code),
      E.notes, E.flags, this.output.el);
    this.setCode(code, language);
  }

  setCode(code, language) {
    if (language) this.language = language;
    this.code = code || '';
    this.E.lang.textContent = this.language || 'code';
    setRenderedHtml(this.E.code, highlight(this.code, this.language));
  }

  /** Redraws the head and notes; request: the approval question waiting for this block, if any. */
  renderHead(request) {
    const E = this.E;
    const a = this.approval;
    let text;
    let tone;
    if (a) {
      const by = decidedBy(a.by);
      if (a.decision === 'denied') { text = 'Denied' + (by ? ' · ' + by : ''); tone = 'red'; }
      else if (a.decision === 'edited') { text = 'Edited & approved' + (by ? ' · ' + by : ''); tone = 'green'; }
      else { text = 'Approved' + (by ? ' · ' + by : ''); tone = 'green'; }
    } else if (request) {
      text = 'Awaiting approval'; tone = 'alert';
    } else if (this.cancelled) {
      text = 'Not run'; tone = 'gray';
    } else if (this.unterminated) {
      text = 'Unterminated'; tone = 'orange';
    } else {
      text = 'Proposed'; tone = 'gray';
    }
    E.state.className = 'block-state tone-' + tone;
    E.state.textContent = text;
    this.el.classList.toggle('is-waiting', tone === 'alert');
    this.el.classList.toggle('is-denied', !!a && a.decision === 'denied');

    showRisk(E.risk, this.risk || (request || {}).risk);
    const flags = (a && a.flags && a.flags.length ? a.flags : null) || this.flags || [];
    E.flags.hidden = !flags.length;
    E.flags.replaceChildren(...flags.map(flagItem));

    const notes = [];
    if (a && a.reason && String(a.reason).trim()) {
      notes.push(a.decision === 'denied' ? reasonNote('Reason', a.reason, 'deny-reason') : reasonNote('Note', a.reason, 'approval-note'));
    }
    if (a && a.decision === 'edited') {
      notes.push(h('p', {
        class: 'block-note',
        text: this.ranEdited ? 'Edited before it ran: the code above is what ran.'
          : 'The code was edited before it ran; the code shown is the model’s original.',
      }));
    }
    E.notes.hidden = !notes.length;
    E.notes.replaceChildren(...notes);
  }

  /** exec_started: a spinner and the time running. */
  markStarted(ts) {
    this.started = ts || new Date().toISOString();
    this.output.started();
    this.E.run.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'running ', setRel(h('span'), this.started, 'elapsed'));
  }

  /** exec_finished: the exit badge and the duration. */
  markFinished(ev) {
    this.finished = ev;
    this.output.finished();
    let text;
    let tone;
    if (ev.timed_out) { text = 'timed out'; tone = 'orange'; }
    else if (ev.interrupted) { text = 'interrupted'; tone = 'gray'; }
    else if (ev.exit_code === 0) { text = 'exit 0'; tone = 'green'; }
    else { text = 'exit ' + (ev.exit_code != null ? ev.exit_code : '?'); tone = 'red'; }
    const badge = h('span', {
      class: 'exit-badge tone-' + tone, 'data-testid': 'exit-badge',
      dataset: { block: String(ev.block), exitCode: ev.exit_code != null ? String(ev.exit_code) : '' },
      title: 'exit code ' + ev.exit_code + (ev.timed_out ? ' (timed out)' : '') + (ev.interrupted ? ' (interrupted)' : ''),
      text,
    });
    this.E.run.replaceChildren(badge, ev.duration_ms != null ? h('span', { class: 'duration', text: fmtDuration(ev.duration_ms) }) : null);
  }

  flushOutput() {
    this.output.flush(this.finished);
  }
}
