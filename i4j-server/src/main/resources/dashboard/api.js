/*
 * The server's HTTP API (JSON over fetch, with the dashboard's cookie) and its event streams (EventSource). A tab
 * keeps at most one stream open (the all-sessions stream on the sessions list, the session's own on a session
 * page), so that several dashboard tabs stay under HTTP/1.1's six connections per host.
 */
import { auth, conn } from './connection.js';

const EVENT_TYPES = ['session_started', 'user_message', 'assistant_delta', 'assistant_message', 'code_block',
  'approval', 'approval_requested', 'exec_started', 'output', 'image', 'html', 'computer_action', 'exec_finished', 'retry',
  'usage', 'turn_finished', 'error'];

export class ApiError extends Error {
  constructor(status, message, detail) {
    super(message);
    this.status = status;
    this.detail = detail || '';
  }
}

/** One API call; resolves with the JSON answer, rejects with an ApiError (status 0: the server is unreachable). */
export async function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (method !== 'GET' && method !== 'HEAD') {
    init.headers['Content-Type'] = 'application/json';
    if (body !== undefined) init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    conn.reachable(false);
    throw new ApiError(0, 'Cannot reach the server', e && e.message);
  }
  conn.reachable(true);
  if (res.status === 401) {
    auth.fail();
    throw new ApiError(401, 'Not authenticated', 'open the URL printed by `i4j serve` (it contains ?token=...)');
  }
  auth.ok();
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (e) { data = null; }
  }
  if (!res.ok) {
    const error = data && typeof data.error === 'string' && data.error ? data.error : res.status + ' ' + (res.statusText || 'error');
    const detail = data && data.detail != null ? String(data.detail) : data ? '' : text.slice(0, 300);
    throw new ApiError(res.status, error, detail);
  }
  return data;
}

/** One EventSource with a reconnect indicator; reopens itself (with backoff) when the browser gives up. */
export class EventStream {
  constructor(url, onEvent) {
    this.url = url;
    this.onEvent = onEvent;
    this.es = null;
    this.state = 'connecting';
    this.closed = false;
    this.retryMs = 1000;
    this.timer = 0;
    conn.track(this);
  }

  open() {
    if (this.closed) return;
    const es = new EventSource(this.url);
    this.es = es;
    const handler = (e) => {
      if (this.closed || !e.data) return;
      let ev;
      try { ev = JSON.parse(e.data); } catch (err) { return; }
      if (ev && typeof ev === 'object') this.onEvent(ev);
    };
    es.onmessage = handler;
    for (const t of EVENT_TYPES) es.addEventListener(t, handler); // in case the server names its events
    // `event: end`: the session has ended and its stream is complete. Without closing here the browser would
    // reconnect every few seconds for ever (and show "reconnecting…"), replaying nothing each time.
    es.addEventListener('end', () => {
      if (this.closed) return;
      es.close();
      this.setState('ended');
      if (this.onEnd) this.onEnd();
    });
    es.onopen = () => { this.retryMs = 1000; this.setState('open'); };
    es.onerror = () => {
      if (this.closed || this.state === 'ended') return;
      if (es.readyState === EventSource.CLOSED) {
        es.close();
        this.setState('down');
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.open(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, 30000);
        if (this.onDown) this.onDown();
      } else {
        this.setState('reconnecting');
      }
    };
    return this;
  }

  setState(s) {
    this.state = s;
    conn.update();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
    conn.forget(this);
  }
}
