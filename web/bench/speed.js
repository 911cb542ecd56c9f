// Speed of Sitke's WebAssembly build against native Sitke and against Fairy-Stockfish's
// wasm build (npm fairy-stockfish-nnue.wasm) in Sittuyin, side by side in one run, one
// thread each, on Sitke's bench positions (src/search/bench.rs):
//   1. `bench` (depth 11: the same search, the same nodes) in native Sitke and in wasm, in
//      turn, three times each; the best time of each counts;
//   2. each bench position searched for MOVETIME ms by the three engines in turn, nodes and
//      times summed over the positions.
//   node web/bench/speed.js [movetime-ms]
// Needs target/release/sitke (cargo build --release), web/sitke.wasm (web/build.sh) and
// the npm package, found in SITKE_FSF_WASM or installed into /tmp/sitke-fsf on first use.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const MOVETIME = Number(process.argv[2] || 1000);

function benchPositions() {
  const src = fs.readFileSync(path.join(ROOT, 'src/search/bench.rs'), 'utf8');
  const list = src.slice(src.indexOf('pub const POSITIONS'), src.indexOf('];', src.indexOf('pub const POSITIONS')));
  const fens = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  return ['8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1', ...fens];
}

/** A line-based driver over any `send(line)` and listener registration. */
function driver(send, listen) {
  let waiter = null;
  const lines = [];
  listen((line) => {
    lines.push(line);
    if (waiter && waiter.until(line)) {
      const w = waiter;
      waiter = null;
      w.resolve(lines.splice(0));
    }
  });
  return (cmds, until) => new Promise((resolve) => {
    lines.length = 0;
    waiter = { until, resolve };
    for (const c of cmds) send(c);
  });
}

function native() {
  const p = spawn(path.join(ROOT, 'target/release/sitke'), [], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const fns = [];
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      fns.forEach((f) => f(line));
    }
  });
  return { ask: driver((l) => p.stdin.write(l + '\n'), (f) => fns.push(f)), close: () => p.kill() };
}

async function sitkeWasm() {
  const e = await require(path.join(ROOT, 'web'))();
  return { ask: driver((l) => e.postMessage(l), (f) => e.addMessageListener(f)), close: () => e.terminate() };
}

async function fsfWasm() {
  let dir = process.env.SITKE_FSF_WASM;
  if (!dir) {
    dir = '/tmp/sitke-fsf/node_modules/fairy-stockfish-nnue.wasm';
    if (!fs.existsSync(dir)) {
      execFileSync('npm', ['install', '--silent', '--no-save', '--prefix', '/tmp/sitke-fsf',
        'fairy-stockfish-nnue.wasm@1.1.12'], { stdio: 'inherit' });
    }
  }
  // Its emscripten loader takes node 18+'s global fetch for a browser's and fails on a path.
  delete globalThis.fetch;
  const sf = await require(path.join(dir, 'stockfish.js'))();
  return { ask: driver((l) => sf.postMessage(l), (f) => sf.addMessageListener(f)), close: () => sf.terminate() };
}

async function setUp(engine) {
  await engine.ask(['uci', 'setoption name UCI_Variant value sittuyin', 'setoption name Threads value 1',
    'setoption name Hash value 16', 'isready'], (l) => l === 'readyok');
}

/** Nodes and milliseconds of one engine's `go movetime` on `fen`. */
async function timedSearch(engine, fen) {
  const out = await engine.ask(['ucinewgame', 'position fen ' + fen, 'go movetime ' + MOVETIME],
    (l) => l.startsWith('bestmove'));
  const last = out.filter((l) => / nodes \d+/.test(l) && / time \d+/.test(l)).pop();
  if (!last) return [0, 0];
  return [Number(/ nodes (\d+)/.exec(last)[1]), Number(/ time (\d+)/.exec(last)[1])];
}

async function main() {
  const fens = benchPositions();
  console.log(`${fens.length} positions, go movetime ${MOVETIME} each, one thread, 16 MiB hash`);
  const engines = [['native Sitke', native()], ['Sitke wasm', await sitkeWasm()],
    ['Fairy-Stockfish 1.1.12 wasm', await fsfWasm()]];
  for (const [, e] of engines) await setUp(e);
  // The engines take turns, so a change in the machine's load falls on all of them alike.
  const benchMs = async (e) => {
    const out = await e.ask(['bench'], (l) => l.startsWith('Nodes/second'));
    return [Number(/(\d+)/.exec(out.find((l) => l.startsWith('Total time')))[1]),
      /(\d+)/.exec(out.find((l) => l.startsWith('Nodes searched')))[1]];
  };
  const best = [Infinity, Infinity];
  for (let round = 0; round < 3; round++) {
    for (const i of [0, 1]) {
      const [ms, nodes] = await benchMs(engines[i][1]);
      console.log(`bench ${engines[i][0].padEnd(28)} ${nodes.padStart(11)} nodes ${String(ms).padStart(7)} ms`);
      best[i] = Math.min(best[i], ms);
    }
  }
  console.log(`bench, best of 3: native ${best[0]} ms, wasm ${best[1]} ms: wasm runs at ${(100 * best[0] / best[1]).toFixed(0)}% of native's speed`);
  const totals = engines.map(() => [0, 0]);
  for (const fen of fens) {
    for (let i = 0; i < engines.length; i++) {
      const [n, ms] = await timedSearch(engines[i][1], fen);
      totals[i][0] += n;
      totals[i][1] += ms;
    }
  }
  const nps = totals.map(([n, ms], i) => {
    const v = Math.round(n / (ms / 1000));
    console.log(`${engines[i][0].padEnd(34)} ${String(n).padStart(11)} nodes ${String(ms).padStart(7)} ms ${String(v).padStart(9)} nps`);
    return v;
  });
  console.log(`Sitke wasm / native Sitke: ${(100 * nps[1] / nps[0]).toFixed(0)}% of the nps`);
  console.log(`Sitke wasm / Fairy-Stockfish wasm: ${(nps[1] / nps[2]).toFixed(2)}x the nps`);
  for (const [, e] of engines) e.close();
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
