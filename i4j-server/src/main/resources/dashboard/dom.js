/*
 * Building the page safely. Everything the server or the model sends is put in the page with textContent and DOM
 * APIs (h); the only innerHTML assignments (setRenderedHtml) take the output of markdown.js or highlight.js, which
 * escape every input character and add only their own fixed tags.
 */

/** h('div', {class, text, dataset, onclick, ...attrs}, ...children): children are Nodes or text. */
export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v == null || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'value') el.value = v;
      else if (v === true) el.setAttribute(k, '');
      else el.setAttribute(k, String(v));
    }
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid == null || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

/** Sets escaped/trusted HTML produced by the highlighter or the markdown renderer (never raw strings). */
export function setRenderedHtml(el, renderedHtml) {
  el.innerHTML = renderedHtml;
}

/** Whether a key press lands in something the user types in (then single-key shortcuts stay off). */
export function isEditable(target) {
  return !!(target && target.closest && target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'));
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    const ta = h('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
    ta.remove();
    return ok;
  }
}
