/* The composer under a session's transcript: a follow-up message, sent when no turn is running and the session is open. */
import { api } from '../api.js';
import { h } from '../dom.js';
import { showError } from '../notify.js';

const HINTS = {
  stopped: 'This session was stopped: it takes no more messages. Its transcript stays here.',
  approval: 'The session is waiting for your approval above. You can send a message when the turn ends.',
  running: 'The model is working: you can send a message when this turn ends (or Interrupt it).',
};

export class Composer {
  /**
   * base: the session's API path; hooks: busy() ('stopped', 'approval', 'running' or null when a message may be
   * sent now), sent() (the server took the message).
   */
  constructor(base, hooks) {
    this.base = base;
    this.hooks = hooks;
    this.sending = false;
    this.input = h('textarea', {
      class: 'input composer-input', rows: 1, 'data-testid': 'message-input', 'aria-label': 'Message to the model',
      placeholder: 'Send a follow-up message…',
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && !e.altKey) { e.preventDefault(); this.send(); }
    });
    this.input.addEventListener('input', () => { this.autosize(); this.update(); });
    this.sendBtn = h('button', { type: 'submit', class: 'btn btn-primary', 'data-testid': 'send-button', text: 'Send' });
    this.hint = h('div', { class: 'composer-hint' });
    this.el = h('form', { class: 'composer', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      h('div', { class: 'composer-row' }, this.input, this.sendBtn), this.hint);
  }

  update() {
    const busy = this.hooks.busy();
    this.input.disabled = !!busy || this.sending;
    this.sendBtn.disabled = !!busy || this.sending || !this.input.value.trim();
    this.hint.textContent = busy === 'stopped' ? HINTS.stopped : this.sending ? 'Sending…'
      : busy ? HINTS[busy] : 'Enter to send · Shift+Enter for a new line';
    this.el.classList.toggle('busy', !!busy);
  }

  autosize() {
    const ta = this.input;
    ta.style.height = 'auto';
    ta.style.height = Math.min(ta.scrollHeight + 2, 240) + 'px';
  }

  async send() {
    const text = this.input.value;
    if (!text.trim() || this.hooks.busy() || this.sending) return;
    this.sending = true;
    this.update();
    try {
      await api('POST', this.base + '/messages', { text });
      this.input.value = '';
      this.autosize();
      this.hooks.sent();
    } catch (e) {
      showError(e, 'Message not sent');
    } finally {
      this.sending = false;
      this.update();
      const busy = this.hooks.busy();
      if (busy !== 'running' && busy !== 'approval') this.input.focus();
    }
  }
}
