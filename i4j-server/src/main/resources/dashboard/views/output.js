/*
 * A block's live output under its card: stdout and stderr as they arrive, drawn at most once a frame, bounded in
 * the page (the oldest output is dropped past OUTPUT_CAP characters, with a link to the full output on the server),
 * and the images the block showed, in place among its output; a click shows one at full size. HTML a block showed
 * is drawn in a sandboxed frame (no scripts, no same-origin access; the server adds a policy that loads nothing).
 * What the block did on the computer (computer_action events) is a line each, before the screenshot it took.
 */
import { h } from '../dom.js';
import { fmtBytes, stripAnsi } from '../format.js';

const OUTPUT_CAP = 200 * 1024;        // characters of live output kept in the DOM per block
const OUTPUT_CHUNK = 8 * 1024;        // characters per <span> of output (granularity of trimming)

export class BlockOutput {
  /** n: the block's number; fullHref: where the server serves its whole output. */
  constructor(n, fullHref) {
    this.fullHref = fullHref;
    this.chunks = [];
    this.total = 0;
    this.dropped = 0;
    this.pending = [];
    this.pendingLen = 0;
    this.stick = true;
    this.pre = h('pre', { class: 'block-output', 'data-testid': 'block-output', dataset: { block: String(n) } });
    this.pre.addEventListener('scroll', () => {
      this.stick = this.pre.scrollHeight - this.pre.scrollTop - this.pre.clientHeight < 24;
    }, { passive: true });
    this.droppedEl = h('div', { class: 'out-dropped', hidden: true });
    this.foot = h('div', { class: 'out-foot', hidden: true });
    this.el = h('div', { class: 'block-out', hidden: true }, this.droppedEl, this.pre, this.foot);
  }

  /** The block started running: the output area shows, marked running. */
  started() {
    this.el.hidden = false;
    this.el.classList.add('running');
  }

  /** The block finished (flush draws its footer). */
  finished() {
    this.el.hidden = false;
    this.el.classList.remove('running');
    this.el.classList.add('finished');
  }

  /** Queues text for the next flush; while the tab is hidden the queue is bounded too. */
  append(stream, text) {
    if (!text) return false;
    this.pending.push([stream === 'stderr' ? 'stderr' : 'stdout', stripAnsi(String(text))]);
    this.pendingLen += text.length;
    while (this.pendingLen > OUTPUT_CAP * 2 && this.pending.length > 1) {
      const [, t] = this.pending.shift();
      this.pendingLen -= t.length;
      this.dropped += t.length;
    }
    this.el.hidden = false;
    return true;
  }

  /** Queues an image the block showed (an image event), served at src, to be drawn after the text before it. */
  image(src, ev) {
    this.pending.push(['image', { src, ev }]);
    this.el.hidden = false;
    return true;
  }

  /** Queues an HTML document the block showed (an html event), served at src, for a sandboxed frame. */
  html(src, ev) {
    this.pending.push(['html', { src, ev }]);
    this.el.hidden = false;
    return true;
  }

  /** Queues a line for an action on the computer (a computer_action event). */
  action(ev) {
    this.pending.push(['action', ev]);
    this.el.hidden = false;
    return true;
  }

  /** Draws what was queued; finished: the block's exec_finished event, if any. */
  flush(finished) {
    const el = this.pre;
    for (const [stream, text] of this.pending) {
      if (stream === 'action') {
        el.append(actionLine(text));
        this.chunks.push({ stream, node: null, len: 0 });
        continue;
      }
      if (stream === 'image' || stream === 'html') {
        el.append(stream === 'image' ? imageFigure(text.src, text.ev) : htmlFrame(text.src, text.ev));
        this.chunks.push({ stream, node: null, len: 0 }); // text after the image starts a span of its own
        continue;
      }
      const last = this.chunks[this.chunks.length - 1];
      if (last && last.stream === stream && last.len + text.length <= OUTPUT_CHUNK) {
        last.node.firstChild.appendData(text);
        last.len += text.length;
      } else {
        const node = h('span', { class: stream === 'stderr' ? 'out-err' : 'out-std', text });
        el.append(node);
        this.chunks.push({ stream, node, len: text.length });
      }
      this.total += text.length;
    }
    this.pending = [];
    this.pendingLen = 0;
    while (this.total > OUTPUT_CAP && this.chunks.length) {
      const first = this.chunks[0];
      if (!first.node) { this.chunks.shift(); continue; } // an image stays; it is not counted as output
      const excess = this.total - OUTPUT_CAP;
      if (first.len <= excess) {
        first.node.remove();
        this.chunks.shift();
        this.total -= first.len;
        this.dropped += first.len;
      } else {
        first.node.firstChild.deleteData(0, excess);
        first.len -= excess;
        this.total -= excess;
        this.dropped += excess;
      }
    }
    const fullLink = () => h('a', { href: this.fullHref, target: '_blank', rel: 'noopener', class: 'full-output', text: 'full output' });
    if (this.dropped) {
      this.droppedEl.hidden = false;
      this.droppedEl.replaceChildren('… ' + fmtBytes(this.dropped) + ' of earlier output not shown here · ', fullLink());
    }
    if (finished) {
      const bits = [];
      bits.push(fullLink()); // the server serves every ended block's output (from the journal when output_file is null)
      if (finished.truncated) bits.push(h('span', { class: 'muted', text: 'the model saw only the head and tail of this output' }));
      this.foot.hidden = !bits.length;
      this.foot.replaceChildren(...bits);
    }
    if (this.stick) el.scrollTop = el.scrollHeight;
  }
}

/** One action on the computer: what (mouse.click), where (model coordinates), what was typed, the page, the result. */
function actionLine(ev) {
  const where = ev.x != null && ev.y != null ? ' (' + ev.x + ', ' + ev.y + ')' : '';
  const bits = [ev.action + where];
  if (ev.ref) bits.push('ref ' + ev.ref);
  if (ev.text != null && ev.text !== '') bits.push(JSON.stringify(ev.text));
  if (ev.url) bits.push(ev.url);
  return h('div', { class: 'out-action' + (ev.ok ? '' : ' out-action-failed'), 'data-testid': 'computer-action',
    dataset: { action: ev.action } },
    h('span', { class: 'out-action-what', text: (ev.ok ? '\u25b8 ' : '\u2717 ') + bits.join(' \u00b7 ') }),
    h('span', { class: 'out-action-result', text: ev.result ? ' \u2014 ' + ev.result : '' }));
}

/** An image in the output: its size and source in the caption; a click opens it at full size in a dialog. */
function imageFigure(src, ev) {
  const label = 'image ' + ev.width + 'x' + ev.height + ' · ' + ev.source;
  const img = h('img', { class: 'out-image', src, alt: label, loading: 'lazy', width: ev.width, height: ev.height,
    'data-testid': 'block-image', title: 'Click to enlarge' });
  img.addEventListener('click', () => enlarge(src, label));
  return h('figure', { class: 'out-figure' }, img, h('figcaption', { text: label }));
}

/**
 * HTML in the output, in a frame with the sandbox attribute and no allowances: no script runs, the document has an
 * origin of its own (no cookie, no API), forms and pop-ups are off. The caption links to it in a tab of its own.
 */
function htmlFrame(src, ev) {
  const label = 'html · ' + fmtBytes(ev.bytes);
  const frame = h('iframe', { class: 'out-html', src, sandbox: true, referrerpolicy: 'no-referrer', loading: 'lazy',
    title: 'HTML shown by block ' + ev.block, 'data-testid': 'block-html' });
  return h('figure', { class: 'out-figure' }, frame, h('figcaption', {},
    label + ' · ', h('a', { href: src, target: '_blank', rel: 'noopener noreferrer', text: 'open' })));
}

function enlarge(src, label) {
  const dlg = h('dialog', { class: 'modal image-modal', 'data-testid': 'image-dialog' },
    h('img', { src, alt: label }), h('p', { class: 'muted', text: label + ' · click or Esc to close' }));
  dlg.addEventListener('click', () => dlg.close());
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
}
