// The page as a person uses it, in headless Chromium (Debian's /usr/bin/chromium, or
// SITKE_CHROMIUM): load it, place the men with "Place the rest", play against the engine
// by clicking squares until the game ends or 40 moves, then check that every move the page
// showed was legal (pyffish, Fairy-Stockfish's rules) and that no console error appeared.
// Screenshots go to web/test-output/. Also measures how long `stop` takes to end a
// `go infinite` in the page. Run `web/build.sh` and `npm ci` in web/ first.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { chromium } = require('playwright-core');
const { serve } = require('../serve.js');

const OUT = path.join(__dirname, '..', 'test-output');

// The plies the move list shows: one item a move number, White's ply and Black's reply.
async function shownPlies(page) {
  const items = await page.$$eval('#moves li', (lis) => lis.map((li) => li.textContent));
  return items.join(' ').split(/\s+/).filter(Boolean);
}
/** The window the screenshots in docs/img were taken at. */
const VIEWPORT = { width: 1100, height: 760 };

/**
 * Serves the page (`serveOptions` as web/serve.js takes them), opens a fresh headless Chromium
 * profile, and runs `body` with its page, the server's port and every console error and page
 * error seen; the browser, server and profile go whatever `body` does.
 */
async function inBrowser({ serveOptions, viewport } = {}, body) {
  const server = await serve(0, serveOptions);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sitke-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.SITKE_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    ...(viewport ? { viewport } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  const errors = [];
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    return await body({ page, port: server.address().port, errors });
  } finally {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const MAX_MOVES = 40;

/** A small seeded generator, so a failing game can be played again. */
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

test('a game in the page, every move legal, no console error', { timeout: 600000 }, async () => {
  fs.mkdirSync(OUT, { recursive: true });
  await inBrowser({ viewport: VIEWPORT }, async ({ page, port, errors }) => {
    const seed = Number(process.env.SITKE_SEED || 7);
    await page.goto(`http://127.0.0.1:${port}/page/?movetime=200`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    assert.strictEqual(await page.evaluate(() => self.crossOriginIsolated), true, 'the server isolates the page');
    assert.strictEqual(await page.evaluate(() => window.sitkePage.interruptible), true);

    // The stop latency: go infinite in the page's own engine package, stop after 500 ms.
    const latency = await page.evaluate(async () => {
      const e = await Sitke();
      const times = [];
      for (let i = 0; i < 5; i++) {
        const done = new Promise((resolve) => {
          const fn = (l) => { if (l.startsWith('bestmove')) { e.removeMessageListener(fn); resolve(performance.now()); } };
          e.addMessageListener(fn);
        });
        e.postMessage('position startpos moves K@g2 K@c7 F@e3 F@d6 R@c1 R@e8');
        e.postMessage('go infinite');
        await new Promise((r) => setTimeout(r, 500));
        const sent = performance.now();
        e.postMessage('stop');
        times.push((await done) - sent);
      }
      e.terminate();
      return times;
    });
    console.log('stop latency in Chromium (ms):', latency.map((t) => t.toFixed(1)).join(' '));
    assert.ok(Math.max(...latency) < 100, 'stop took ' + latency);

    // The setup: the king by drag, the general by two clicks, a rook dragged onto a square
    // it may not go to (refused), then "Place the rest" for the others.
    const board = await page.$('#board');
    const box = await board.boundingBox();
    const sq = (s) => {
      const file = s.charCodeAt(0) - 97, rank = Number(s[1]) - 1;
      return { x: box.x + (file + 0.5) * box.width / 8, y: box.y + (7 - rank + 0.5) * box.height / 8 };
    };
    const plies = () => page.evaluate(() => window.sitkePage.state.moves.length);
    const drag = async (letter, to) => {
      const piece = await page.$(`#pocket-bottom piece[data-letter="${letter}"]`);
      const p = await piece.boundingBox();
      await page.mouse.move(p.x + p.width / 2, p.y + p.height / 2);
      await page.mouse.down();
      await page.mouse.move(sq(to).x, sq(to).y, { steps: 8 });
      await page.mouse.up();
    };
    await drag('K', 'g2');
    await page.waitForFunction(() => window.sitkePage.state.moves.length >= 2 &&
      document.getElementById('status').textContent.startsWith('Place'), null, { timeout: 30000 });
    await page.click('#pocket-bottom piece[data-letter="F"]');
    await page.mouse.click(sq('e3').x, sq('e3').y);
    await page.waitForFunction(() => window.sitkePage.state.moves.length >= 4 &&
      document.getElementById('status').textContent.startsWith('Place'), null, { timeout: 30000 });
    await page.click('#pocket-bottom piece[data-letter="R"]');
    await page.screenshot({ path: path.join(OUT, 'setup.png') });
    await drag('R', 'e5');
    await page.waitForTimeout(300);
    assert.strictEqual(await plies(), 4, 'a rook dropped beyond the pawns is refused');
    assert.deepStrictEqual(await page.evaluate(() => window.sitkePage.state.moves.filter((m, i) => i % 2 === 0)),
      ['K@g2', 'F@e3']);
    await page.click('#place-rest');
    await page.waitForFunction(() => {
      const s = window.sitkePage.state;
      return s.info && s.info.pocket.white === '' && s.info.pocket.black === '' && s.info.turn === 'white';
    }, null, { timeout: 120000 });
    const placed = await page.evaluate(() => window.sitkePage.state.moves.filter((m, i) => i % 2 === 0));
    assert.deepStrictEqual(placed.sort(), ['F@e3', 'K@g2', 'N@f2', 'N@f3', 'R@c1', 'R@e1', 'S@d2', 'S@g3'].sort());

    const random = rng(seed);
    for (let n = 0; n < MAX_MOVES; n++) {
      await page.waitForFunction(() => {
        const st = document.getElementById('status').textContent;
        return st.startsWith('Your move') || st.startsWith('Game over');
      }, null, { timeout: 60000 });
      if ((await page.textContent('#status')).startsWith('Game over')) break;
      if (n === 3) {
        // Take back: the engine's reply and our move go, and it is our move again.
        const k = await page.evaluate(() => window.sitkePage.state.moves.length);
        await page.click('#takeback');
        await page.waitForFunction((k) => window.sitkePage.state.moves.length === k - 2 &&
          document.getElementById('status').textContent.startsWith('Your move'), k, { timeout: 10000 });
      }
      const legal = await page.evaluate(() => window.sitkePage.state.info.legal);
      const move = legal[Math.floor(random() * legal.length)];
      const before = await page.evaluate(() => window.sitkePage.state.moves.length);
      const from = move.slice(0, 2), to = move.slice(2, 4);
      await page.mouse.click(sq(from).x, sq(from).y);
      if (from === to) {
        await page.click('#promote-in-place');
      } else {
        await page.mouse.click(sq(to).x, sq(to).y);
        if (legal.filter((m) => m.slice(0, 4) === move.slice(0, 4)).length > 1) {
          await page.click(`#promote button[data-move="${move}"]`);
        }
      }
      await page.waitForFunction((k) => window.sitkePage.state.moves.length > k, before, { timeout: 10000 });
      assert.strictEqual(await page.evaluate((k) => window.sitkePage.state.moves[k], before), move);
    }
    await page.waitForFunction(() => !/thinking/.test(document.getElementById('status').textContent), null,
      { timeout: 60000 });
    await page.screenshot({ path: path.join(OUT, 'game.png') });
    const shown = await shownPlies(page);
    assert.strictEqual(await page.$$eval('#moves li', (lis) => lis.length), Math.ceil(shown.length / 2),
      'one item a move number');
    const status = await page.textContent('#status');
    console.log(`game (seed ${seed}): ${shown.length} plies; ${status}`);
    fs.writeFileSync(path.join(OUT, 'game.txt'), shown.join(' ') + '\n' + status + '\n');
    assert.ok(shown.length >= 16 + 2 * Math.min(MAX_MOVES, 10), 'the game went on after the setup');

    // Copy FEN and moves put the position and the game where a person can take them.
    await page.click('#copy-fen');
    assert.strictEqual(await page.inputValue('#copied'), await page.evaluate(() => window.sitkePage.state.info.fen));
    await page.click('#copy-moves');
    assert.strictEqual(await page.inputValue('#copied'), 'position startpos moves ' + shown.join(' '));

    // A king off the formation rules it out: "Place the rest" has the engine place the rest.
    await page.click('#new-game');
    await page.waitForFunction(() => window.sitkePage.state.moves.length === 0 &&
      document.getElementById('status').textContent.startsWith('Place'), null, { timeout: 10000 });
    await drag('K', 'a1');
    await page.waitForFunction(() => window.sitkePage.state.moves.length >= 2, null, { timeout: 30000 });
    await page.click('#place-rest');
    await page.waitForFunction(() => {
      const s = window.sitkePage.state;
      return s.info && s.info.pocket.white === '' && s.info.pocket.black === '' && s.info.turn === 'white';
    }, null, { timeout: 120000 });
    const setup2 = await shownPlies(page);
    assert.strictEqual(setup2[0], 'K@a1');
    assert.strictEqual(setup2.length, 16);

    // Every move shown was legal, by Fairy-Stockfish's rules.
    const check = `
import sys, pyffish as sf
moves = sys.argv[1].split()
start = sf.start_fen('sittuyin')
for i, m in enumerate(moves):
    legal = sf.legal_moves('sittuyin', start, moves[:i])
    if m not in legal:
        sys.exit(f'move {i + 1} {m} is illegal; legal: {legal}')
print(f'{len(moves)} moves legal; pyffish result {sf.game_result("sittuyin", start, moves) if not sf.legal_moves("sittuyin", start, moves) else "ongoing"}')
`;
    console.log(execFileSync('python3', ['-c', check, shown.join(' ')], { encoding: 'utf8' }).trim());
    console.log(execFileSync('python3', ['-c', check, setup2.join(' ')], { encoding: 'utf8' }).trim());
    assert.deepStrictEqual(errors, []);
  });
});

test('a page served without isolation still plays; stop waits for the open-ended limit', { timeout: 120000 }, async () => {
  await inBrowser({ serveOptions: { isolated: false } }, async ({ page, port, errors }) => {
    await page.goto(`http://127.0.0.1:${port}/page/?movetime=200`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    assert.strictEqual(await page.evaluate(() => self.crossOriginIsolated), false);
    assert.strictEqual(await page.evaluate(() => window.sitkePage.interruptible), false);
    await page.click('#place-rest');
    await page.waitForFunction(() => {
      const s = window.sitkePage.state;
      return s.info && s.info.pocket.white === '' && s.info.pocket.black === '' && s.info.turn === 'white';
    }, null, { timeout: 60000 });
    // go infinite ends by itself at maxOpenEndedMs; the stop sent meanwhile cannot reach it.
    const took = await page.evaluate(async () => {
      const e = await Sitke({ maxOpenEndedMs: 800 });
      const t0 = performance.now();
      const done = new Promise((resolve) => e.addMessageListener((l) => l.startsWith('bestmove') && resolve(performance.now())));
      e.postMessage('go infinite');
      e.postMessage('stop');
      const t = (await done) - t0;
      e.terminate();
      return t;
    });
    assert.ok(took >= 750 && took < 3000, 'go infinite ended after ' + took + ' ms');
    assert.deepStrictEqual(errors, []);
  });
});

// A game from pyffish's random playout (seed 2 of a search for one) where White, to move,
// may promote on a8 in place (a8a8f) or one step diagonally (a8b7f).
const PROMOTION_GAME = 'K@e2 N@c6 N@b1 F@a7 S@a1 K@f7 F@h2 N@d6 N@e1 R@e8 S@d2 R@c8 R@h1 S@d7 R@f1 S@h7 d2c1 e8f8 e2d2 h7g8 e1f3 f7e8 d2e3 g8g7 f1d1 d6f5 e4f5 e8f7 b3b4 f8g8 c1d2 c8e8 f3e5 f7f8 e3e2 e8e7 e5c4 e7e8 c4e5 g6f5 d1c1 a5a4 e5f7 c6e7 f7h8 c5b4 h1f1 a7b8 c1c2 d7d6 a1a2 d6c7 c3b4 c7d8 d2e1 g7h8 c2c6 b8a7 a2b3 f8f7 h2g3 g8g6 b3c4 f5g4 e2d1 g6g8 c4b5 a7b8 c6b6 d8c7 f1f3 g8f8 e1d2 c7d6 d1e2 e8d8 b5c6 f8g8 d2c1 d8e8 c6b5 f7g6 c1d2 g6f7 d2c1 g8f8 b5c6 e7g6 b6a6 f7g7 e2f1 g6f4 c6b5 f4h3 b5b6 b8c7 f3f6 e8b8 b6c5 c7d8 c1d2 f8g8 f1e2 d8e7 d2c3 b8b6 f6f5 g8b8 e2e1 b6c6 f5f1 b8g8 d3d4 c6c5 g3f4 h3g1 h4h5 e7f6 c3c4 e6e5 f1f3 g8d8 a6a4 d8g8 e1f1 d5c4 f1g2 g8b8 d4c5 g7h7 f3c3 b8b5 c3d3 g4g3 d3d6 e5e4 b1d2 f6e5 d6d3 g1f3 d3b3 h7g8 c5c6 c4b3 d2b3 f3g1 c6c7 g1e2 c7c8 b5b7 a4a6 e2d4 g2h3 g8f8 b3d4 f8g8 d4f3 e5d6 h3h4 g3g2 a6c6 h8g7 b4b5 b7d7 f3d2 e4e3 a3a4 d6c7 c6h6 g8f7 h4g4 d7d2 h6h7 d2d5 f4g3 g2g1 h7g7 f7e8 g4f4 e8d8 b5b6 d5e5 g7g8 d8e7 g8g4 e7e6 b6c7 e5e4 f4e4 e6f6 g3f4 e3e2 a4a5 f6e6 g4g3 e6d6 f4g5 d6c7 g5f4 c7c8 f4e3 c8c7 g3f3 c7d7 f3f6 d7d8 e3f4 d8e7 e4d5 e2e1 d5d4 e7d8 d4c5 d8c7 f6g6 c7d8 g6g3 d8d7 g3b3 d7e8 b3b7 e8f8 f4e3 f8g8 b7b6 g8g7 c5d4 g7f7 b6b1 f7g8 b1a1 g8h8 a1a3 h8g8 d4c3 g8h7 c3b3 h7g7 a5a6 g7h8 a6a7 h8h7 b3c2 h7h6 a3b3 h6g5 b3b4 g5h6 b4b3 h6g5 b3c3 g5g4 c3b3 g4g3 h5h6 g3h3 c2c3 h3g4 c3b2 g4h3 b2a2 h3g4 b3d3 g4f5 d3c3 f5e6 e3f2 e6e7 f2e1 g1g1f a2a1 e7f8 a7a8 f8f7 e1f2 f7e6 c3a3 e6d7 a3a6 g1f2';

test('both promotions through the page', { timeout: 120000 }, async () => {
  await inBrowser({ viewport: VIEWPORT }, async ({ page, port, errors }) => {
    const n = PROMOTION_GAME.split(' ').length;
    await page.goto(`http://127.0.0.1:${port}/page/?movetime=200&moves=${encodeURIComponent(PROMOTION_GAME)}`);
    await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    const box = await (await page.$('#board')).boundingBox();
    const sq = (s) => ({ x: box.x + (s.charCodeAt(0) - 97 + 0.5) * box.width / 8, y: box.y + (8 - Number(s[1]) + 0.5) * box.height / 8 });
    const yourMove = () => page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Your move'),
      null, { timeout: 30000 });
    await yourMove();
    // In place: select the pawn, then the button under the board.
    await page.mouse.click(sq('a8').x, sq('a8').y);
    await page.click('#promote-in-place');
    await page.waitForFunction((k) => window.sitkePage.state.moves.length > k, n, { timeout: 10000 });
    assert.strictEqual(await page.evaluate((k) => window.sitkePage.state.moves[k], n), 'a8a8f');
    await yourMove();
    await page.click('#takeback');
    await page.waitForFunction((k) => window.sitkePage.state.moves.length === k, n, { timeout: 10000 });
    await yourMove();
    // Diagonally: a8 to b7 by two clicks.
    await page.mouse.click(sq('a8').x, sq('a8').y);
    await page.mouse.click(sq('b7').x, sq('b7').y);
    await page.waitForFunction((k) => window.sitkePage.state.moves.length > k, n, { timeout: 10000 });
    assert.strictEqual(await page.evaluate((k) => window.sitkePage.state.moves[k], n), 'a8b7f');
    assert.deepStrictEqual(errors, []);
  });
});
