// Drives the WebAssembly engine through the package's interface, as a node host would:
// the factory, postMessage and the listeners, the protocol's commands and its answers to
// bad input. Run `web/build.sh` first; `npm test` in web/ runs this file.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const Sitke = require('..');

/** The engine with every line it wrote kept, and a way to wait for one. */
// Every engine a test starts, so that one whose test failed before its `terminate()` cannot
// keep node's event loop, and the whole run, waiting.
const started = [];
test.after(() => started.forEach((engine) => engine.terminate()));

async function start() {
  const engine = await Sitke();
  started.push(engine);
  const lines = [];
  let waiter = null;
  engine.addMessageListener((line) => {
    lines.push({ line, at: performance.now() });
    if (waiter) waiter();
  });
  /** Waits for a line after `from` (an index into `lines`) that `pred` accepts. */
  function waitFor(pred, timeoutMs = 20000, from = 0) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiter = null;
        reject(new Error('timed out; last lines: ' + lines.slice(-5).map((l) => l.line).join(' | ')));
      }, timeoutMs);
      const check = () => {
        for (let i = from; i < lines.length; i++) {
          if (pred(lines[i].line)) {
            clearTimeout(timer);
            waiter = null;
            resolve({ index: i, ...lines[i], before: lines.slice(from, i).map((l) => l.line) });
            return;
          }
        }
      };
      waiter = check;
      check();
    });
  }
  /** Sends `cmd` and waits for the first later line `pred` accepts. */
  function ask(cmd, pred, timeoutMs) {
    const from = lines.length;
    engine.postMessage(cmd);
    return waitFor(pred, timeoutMs, from);
  }
  return { engine, lines, waitFor, ask };
}

const starts = (prefix) => (line) => line.startsWith(prefix);

/** The legal moves of the position set, from `go perft 1`. */
async function legalMoves(e) {
  const end = await e.ask('go perft 1', starts('Nodes searched:'));
  return end.before.filter((l) => /^\S+: 1$/.test(l)).map((l) => l.split(':')[0]);
}

// Formation 1 of /work/shared/FORMATIONS.md for both sides, in alternating order, and the
// position it gives as pyffish wrote it.
const FORMATION_DROPS = 'K@g2 K@c7 F@e3 F@d6 R@c1 R@e8 R@e1 R@g8 N@f2 N@d7 N@f3 N@f7 S@d2 S@c6 S@g3 S@e7';
const FORMATION_FEN = '4r1r1/2knsn2/2sfpppp/pppp4/4PPPP/PPPPFNS1/3S1NK1/2R1R3[] w - - 0 9';

test('the banner, uci, the variant line and Threads', async () => {
  const e = await start();
  const banner = await e.waitFor(() => true);
  assert.match(banner.line, /^Sitke \S+ by /);
  const ok = await e.ask('uci', (l) => l === 'uciok');
  assert.ok(ok.before.some((l) => l.startsWith('id name Sitke')));
  assert.ok(ok.before.includes('option name UCI_Variant type combo default sittuyin var sittuyin ' +
    'var sittuyin-federation var sittuyin-club var sittuyin-pritchard'));
  const federation = await e.ask('setoption name UCI_Variant value sittuyin-federation',
    starts('info string variant'));
  assert.match(federation.line, /^info string variant sittuyin-federation files 8 ranks 8 pocket 6 /);
  const variant = await e.ask('setoption name UCI_Variant value sittuyin', starts('info string variant'));
  assert.match(variant.line, /^info string variant sittuyin files 8 ranks 8 pocket 6 /);
  const threads = await e.ask('setoption name Threads value 4', starts('info string'));
  assert.match(threads.line, /Threads stays at 1/);
  await e.ask('isready', (l) => l === 'readyok');
  e.engine.terminate();
});

test('a setup and moves, then go depth and go movetime', async () => {
  const e = await start();
  e.engine.postMessage('position startpos moves ' + FORMATION_DROPS);
  const d = await e.ask('d', starts('Checkers:'));
  assert.ok(d.before.includes('Fen: ' + FORMATION_FEN), d.before.join('\n'));
  const ev = await e.ask('eval', starts('NNUE evaluation'));
  assert.ok(ev.before.some((l) => /^Final evaluation: -?\d+ \(White's view\)/.test(l)), ev.before.join('\n'));
  const legal = await legalMoves(e);
  const deep = await e.ask('go depth 8', starts('bestmove'));
  assert.ok(deep.before.some((l) => / depth 8 /.test(l)), 'an iteration of depth 8');
  assert.ok(legal.includes(deep.line.split(' ')[1]), deep.line);
  const t0 = performance.now();
  const timed = await e.ask('go movetime 500', starts('bestmove'));
  const took = timed.at - t0;
  assert.ok(took >= 400 && took < 1500, 'movetime 500 took ' + took + ' ms');
  assert.ok(legal.includes(timed.line.split(' ')[1]), timed.line);
  // A clock, and a move list with a promotion's own notation accepted.
  const clock = await e.ask('go wtime 3000 btime 3000 winc 100 binc 100', starts('bestmove'), 5000);
  assert.ok(legal.includes(clock.line.split(' ')[1]), clock.line);
  e.engine.terminate();
});

test('go infinite ends within 100 ms of stop; ponderhit ends a ponder search', async () => {
  const e = await start();
  e.engine.postMessage('position startpos moves ' + FORMATION_DROPS);
  e.engine.postMessage('go infinite');
  await e.waitFor((l) => / depth 6 /.test(l));
  // Still searching after a pause: only stop may end it.
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(!e.lines.some((l) => l.line.startsWith('bestmove')));
  const sent = performance.now();
  const best = await e.ask('stop', starts('bestmove'), 2000);
  const latency = best.at - sent;
  assert.ok(latency < 100, 'stop took ' + latency.toFixed(1) + ' ms');
  // A mate found early: the move is held until stop, which still answers at once.
  e.engine.postMessage('position fen 4k3/8/4K3/8/8/8/8/R7[] w - - 0 40');
  e.engine.postMessage('go infinite');
  await e.waitFor((l) => / score mate 1 /.test(l), 5000, e.lines.length - 1);
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(!e.lines.some((l, i) => i > best.index && l.line.startsWith('bestmove')));
  const held = await e.ask('stop', starts('bestmove'), 1000);
  assert.strictEqual(held.line.split(' ')[1], 'a1a8');
  // A new go stops an open-ended search first, as natively: two bestmoves, the second soon.
  e.engine.postMessage('position startpos moves ' + FORMATION_DROPS);
  e.engine.postMessage('go infinite');
  await e.waitFor((l) => / depth 5 /.test(l), 5000, held.index + 1);
  const sentGo = performance.now();
  const next = await e.ask('go depth 4', starts('bestmove'), 5000);
  const second = await e.waitFor(starts('bestmove'), 5000, next.index + 1);
  assert.ok(second.at - sentGo < 1000, 'go after go infinite took ' + (second.at - sentGo) + ' ms');
  // ponder: the clock does not run until ponderhit.
  e.engine.postMessage('position startpos moves ' + FORMATION_DROPS);
  e.engine.postMessage('go ponder wtime 1000 btime 1000');
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(!e.lines.some((l, i) => i > second.index && l.line.startsWith('bestmove')), 'pondering ignores the clock');
  const hit = await e.ask('ponderhit', starts('bestmove'), 2000);
  assert.ok(hit.line.startsWith('bestmove '));
  e.engine.terminate();
});

test('bad input gets the answers the native engine gives', async () => {
  const e = await start();
  const cases = [
    ['foo', "info string error: unknown command 'foo'"],
    ['position fen xyz', 'info string error: position: invalid FEN'],
    ['setoption name Hash value 0', "info string error: setoption: option 'Hash': 0 is outside 1..65536"],
    ['position startpos moves K@a5', "info string error: position: move 1 of the list: illegal move 'K@a5'"],
    ['setoption name UCI_Variant value chess', "info string error: variant 'chess' is not supported"],
    ['setoption name EvalFile value /no/such.nnue', 'info string error: EvalFile /no/such.nnue'],
    // More than a wasm module may allocate would be a trap that ends the engine.
    ['setoption name Hash value 4000', 'info string error: Hash 4000 MiB does not fit in memory'],
  ];
  for (const [input, answer] of cases) {
    const got = await e.ask(input, starts('info string'));
    assert.ok(got.line.startsWith(answer), input + ' -> ' + got.line);
  }
  // The engine still plays after all that.
  e.engine.postMessage('setoption name Hash value 256');
  e.engine.postMessage('position startpos');
  const best = await e.ask('go depth 3', starts('bestmove'));
  assert.match(best.line, /^bestmove \S+@[a-h][1-3]/);
  e.engine.terminate();
});

test('perft equals the suite (Fairy-Stockfish and native Sitke) on its first positions', async () => {
  const e = await start();
  const epd = fs.readFileSync(path.join(__dirname, '../../perft/sittuyin.epd'), 'utf8');
  const cases = epd.split('\n').filter((l) => l && !l.startsWith('#')).slice(0, 6);
  let compared = 0;
  for (const c of cases) {
    const [fen, ...counts] = c.split(';');
    e.engine.postMessage('position fen ' + fen.trim());
    for (const field of counts) {
      const m = /^D(\d+) (\d+)$/.exec(field.trim());
      if (!m || Number(m[2]) > 3_000_000) continue;
      const got = await e.ask('go perft ' + m[1], starts('Nodes searched:'), 60000);
      assert.strictEqual(got.line, 'Nodes searched: ' + m[2], fen + ' depth ' + m[1]);
      compared += 1;
    }
  }
  assert.ok(compared >= 18, 'only ' + compared + ' counts compared');
  e.engine.terminate();
});

test('bench searches exactly the native nodes; usi speaks USI', async () => {
  const e = await start();
  const bench = await e.ask('bench', starts('Nodes searched'), 120000);
  const native = /EXPECTED_NODES: u64 = (\d+);/.exec(fs.readFileSync(path.join(__dirname, '../../tests/bench_signature.rs'), 'utf8'));
  assert.ok(native, 'the signature in tests/bench_signature.rs');
  assert.strictEqual(bench.line.replace(/\s+/g, ' '), 'Nodes searched : ' + native[1]);
  await e.ask('usi', (l) => l === 'usiok');
  e.engine.postMessage('position startpos moves K*2h k*5b');
  const d = await e.ask('d', starts('Checkers:'));
  assert.ok(d.before.some((l) => l.startsWith('Sfen: 8/3k4/4pppp/pppp4/4PPPP/PPPP4/8/6K1 b')), d.before.join('\n'));
  const q = e.lines.length;
  e.engine.postMessage('quit');
  e.engine.postMessage('isready');
  await new Promise((r) => setTimeout(r, 300));
  assert.strictEqual(e.lines.length, q, 'nothing after quit');
  e.engine.terminate();
});

test('without shared memory an open-ended search stops by itself at maxOpenEndedMs', async () => {
  const engine = await Sitke({ sharedMemory: false, maxOpenEndedMs: 700 });
  assert.strictEqual(engine.interruptible, false);
  const lines = [];
  const done = new Promise((resolve) => engine.addMessageListener((l) => {
    lines.push(l);
    if (l.startsWith('bestmove')) resolve(performance.now());
  }));
  engine.postMessage('position startpos moves ' + FORMATION_DROPS);
  const t0 = performance.now();
  engine.postMessage('go infinite');
  engine.postMessage('stop');
  const took = (await done) - t0;
  assert.ok(took >= 650 && took < 1500, 'go infinite ended after ' + took + ' ms');
  // The stop that could not reach the search ends nothing later: the engine answers on.
  const ready = new Promise((resolve) => engine.addMessageListener((l) => l === 'readyok' && resolve()));
  engine.postMessage('isready');
  await ready;
  assert.strictEqual(lines.filter((l) => l.startsWith('bestmove')).length, 1);
  engine.terminate();
});
