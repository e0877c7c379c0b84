/*
 * interpreter4j dashboard: the entry module. Plain ES2020 modules served as they are (no framework, no build
 * step), loaded by index.html with <script type="module">.
 *
 *   api.js, connection.js   HTTP API, event streams, the "reconnecting" and "not authenticated" indicators
 *   store.js, status.js     the sessions list polled and patched live; what a status means ("active", ...)
 *   header.js, router.js    header counts, document title and favicon; #/ and #/session/ID
 *   views/                  sessions list (+ batches, new-session form), one session's page (head, transcript,
 *                           block cards and their output, approval dock, composer)
 *   dom.js, format.js, dialogs.js, notify.js, markdown.js, highlight.js   shared helpers
 *
 * Safety: everything the server or the model sends is put in the page with textContent / DOM APIs (dom.js).
 */
import { refreshRelativeTimes } from './format.js';
import { approvalsButton, renderHeader, setFavicon, updateDocTitle } from './header.js';
import { currentView, route } from './router.js';
import { isEditable } from './dom.js';
import { onStoreChange, scheduleRefresh, startPolling } from './store.js';
import { newSession } from './views/new-session.js';
import { SessionView } from './views/session.js';
import { goToFirstWaiting, SessionsView } from './views/sessions.js';

/** The token has done its job once the cookie is set: it leaves the address bar. */
function stripToken() {
  const u = new URL(location.href);
  if (!u.searchParams.has('token')) return;
  u.searchParams.delete('token');
  history.replaceState(history.state, '', u.pathname + u.search + u.hash);
}

/** N: new session (not while an approval card waits for A/D/E); /: search the sessions list. */
function globalKeys(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isEditable(e.target) || document.querySelector('dialog[open]')) return;
  const view = currentView();
  if (e.key === 'n' && !(view instanceof SessionView && view.dock && view.dock.card)) {
    e.preventDefault();
    newSession.open();
  } else if (e.key === '/' && view instanceof SessionsView) {
    e.preventDefault();
    view.focusSearch();
  }
}

function boot() {
  stripToken();
  newSession.init();
  onStoreChange(() => {
    renderHeader();
    const view = currentView();
    if (view && view.onStore) view.onStore();
    updateDocTitle();
  });
  document.getElementById('new-session').addEventListener('click', () => newSession.open());
  approvalsButton.addEventListener('click', goToFirstWaiting);
  document.addEventListener('keydown', globalKeys);
  window.addEventListener('hashchange', route);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) scheduleRefresh(50); });
  setInterval(refreshRelativeTimes, 1000);
  setFavicon(false);
  route();
  startPolling();
}

boot();
