// The worker that runs Sitke's WebAssembly engine, in a browser (a Web Worker) or in node
// (a worker_threads Worker). It takes the lines sitke.js posts, in order, and hands each to
// the engine, which runs every job (a search, perft, bench) to its end before returning;
// what the engine writes goes back line by line. See sitke.js for the signals.
'use strict';

const nodeThreads = typeof self === 'undefined' && typeof require === 'function'
  ? require('worker_threads') : null;
const port = nodeThreads ? nodeThreads.parentPort : self;
const STOP = 0, PONDERHIT = 1, WAKE = 2;
const SIGNAL_STOP = 1, SIGNAL_PONDERHIT = 2;

let exports_ = null;
let signals = null;
let maxOpenEndedMs = 10000;
let current = 0;          // sequence number of the line being handled
let started = 0;          // when it started (performance.now())
let openEnded = false;    // whether it is a search only `stop` ends
const queue = [];
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function post(msg) { port.postMessage(msg); }

// Without a SharedArrayBuffer no signal can reach a running search: a search that only
// `stop` would end gets a time limit instead.
function isOpenEnded(line) {
  if (!/^\s*go\b/.test(line)) return false;
  if (/\b(infinite|ponder)\b/.test(line)) return true;
  return !/\b(depth|nodes|movetime|wtime|btime|mate|perft)\b/.test(line);
}

function signalBits() {
  if (signals) {
    let bits = 0;
    if (Atomics.load(signals, STOP) > current) bits |= SIGNAL_STOP;
    if (Atomics.load(signals, PONDERHIT) > current) bits |= SIGNAL_PONDERHIT;
    return bits;
  }
  return openEnded && performance.now() - started >= maxOpenEndedMs ? SIGNAL_STOP : 0;
}

const imports = {
  sitke: {
    sitke_host_now: function () { return performance.now(); },
    sitke_host_write: function (ptr, len) {
      const text = decoder.decode(new Uint8Array(exports_.memory.buffer, ptr, len));
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      for (const line of lines) post({ line: line });
    },
    sitke_host_signals: signalBits,
    sitke_host_pause: function (ms) {
      if (signals) {
        const wake = Atomics.load(signals, WAKE);
        if (signalBits() === 0) Atomics.wait(signals, WAKE, wake, ms);
      } else {
        const until = performance.now() + ms;
        while (performance.now() < until && signalBits() === 0) { /* nothing can wake us */ }
      }
    },
  },
};

function handle(line, seq) {
  current = seq;
  started = performance.now();
  openEnded = !signals && isOpenEnded(line);
  const bytes = encoder.encode(line);
  const ptr = exports_.sitke_input(bytes.length);
  new Uint8Array(exports_.memory.buffer, ptr, bytes.length).set(bytes);
  exports_.sitke_line(bytes.length);
}

function drain() {
  while (queue.length) {
    const { line, seq } = queue.shift();
    try {
      handle(line, seq);
    } catch (e) {
      // A trap (a bug in the engine) leaves its state undefined: say so and take no more.
      post({ error: 'engine trapped on "' + line + '": ' + (e && e.message || e) });
      exports_ = null;
      queue.length = 0;
    }
  }
}

async function load(wasm) {
  if (nodeThreads) {
    const bytes = require('fs').readFileSync(wasm);
    return (await WebAssembly.instantiate(bytes, imports)).instance;
  }
  const response = await fetch(wasm);
  if (!response.ok) throw new Error(wasm + ': HTTP ' + response.status);
  if (WebAssembly.instantiateStreaming && /wasm/.test(response.headers.get('Content-Type') || '')) {
    return (await WebAssembly.instantiateStreaming(response, imports)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), imports)).instance;
}

function onMessage(msg) {
  if (msg.init) {
    signals = msg.init.signals || null;
    maxOpenEndedMs = msg.init.maxOpenEndedMs;
    load(msg.init.wasm).then(function (instance) {
      exports_ = instance.exports;
      post({ ready: true });
      exports_.sitke_start();
      drain();
    }, function (e) {
      post({ error: 'cannot load ' + msg.init.wasm + ': ' + (e && e.message || e) });
    });
    return;
  }
  if (msg.line === undefined) return;
  queue.push(msg);
  if (exports_) drain();
}

if (nodeThreads) port.on('message', onMessage);
else self.onmessage = function (e) { onMessage(e.data); };
