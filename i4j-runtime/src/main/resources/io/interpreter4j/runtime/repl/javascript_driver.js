// interpreter4j javascript REPL driver, run as `node --expose-internals -e <this file>` behind a shell that moved
// the command channel to fd 3, copies of stdout and stderr to fds 4 and 5, and stdin to /dev/null.
// Protocol: each line on fd 3 is "<marker> <path-of-code-file>". The code runs in this process's own global
// context, so variables, functions and required modules persist; then "\x02<marker> <status> -\n" goes to fds 4
// and 5, after the block's output on the same pipes.
//
// A block ends as `node file.js` would: when its code, its top-level await and every timer, socket or request
// it started are done (resources that existed before the block, or were unref()'d, do not count).
// - let/const/class at the top level become var-like, so a later block may declare the same name again;
//   top-level await and static import work (rewritten with node's own acorn, when --expose-internals lets us
//   load it; without it, code runs as written).
// - A trailing expression's value is shown with util.inspect; undefined is not shown.
// - An uncaught exception or unhandled rejection ends the block with status 1 and its stack on stderr;
//   process.exit(n) ends the block with n (the process survives); process.exitCode is the status if set.
// - SIGINT: synchronous code is interrupted by vm's breakOnSigint (busy loops included); while the block waits
//   for promises or timers, the driver stops waiting and reports 130 (timers the block started keep running).
//   Code stuck in a synchronous loop inside a callback cannot be interrupted: the worker kills the process
//   after its grace period, resetting the state. The code's own process.on('SIGINT') listeners are removed
//   after its block, since they would take SIGINT from the driver.
(() => {
  'use strict';
  const fs = require('fs');
  const path = require('path');
  const util = require('util');
  const vm = require('vm');
  const net = require('net');
  const { createRequire, builtinModules } = require('module');
  const isBuiltin = require('module').isBuiltin || ((name) => builtinModules.includes(name.replace(/^node:/, '')));
  const { pathToFileURL } = require('url');
  const EventEmitter = require('events');

  let acorn = null;
  try {
    acorn = require('internal/deps/acorn/acorn/dist/acorn');
  } catch (e) {
    // without --expose-internals: no rewriting of declarations, imports or top-level await
  }

  // SIGINT goes to the watchdog helper the node REPL uses, started once for good: during the vm call it interrupts
  // the code (breakOnSigint); at any other time it holds the signal as pending, which the driver polls while a
  // block runs. A process 'SIGINT' listener instead would leave gaps around every vm call where a signal is lost.
  let sigintWatchdog = null;
  try {
    const emitWarning = process.emitWarning;
    process.emitWarning = () => {}; // "internal/test/binding: for internal testing only"
    try {
      const contextify = require('internal/test/binding').internalBinding('contextify');
      if (typeof contextify.startSigintWatchdog === 'function' && typeof contextify.stopSigintWatchdog === 'function') {
        sigintWatchdog = contextify;
      }
    } finally {
      process.emitWarning = emitWarning;
    }
  } catch (e) {
    // a node without it: an interrupt in that instant is missed, and the worker kills the process after its grace
  }

  const realExit = process.exit.bind(process);
  const MARKER_OUT = 4;
  const MARKER_ERR = 5;

  // -------- the user's globals, as the node REPL has them
  const startDir = process.cwd();
  const userRequire = createRequire(path.join(startDir, '[i4j]'));
  const userModule = { exports: {}, require: userRequire, id: '[i4j]', filename: path.join(startDir, '[i4j]') };
  Object.assign(globalThis, { require: userRequire, module: userModule, exports: userModule.exports,
    __dirname: startDir, __filename: userModule.filename });

  /** Thrown by process.exit() in user code: ends the block, not the process. */
  class ExitRequest extends Error {
    constructor(code) {
      super('process.exit(' + code + ')');
      this.exitCode = code;
    }
  }
  process.exit = function exit(code) {
    const n = code === undefined ? (process.exitCode === undefined ? 0 : process.exitCode) : code;
    throw new ExitRequest(Number(n) & 0xff);
  };

  // -------- the running block
  let current = null; // { status, settle(status), done: Promise<number> }

  function describe(error, file) {
    if (error instanceof ExitRequest) {
      return null;
    }
    let text;
    if (error instanceof Error || (error && typeof error.stack === 'string')) {
      text = util.inspect(error);
    } else {
      text = 'Uncaught ' + util.inspect(error);
    }
    // drop the driver's own frames and node's vm plumbing
    let lines = text.split('\n')
      .filter((line) => !/\[eval\]|node:vm:|node:internal\/(vm|process\/execution|process\/task_queues)/.test(line));
    // below the block's last frame, node's frames are the driver calling it
    const last = file ? lines.map((line) => line.includes(file)).lastIndexOf(true) : -1;
    if (last >= 0) {
      lines = lines.filter((line, i) => i <= last || !/^\s+at .*(node:|\(native\))/.test(line));
    }
    return lines.join('\n');
  }

  function report(error) {
    const text = describe(error, current && current.file);
    if (text !== null) {
      process.stderr.write(text + '\n');
    }
  }

  function fail(error) {
    if (error instanceof ExitRequest) {
      if (current) current.settle(error.exitCode);
      return;
    }
    report(error);
    if (current) current.settle(1);
  }

  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  function interrupt() {
    if (current) {
      process.stderr.write('Interrupted (SIGINT)\n');
      current.settle(130);
    }
  }

  if (sigintWatchdog) {
    // started twice: a stop/start pair then reads and clears the pending flag without ever stopping the helper
    sigintWatchdog.startSigintWatchdog();
    sigintWatchdog.startSigintWatchdog();
  } else {
    process.on('SIGINT', interrupt);
  }

  /** Whether a SIGINT arrived outside the vm call since the last look. */
  function sigintPending() {
    if (!sigintWatchdog) return false;
    const pending = sigintWatchdog.stopSigintWatchdog();
    sigintWatchdog.startSigintWatchdog();
    return pending;
  }

  function runScript(script) {
    return script.runInThisContext({ breakOnSigint: true });
  }

  /**
   * A 'SIGINT' listener the code added takes the signal from the watchdog helper (and removing it later would
   * leave SIGINT fatal): after the block, remove such listeners and hand SIGINT back to the helper.
   */
  function reclaimSigint() {
    if (!sigintWatchdog || process.listenerCount('SIGINT') === 0) return;
    process.removeAllListeners('SIGINT');
    sigintWatchdog.stopSigintWatchdog();
    sigintWatchdog.stopSigintWatchdog();
    sigintWatchdog.startSigintWatchdog();
    sigintWatchdog.startSigintWatchdog();
    process.stderr.write('[interpreter4j] removed the process.on(\'SIGINT\') listeners this code added: '
      + 'SIGINT is how blocks are interrupted here\n');
  }

  // -------- rewriting (needs acorn)
  function bindingNames(pattern, out) {
    if (!pattern) return out;
    switch (pattern.type) {
      case 'Identifier': out.push(pattern.name); break;
      case 'ObjectPattern':
        pattern.properties.forEach((p) => bindingNames(p.type === 'RestElement' ? p.argument : p.value, out));
        break;
      case 'ArrayPattern': pattern.elements.forEach((e) => bindingNames(e, out)); break;
      case 'AssignmentPattern': bindingNames(pattern.left, out); break;
      case 'RestElement': bindingNames(pattern.argument, out); break;
      default: break;
    }
    return out;
  }

  /** Whether a top-level statement awaits, not counting nested functions. */
  function awaits(node) {
    let found = false;
    (function visit(n) {
      if (found || !n || typeof n.type !== 'string') return;
      if (n.type === 'AwaitExpression' || (n.type === 'ForOfStatement' && n.await)) {
        found = true;
        return;
      }
      if (/Function|MethodDefinition|PropertyDefinition|StaticBlock/.test(n.type)) {
        return;
      }
      for (const key of Object.keys(n)) {
        const v = n[key];
        if (Array.isArray(v)) v.forEach(visit);
        else if (v && typeof v.type === 'string') visit(v);
      }
    })(node);
    return found;
  }

  /** Static imports to dynamic ones: `import a, {b as c} from 'x'` -> `var {default: a, b: c} = await import('x')`. */
  function rewriteImports(src) {
    let ast;
    try {
      ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
    } catch (e) {
      return null;
    }
    const imports = ast.body.filter((n) => n.type === 'ImportDeclaration');
    if (imports.length === 0 || ast.body.some((n) => /^Export/.test(n.type))) {
      return null;
    }
    let out = src;
    for (const node of imports.slice().reverse()) {
      const from = JSON.stringify(node.source.value);
      const parts = [];
      let namespace = null;
      for (const s of node.specifiers) {
        if (s.type === 'ImportDefaultSpecifier') parts.push('default: ' + s.local.name);
        else if (s.type === 'ImportNamespaceSpecifier') namespace = s.local.name;
        else {
          const imported = s.imported.type === 'Identifier' ? s.imported.name : JSON.stringify(s.imported.value);
          parts.push(imported === s.local.name ? imported : imported + ': ' + s.local.name);
        }
      }
      const statements = [];
      if (namespace) statements.push('var ' + namespace + ' = await import(' + from + ');');
      if (parts.length) statements.push('var {' + parts.join(', ') + '} = await import(' + from + ');');
      if (!statements.length) statements.push('await import(' + from + ');');
      out = out.slice(0, node.start) + statements.join(' ') + out.slice(node.end);
    }
    return out;
  }

  /**
   * Returns { code, showLast }: the source to run as a script. Without top-level await, let/const/class become
   * var; with it, the code is wrapped in an async function whose top-level declarations are hoisted to var.
   * Line numbers are kept: edits never add or remove a line break.
   */
  function rewrite(src) {
    if (!acorn) {
      return { code: src, showLast: true, async: false };
    }
    let ast;
    try {
      ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true,
        allowHashBang: true });
    } catch (e) {
      const imported = rewriteImports(src);
      if (imported !== null && imported !== src) {
        return rewrite(imported);
      }
      return { code: src, showLast: true, async: false }; // let V8 report the syntax error
    }
    const body = ast.body;
    const last = body.length ? body[body.length - 1] : null;
    const showLast = !!last && last.type === 'ExpressionStatement' && !last.directive;
    const isAsync = body.some(awaits);
    const edits = []; // [start, end, text], applied from the end
    const hoisted = [];
    // import() needs a loader callback that vm scripts only get behind a flag: call the driver's instead
    (function visit(n) {
      if (!n || typeof n.type !== 'string') return;
      if (n.type === 'ImportExpression') edits.push([n.start, n.start + 'import'.length, '__i4jImport']);
      for (const key of Object.keys(n)) {
        const v = n[key];
        if (Array.isArray(v)) v.forEach(visit);
        else if (v && typeof v.type === 'string') visit(v);
      }
    })(ast);
    for (const node of body) {
      if (node.type === 'VariableDeclaration') {
        node.declarations.forEach((d) => bindingNames(d.id, hoisted));
        if (!isAsync) {
          if (node.kind !== 'var') edits.push([node.start, node.start + node.kind.length, 'var']);
        } else {
          // `const {a} = x, b;` -> `void ({a} = x, b);` (the names are declared with var above the function)
          const semicolon = src[node.end - 1] === ';';
          edits.push([node.start, node.start + node.kind.length, 'void (']);
          edits.push([semicolon ? node.end - 1 : node.end, semicolon ? node.end - 1 : node.end, ')']);
        }
      } else if (node.type === 'ClassDeclaration') {
        hoisted.push(node.id.name);
        edits.push([node.start, node.start, (isAsync ? '' : 'var ') + node.id.name + ' = ']);
        edits.push([node.end, node.end, ';']);
      } else if (node.type === 'FunctionDeclaration' && isAsync) {
        hoisted.push(node.id.name);
      }
    }
    if (isAsync && showLast) {
      // the statement's end, not the expression's: that one leaves out parentheses around it
      const end = src[last.end - 1] === ';' ? last.end - 1 : last.end;
      edits.push([last.start, last.start, 'return { value: (']);
      edits.push([end, end, ') }']);
    }
    let code = src;
    edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    for (const [start, end, text] of edits) {
      code = code.slice(0, start) + text + code.slice(end);
    }
    if (!isAsync) {
      return { code, showLast, async: false };
    }
    const functions = body.filter((n) => n.type === 'FunctionDeclaration')
      .map((n) => 'this.' + n.id.name + ' = ' + n.id.name + '; ');
    const declared = hoisted.length ? 'var ' + [...new Set(hoisted)].join(', ') + '; ' : '';
    return { code: declared + '(async () => { ' + functions.join('') + code + '\n})()', showLast, async: true };
  }

  // -------- event-loop accounting: a block is done when what it started is done
  function resources() {
    const counts = new Map();
    if (typeof process.getActiveResourcesInfo !== 'function') return counts;
    for (const name of process.getActiveResourcesInfo()) counts.set(name, (counts.get(name) || 0) + 1);
    return counts;
  }

  function busySince(baseline) {
    for (const [name, n] of resources()) {
      if (n > (baseline.get(name) || 0)) return true;
    }
    return false;
  }

  Object.defineProperty(globalThis, '__i4jImport', { value: importDynamically, enumerable: false });

  function importDynamically(specifier) {
    if (typeof specifier !== 'string' || isBuiltin(specifier) || /^(file|node|data):/.test(specifier)) {
      return import(specifier);
    }
    if (/^\.{0,2}\//.test(specifier)) {
      return import(pathToFileURL(path.resolve(process.cwd(), specifier)).href);
    }
    // a bare name: resolve it from the working directory's node_modules like require does
    let found;
    try {
      found = pathToFileURL(createRequire(path.join(process.cwd(), '[i4j]')).resolve(specifier)).href;
    } catch (e) {
      found = specifier;
    }
    return import(found);
  }

  /**
   * Whether a trailing value is worth showing: not undefined, and not a handle the code started for its side
   * effect (a timer from setTimeout, a server from listen(), a stream, a child process, a pending promise).
   */
  function shown(value) {
    if (value === undefined) return false;
    if (value instanceof EventEmitter || value instanceof Promise) return false;
    const kind = value && value.constructor && value.constructor.name;
    return kind !== 'Timeout' && kind !== 'Immediate';
  }

  async function execute(file) {
    sigintPending(); // one that came between blocks was meant for no block
    // looks for SIGINT while the block waits on promises and timers, and keeps the process up even if the
    // channel has closed; part of the baseline
    const poller = setInterval(() => {
      if (sigintPending()) interrupt();
    }, 10);
    const baseline = resources();
    let status = null;
    let resolveDone;
    const done = new Promise((resolve) => { resolveDone = resolve; });
    current = {
      file,
      settle(code) {
        if (status === null) {
          status = code;
          resolveDone();
        }
      },
    };
    process.exitCode = undefined;
    try {
      const src = fs.readFileSync(file, 'utf8');
      const { code, showLast, async: isAsync } = rewrite(src);
      const script = new vm.Script(code, { filename: file });
      let value = runScript(script);
      if (isAsync) {
        const outcome = await Promise.race([value, done.then(() => undefined)]);
        value = outcome && status === null ? outcome.value : undefined;
      }
      if (status === null && showLast && shown(value)) {
        process.stdout.write(util.inspect(value) + '\n');
      }
    } catch (e) {
      if (e && e.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') {
        unstick(process.stdout);
        unstick(process.stderr);
        process.stderr.write('Interrupted (SIGINT)\n');
        current.settle(130);
      } else {
        fail(e);
      }
    }
    // wait, as node would before exiting, for the timers, sockets and requests this block started; the first
    // turn of the event loop also lets node report promises rejected without a handler
    await new Promise((resolve) => setImmediate(resolve));
    while (status === null && busySince(baseline)) {
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 10).unref())]);
    }
    current.settle(process.exitCode === undefined ? 0 : Number(process.exitCode) & 0xff);
    reclaimSigint();
    process.exitCode = undefined;
    current = null;
    clearInterval(poller);
    return status;
  }

  /**
   * breakOnSigint stops the code wherever it is, also inside stream.write after the bytes went out but before the
   * stream noted it; the stream would then hold every later write back. Finish that write's bookkeeping, if the
   * write really completed (nothing left queued in libuv).
   */
  function unstick(stream) {
    const state = stream && stream._writableState;
    const handle = stream && stream._handle;
    if (state && state.writing && state.sync && typeof state.writecb === 'function' && handle
        && handle.writeQueueSize === 0 && typeof state.onwrite === 'function') {
      state.sync = false;
      state.onwrite(null);
    }
  }

  /** Resolves once what was written before is out; never waits more than a second, so markers always follow. */
  function flushed(stream) {
    return new Promise((resolve) => {
      setTimeout(resolve, 1000).unref();
      stream.write('', () => resolve());
    });
  }

  async function writeMarkers(marker, status) {
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    const line = Buffer.from('\x02' + marker + ' ' + status + ' -\n', 'ascii');
    fs.writeSync(MARKER_OUT, line);
    fs.writeSync(MARKER_ERR, line);
  }

  // -------- the command loop
  process.stdout; // create both stream handles now, so the first block's console.log is not counted as its own
  process.stderr;
  const channel = new net.Socket({ fd: 3, readable: true, writable: false });
  let pending = '';
  const queue = [];
  let busy = false;
  let closed = false;

  async function drain() {
    if (busy) return;
    busy = true;
    while (queue.length) {
      const line = queue.shift();
      const space = line.indexOf(' ');
      const marker = line.slice(0, space);
      const file = line.slice(space + 1);
      let status;
      try {
        status = await execute(file);
      } catch (e) {
        report(e);
        status = 1;
      }
      await writeMarkers(marker, status);
    }
    busy = false;
    if (closed) realExit(0);
  }

  channel.setEncoding('utf8');
  channel.on('data', (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      queue.push(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
    drain();
  });
  // the Java side closed the channel: stop once the blocks already sent are done
  const close = () => {
    closed = true;
    if (!busy) realExit(0);
  };
  channel.on('end', close);
  channel.on('error', close);
})();
