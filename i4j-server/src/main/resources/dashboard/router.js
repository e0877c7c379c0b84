/* Hash routes: #/ the sessions list, #/session/ID one session's live transcript. One view is mounted at a time. */
import { showing, updateDocTitle } from './header.js';
import { SessionView } from './views/session.js';
import { SessionsView } from './views/sessions.js';

const viewEl = document.getElementById('view');
let current = null;

export function currentView() {
  return current;
}

function parseRoute() {
  const m = /^#\/session\/([^/?#]+)/.exec(location.hash);
  if (m) {
    let id;
    try { id = decodeURIComponent(m[1]); } catch (e) { id = m[1]; }
    return { key: 'session:' + id, make: () => new SessionView(id) };
  }
  return { key: 'sessions', make: () => new SessionsView() };
}

/** Mounts the view the address names (nothing changes if it is already mounted). */
export function route() {
  const r = parseRoute();
  if (current && current.key === r.key) return;
  if (current) current.unmount();
  viewEl.replaceChildren();
  current = r.make();
  current.key = r.key;
  showing(current);
  document.body.dataset.view = r.key === 'sessions' ? 'sessions' : 'session';
  current.mount(viewEl);
  window.scrollTo(0, 0);
  updateDocTitle();
}
