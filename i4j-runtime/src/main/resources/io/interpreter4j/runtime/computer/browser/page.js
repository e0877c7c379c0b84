// The browser's view of a page, run by BrowserSession through Playwright's evaluate: (element, {op, ...}).
//   snapshot: the accessibility tree under element as text, each element with a role tagged data-i4j-ref="eN"
//             (kept across snapshots; new ones numbered from nextRef); returns {text, nextRef, truncated}
//   describe: what an action on element needs to know first (role, name, password field, submits a form, link)
//   focused:  the same for the focused element (press), or null
(el, arg) => {
  const ATTR = 'data-i4j-ref';
  const flat = s => (s || '').replace(/\s+/g, ' ').trim();
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

  const inputRole = input => {
    const type = (input.getAttribute('type') || 'text').toLowerCase();
    if (type === 'hidden') return null;
    if (['button', 'submit', 'reset', 'image', 'file'].includes(type)) return 'button';
    if (type === 'checkbox') return 'checkbox';
    if (type === 'radio') return 'radio';
    if (type === 'range') return 'slider';
    if (type === 'number') return 'spinbutton';
    if (type === 'search') return input.hasAttribute('list') ? 'combobox' : 'searchbox';
    return input.hasAttribute('list') ? 'combobox' : 'textbox';
  };
  const IMPLICIT = {
    button: 'button', textarea: 'textbox', option: 'option', h1: 'heading', h2: 'heading', h3: 'heading',
    h4: 'heading', h5: 'heading', h6: 'heading', ul: 'list', ol: 'list', li: 'listitem', nav: 'navigation',
    main: 'main', header: 'banner', footer: 'contentinfo', aside: 'complementary', form: 'form', table: 'table',
    tr: 'row', td: 'cell', th: 'columnheader', dialog: 'dialog', p: 'paragraph', details: 'group',
    fieldset: 'group', summary: 'button', progress: 'progressbar', article: 'article', hr: 'separator',
    iframe: 'iframe', blockquote: 'blockquote', meter: 'meter'
  };
  const role = node => {
    const explicit = (node.getAttribute('role') || '').trim().split(/\s+/)[0];
    if (explicit === 'none' || explicit === 'presentation') return null;
    if (explicit) return explicit;
    const tag = node.localName;
    if (tag === 'a' || tag === 'area') return node.hasAttribute('href') ? 'link' : null;
    if (tag === 'input') return inputRole(node);
    if (tag === 'select') return node.multiple || node.size > 1 ? 'listbox' : 'combobox';
    if (tag === 'img') return node.getAttribute('alt') === '' ? null : 'img';
    if (tag === 'section') return node.hasAttribute('aria-label') || node.hasAttribute('aria-labelledby') ? 'region' : null;
    return IMPLICIT[tag] || null;
  };
  const FROM_CONTENT = new Set(['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'cell', 'columnheader', 'rowheader', 'switch', 'treeitem', 'tooltip', 'checkbox', 'radio']);
  const LEAF = new Set(['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'switch', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'slider', 'spinbutton', 'img',
    'progressbar', 'meter', 'separator', 'iframe']);
  const labelText = (label, control) => {
    const copy = label.cloneNode(true);
    copy.querySelectorAll('input, select, textarea, button').forEach(x => x.remove());
    return copy.textContent;
  };
  const name = (node, r) => {
    const by = node.getAttribute('aria-labelledby');
    if (by) {
      const text = flat(by.split(/\s+/).map(id => document.getElementById(id))
        .filter(Boolean).map(x => x.innerText || x.textContent).join(' '));
      if (text) return text;
    }
    const aria = flat(node.getAttribute('aria-label'));
    if (aria) return aria;
    const tag = node.localName;
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      const type = (node.getAttribute('type') || '').toLowerCase();
      if (type === 'submit' || type === 'reset' || type === 'button') {
        return flat(node.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      }
      if (type === 'image') return flat(node.alt) || 'Submit';
      if (node.labels && node.labels.length) {
        const text = flat([...node.labels].map(l => labelText(l, node)).join(' '));
        if (text) return text;
      }
      return flat(node.getAttribute('title') || node.getAttribute('placeholder'));
    }
    if (tag === 'img') return flat(node.getAttribute('alt') || node.getAttribute('title'));
    if (tag === 'fieldset') {
      const legend = node.querySelector(':scope > legend');
      if (legend) return flat(legend.textContent);
    }
    if (tag === 'table' && node.caption) return flat(node.caption.textContent);
    if (FROM_CONTENT.has(r)) return cut(flat(node.innerText || node.textContent) || flat(node.getAttribute('title')), 120);
    return flat(node.getAttribute('title'));
  };
  const states = (node, r) => {
    const out = [];
    if (r === 'heading') {
      const level = node.getAttribute('aria-level') || (/^h[1-6]$/.test(node.localName) ? node.localName[1] : '');
      if (level) out.push('level=' + level);
    }
    if (r === 'checkbox' || r === 'radio' || r === 'switch' || r === 'menuitemcheckbox') {
      const aria = node.getAttribute('aria-checked');
      if (aria === 'mixed' || node.indeterminate) out.push('checked=mixed');
      else if (aria === 'true' || node.checked) out.push('checked');
    }
    if (node.disabled || node.getAttribute('aria-disabled') === 'true') out.push('disabled');
    const expanded = node.getAttribute('aria-expanded');
    if (expanded === 'true') out.push('expanded');
    if (r === 'option' && (node.selected || node.getAttribute('aria-selected') === 'true')) out.push('selected');
    if (node.required) out.push('required');
    return out;
  };
  const value = (node, r) => {
    if (r === 'textbox' || r === 'searchbox' || r === 'spinbutton' || r === 'slider' || r === 'combobox') {
      if (node.localName === 'select') {
        return flat([...node.selectedOptions].map(o => o.textContent).join(', '));
      }
      if (node.localName === 'input' && (node.getAttribute('type') || '').toLowerCase() === 'password') {
        return node.value ? '••••' : '';
      }
      if ('value' in node) return cut(flat(String(node.value)), 200);
      if (node.isContentEditable) return cut(flat(node.innerText), 200);
    }
    return '';
  };
  const isPassword = node => node.localName === 'input' && (node.getAttribute('type') || '').toLowerCase() === 'password';
  const submits = node => {
    const tag = node.localName;
    const type = (node.getAttribute('type') || '').toLowerCase();
    if (tag === 'button') return (type === '' || type === 'submit') && !!node.form;
    if (tag === 'input') return (type === 'submit' || type === 'image') && !!node.form;
    return false;
  };
  const formOf = node => (node.form ? node.form : node.closest ? node.closest('form') : null);
  const describe = node => {
    if (!node) return null;
    const r = role(node);
    const form = formOf(node);
    const link = node.closest('a[href], area[href]');
    return {
      role: r || node.localName, name: name(node, r), password: isPassword(node), submits: submits(node),
      formAction: form ? form.action : '', inForm: !!form, link: link ? link.href : '',
      tag: node.localName, editable: node.isContentEditable || (['input', 'textarea', 'select'].includes(node.localName)
        && !node.disabled && !node.readOnly),
      singleLine: node.localName === 'input'
    };
  };

  if (arg.op === 'describe') return describe(el);
  if (arg.op === 'focused') {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active && active !== document.body && active !== document.documentElement ? describe(active) : null;
  }

  // snapshot
  let next = arg.nextRef;
  let visited = 0;
  let truncated = false;
  const maxNodes = arg.maxNodes;
  // items: {text} or {line, children}
  const walk = node => {
    const items = [];
    items.push = item => {
      const last = items[items.length - 1];
      if (item.text !== undefined && !item.raw && last && last.text !== undefined && !last.raw) {
        last.text += ' ' + item.text;
        return items.length;
      }
      return Array.prototype.push.call(items, item);
    };
    const kids = node.shadowRoot ? [...node.shadowRoot.childNodes, ...node.childNodes] : [...node.childNodes];
    for (const child of kids) {
      if (++visited > maxNodes) { truncated = true; break; }
      if (child.nodeType === Node.TEXT_NODE) {
        const text = flat(child.textContent);
        if (text) items.push({ text });
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      if (['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link'].includes(child.localName)) continue;
      if (child.hidden || child.getAttribute('aria-hidden') === 'true') continue;
      const style = getComputedStyle(child);
      if (style.display === 'none') continue;
      const r = role(child);
      const shown = style.display === 'contents' || (style.visibility !== 'hidden' && child.getClientRects().length > 0);
      if (!r || !shown) {
        const inner = walk(child);
        if (inner.length && inner.every(i => i.text !== undefined)) {
          items.push({ text: inner.map(i => i.text).join(' ') });
        } else {
          inner.forEach(i => items.push(i));
        }
        if (r && !shown) continue;
        continue;
      }
      let ref = child.getAttribute(ATTR);
      if (!ref) {
        ref = 'e' + next++;
        child.setAttribute(ATTR, ref);
      }
      const n = name(child, r);
      let line = r + (n ? ' ' + JSON.stringify(n) : '') + states(child, r).map(s => ' [' + s + ']').join('') + ' [ref=' + ref + ']';
      const v = value(child, r);
      const children = [];
      if (r === 'link' && child.href) children.push({ text: '/url: ' + cut(child.href, 300), raw: true });
      if (!LEAF.has(r)) {
        const inner = walk(child);
        if (inner.length && inner.every(i => i.text !== undefined && !i.raw)) {
          const text = cut(inner.map(i => i.text).join(' '), 500);
          if (text !== n) line += ': ' + text;
        } else {
          inner.forEach(i => children.push(i));
        }
      } else if (v) {
        line += ': ' + v;
      }
      items.push({ line, children });
    }
    return items;
  };
  const lines = [];
  const render = (items, depth) => {
    const pad = '  '.repeat(depth);
    for (const item of items) {
      if (item.raw) lines.push(pad + '- ' + item.text);
      else if (item.text !== undefined) lines.push(pad + '- text: ' + cut(item.text, 500));
      else {
        lines.push(pad + '- ' + item.line + (item.children.length ? ':' : ''));
        render(item.children, depth + 1);
      }
    }
  };
  render(walk(el), 0);
  return { text: lines.join('\n'), nextRef: next, truncated };
}
