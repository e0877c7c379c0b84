/* The "New session" form (a <dialog> in index.html): message, model, working folder, auto-run, max iterations. */
import { api, ApiError } from '../api.js';
import { enc } from '../format.js';
import { showError } from '../notify.js';
import { scheduleRefresh } from '../store.js';

export const newSession = {
  dialog: document.getElementById('new-session-dialog'),
  form: document.getElementById('new-session-form'),

  init() {
    const { form, dialog } = this;
    for (const b of dialog.querySelectorAll('[data-close]')) b.addEventListener('click', () => dialog.close());
    form.addEventListener('submit', (e) => { e.preventDefault(); this.submit(); });
    form.elements.message.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); form.requestSubmit(); }
    });
    form.elements.autoRun.addEventListener('change', () => this.syncAutoRun());
    dialog.addEventListener('close', () => this.setError(''));
  },

  open() {
    const { form, dialog } = this;
    if (dialog.open) return;
    try {
      const last = JSON.parse(localStorage.getItem('i4j.newSession') || '{}');
      if (!form.elements.model.value && last.model) form.elements.model.value = last.model;
      if (!form.elements.workdir.value && last.workdir) form.elements.workdir.value = last.workdir;
    } catch (e) { /* ignore */ }
    this.syncAutoRun();
    this.setError('');
    dialog.showModal();
    form.elements.message.focus();
  },

  syncAutoRun() {
    const on = this.form.elements.autoRun.checked;
    this.form.querySelector('.autorun-warning').hidden = !on;
    this.form.querySelector('.autorun-hint').hidden = on;
  },

  setError(msg) {
    const el = this.form.querySelector('.form-error');
    el.textContent = msg;
    el.hidden = !msg;
  },

  async submit() {
    const f = this.form.elements;
    const message = f.message.value;
    if (!message.trim()) {
      this.setError('Write a message for the model.');
      f.message.focus();
      return;
    }
    const body = { message };
    const model = f.model.value.trim();
    const workdir = f.workdir.value.trim();
    const maxIt = f.maxIterations.value.trim();
    if (model) body.model = model;
    if (workdir) body.workdir = workdir;
    body.autoRun = !!f.autoRun.checked;
    if (maxIt) {
      const n = Number(maxIt);
      if (!Number.isInteger(n) || n < 1) {
        this.setError('Max iterations must be a whole number ≥ 1.');
        f.maxIterations.focus();
        return;
      }
      body.maxIterations = n;
    }
    const submitBtn = this.form.querySelector('button[type=submit]');
    submitBtn.disabled = true;
    submitBtn.textContent = 'Starting…';
    this.setError('');
    try {
      const res = await api('POST', '/api/sessions', body);
      if (!res || res.id == null) throw new ApiError(0, 'The server did not return a session id');
      try { localStorage.setItem('i4j.newSession', JSON.stringify({ model, workdir })); } catch (e) { /* ignore */ }
      this.dialog.close();
      f.message.value = '';
      f.autoRun.checked = false;
      f.maxIterations.value = '';
      location.hash = '#/session/' + enc(res.id);
      scheduleRefresh(150);
    } catch (e) {
      this.setError(e.status === 401 ? 'Not authenticated: open the URL printed by `i4j serve` (it contains ?token=...).'
        : e.message + (e.detail ? ': ' + e.detail : ''));
      showError(e, 'Could not start the session');
    } finally {
      submitBtn.disabled = false;
      submitBtn.textContent = 'Start session';
    }
  },
};
