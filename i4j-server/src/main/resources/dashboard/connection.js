/*
 * How the page's link to the server is doing: the "not authenticated" banner after a 401, and the
 * "reconnecting…" / "server unreachable" indicator fed by the API calls and the open event streams.
 */
import { h } from './dom.js';

const streams = new Set();

export const conn = {
  netDown: false,
  /** Registers an event stream whose state the indicator shows (until forget). */
  track(stream) {
    streams.add(stream);
  },
  forget(stream) {
    streams.delete(stream);
    this.update();
  },
  reachable(ok) {
    if (this.netDown === !ok) return;
    this.netDown = !ok;
    this.update();
  },
  update() {
    const el = document.getElementById('conn');
    const bad = [...streams].some((s) => s.state === 'reconnecting' || s.state === 'down');
    el.hidden = auth.failed || !(bad || this.netDown); // the auth banner explains a 401 better
    el.textContent = this.netDown ? 'server unreachable · retrying…' : 'reconnecting…';
  },
};

export const auth = {
  failed: false,
  fail() {
    if (this.failed) return;
    this.failed = true;
    const banner = document.getElementById('banner');
    banner.replaceChildren(
      h('strong', { text: 'Not authenticated: ' }),
      'open the URL printed by ', h('code', { text: 'i4j serve' }), ' (it contains ', h('code', { text: '?token=...' }), ').');
    banner.hidden = false;
    conn.update();
  },
  ok() {
    if (!this.failed) return;
    this.failed = false;
    document.getElementById('banner').hidden = true;
    conn.update();
  },
};
