// Sitke in JavaScript: a factory with the interface web GUIs use for Fairy-Stockfish's
// WebAssembly build. `Sitke(options)` returns a Promise of an engine object with
// postMessage(line), addMessageListener(fn), removeMessageListener(fn) and terminate().
// The engine runs in a Web Worker (a worker thread in node), so the page never blocks.
//
// The search runs synchronously inside the worker, so a `stop` posted to the worker would
// wait behind it. Instead the signals that must reach a running search (`stop`, `quit`,
// `ponderhit`) are also written into a SharedArrayBuffer that the search reads every 1024
// nodes. Each line carries a sequence number, so a signal only ever applies to the lines
// sent before it. Where no SharedArrayBuffer is allowed (a page that is not cross-origin
// isolated), open-ended searches stop by themselves after `maxOpenEndedMs` (docs/web.md).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.Sitke = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  const isNode = typeof process === 'object' && !!(process.versions && process.versions.node) &&
    typeof window === 'undefined';
  // Where this script came from, so that the worker and the .wasm are found next to it.
  const scriptUrl = !isNode && typeof document !== 'undefined' && document.currentScript
    ? document.currentScript.src : null;

  // Slots of the signal array: the sequence number of the latest stop (or quit), of the
  // latest ponderhit, and a counter the worker waits on while it holds a bestmove.
  const STOP = 0, PONDERHIT = 1, WAKE = 2;

  function Sitke(options) {
    options = options || {};
    return new Promise(function (resolve, reject) {
      let worker, signals = null;
      // `sharedMemory: false` forces the fallback an isolated page would not need (tests).
      const shared = options.sharedMemory !== false && (isNode || (typeof SharedArrayBuffer === 'function' &&
        typeof self !== 'undefined' && self.crossOriginIsolated === true));
      if (shared) signals = new Int32Array(new SharedArrayBuffer(4 * 4));
      const listeners = [];
      let seq = 0, ready = false, dead = false;

      // Whether the latest `go` runs until `stop` and has not answered yet.
      let openSearch = false;
      function openEnded(line) {
        if (/\b(infinite|ponder)\b/.test(line)) return true;
        return !/\b(depth|nodes|movetime|wtime|btime|mate|perft)\b/.test(line);
      }

      function emit(line) {
        if (line.startsWith('bestmove')) openSearch = false;
        for (const fn of listeners.slice()) fn(line);
      }
      function fail(message) {
        dead = true;
        const err = new Error('sitke: ' + message);
        if (!ready) reject(err);
        else if (options.onError) options.onError(err);
        else console.error(err.message);
      }
      function onMessage(msg) {
        if (msg.line !== undefined) emit(msg.line);
        else if (msg.ready) {
          ready = true;
          resolve(engine);
        } else if (msg.error) fail(msg.error);
      }

      let wasm;
      if (isNode) {
        const path = require('path');
        const { Worker } = require('worker_threads');
        wasm = options.wasmPath || path.join(__dirname, 'sitke.wasm');
        worker = new Worker(options.workerPath || path.join(__dirname, 'sitke.worker.js'));
        worker.on('message', onMessage);
        worker.on('error', function (e) { fail(String(e && e.message || e)); });
      } else {
        const base = options.baseUrl || scriptUrl || (typeof location !== 'undefined' ? location.href : '');
        wasm = new URL(options.wasmUrl || 'sitke.wasm', base).href;
        worker = new Worker(new URL(options.workerUrl || 'sitke.worker.js', base).href);
        worker.onmessage = function (e) { onMessage(e.data); };
        worker.onerror = function (e) { fail(e.message || 'worker error'); };
      }

      const engine = {
        /** One protocol line in (several, separated by newlines, are taken one by one). */
        postMessage: function (text) {
          if (dead) return;
          for (const line of String(text).split(/\r?\n/)) {
            seq += 1;
            const cmd = line.trim().split(/\s+/)[0];
            // A new job stops a search that would otherwise wait for `stop` forever, as the
            // native engine does (it is waiting for this very line behind the search).
            const supersedes = openSearch && (cmd === 'go' || cmd === 'bench' || cmd === 'ucinewgame');
            if (signals && (cmd === 'stop' || cmd === 'quit' || cmd === 'ponderhit' || supersedes)) {
              Atomics.store(signals, cmd === 'ponderhit' ? PONDERHIT : STOP, seq);
              Atomics.add(signals, WAKE, 1);
              Atomics.notify(signals, WAKE);
            }
            if (cmd === 'go') openSearch = openEnded(line);
            worker.postMessage({ line: line, seq: seq });
          }
        },
        /** Calls `fn` with every line the engine writes. */
        addMessageListener: function (fn) { listeners.push(fn); },
        /** Stops calling `fn`. */
        removeMessageListener: function (fn) {
          const i = listeners.indexOf(fn);
          if (i >= 0) listeners.splice(i, 1);
        },
        /** Ends the worker at once. */
        terminate: function () {
          dead = true;
          worker.terminate();
        },
        /** Whether `stop` and `ponderhit` reach a running search (SharedArrayBuffer). */
        interruptible: signals !== null,
      };
      worker.postMessage({
        init: { wasm: wasm, signals: signals, maxOpenEndedMs: options.maxOpenEndedMs || 10000 },
      });
    });
  }
  return Sitke;
});
