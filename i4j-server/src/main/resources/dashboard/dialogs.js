/* Modal dialogs built on <dialog>: a confirmation and a one-field prompt, each resolving with the answer. */
import { h } from './dom.js';

/** Opens a modal <dialog>; build(done) returns its content; resolves with the value given to done (or null). */
function openDialog(build, className) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'modal ' + (className || 'modal-small') });
    let result = null;
    const done = (v) => { result = v; dlg.close(); };
    dlg.append(build(done));
    dlg.addEventListener('close', () => { dlg.remove(); resolve(result); });
    document.body.append(dlg);
    dlg.showModal();
    const focus = dlg.querySelector('[autofocus]');
    if (focus) focus.focus();
  });
}

/** Resolves true when confirmed, false otherwise. */
export function confirmDialog({ title, message, confirmLabel = 'Confirm', danger = false }) {
  return openDialog((done) => {
    const form = h('form', { method: 'dialog', onsubmit: (e) => { e.preventDefault(); done(true); } },
      h('div', { class: 'modal-head' }, h('h2', { text: title })),
      h('div', { class: 'modal-body' }, h('p', { text: message })),
      h('div', { class: 'modal-foot' },
        h('button', { type: 'button', class: 'btn', text: 'Cancel', onclick: () => done(false) }),
        h('button', { type: 'submit', class: 'btn ' + (danger ? 'btn-danger' : 'btn-primary'), text: confirmLabel, autofocus: true })));
    return form;
  }).then((v) => v === true);
}

/** Resolves with the text typed (maybe empty), or null when cancelled. */
export function promptDialog({ title, message, label, placeholder = '', confirmLabel = 'OK', danger = false }) {
  return openDialog((done) => {
    const input = h('textarea', { rows: 3, placeholder, autofocus: true, class: 'input' });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || !e.shiftKey)) { e.preventDefault(); done(input.value); }
    });
    return h('form', { method: 'dialog', onsubmit: (e) => { e.preventDefault(); done(input.value); } },
      h('div', { class: 'modal-head' }, h('h2', { text: title })),
      h('div', { class: 'modal-body' },
        message ? h('p', { text: message }) : null,
        h('label', { class: 'field' }, h('span', { class: 'label', text: label }), input)),
      h('div', { class: 'modal-foot' },
        h('span', { class: 'hint', text: 'Enter to confirm · Shift+Enter for a new line' }),
        h('button', { type: 'button', class: 'btn', text: 'Cancel', onclick: () => done(null) }),
        h('button', { type: 'submit', class: 'btn ' + (danger ? 'btn-danger' : 'btn-primary'), text: confirmLabel })));
  });
}
