// The page: a Sittuyin game against Sitke. The board is chessground (lichess's board);
// every rule comes from the engine itself: a second engine instance answers `go perft 1`
// (the legal moves) and `d` (the FEN, the clocks and the game's end) after each move, so
// the page holds no rules of its own that could disagree with the engine's.
import { Chessground } from '../node_modules/@lichess-org/chessground/dist/chessground.min.js';

// Sittuyin men drawn with chess pieces: the general (met) as a queen, the elephant (sin) as
// a bishop. Letters are the engine's FEN letters.
const ROLE = { K: 'king', F: 'queen', R: 'rook', N: 'knight', S: 'bishop', P: 'pawn' };
const LETTER = { king: 'K', queen: 'F', rook: 'R', knight: 'N', bishop: 'S', pawn: 'P' };
const DROP_ORDER = ['K', 'F', 'R', 'N', 'S'];
// Levels: the engine's Skill Level (src/search/skill.rs), the measured ones of the ladder
// in docs/web.md, each labelled with its Elo below full strength there.
const LEVELS = [
  { name: '1 (Skill Level 0, about 1900 Elo below full)', skill: 0 },
  { name: '2 (Skill Level 6, about 1600 below)', skill: 6 },
  { name: '3 (Skill Level 8, about 1350 below)', skill: 8 },
  { name: '4 (Skill Level 10, about 1050 below)', skill: 10 },
  { name: '5 (Skill Level 12, about 800 below)', skill: 12 },
  { name: '6 (Skill Level 14, about 600 below)', skill: 14 },
  { name: '7 (Skill Level 16, about 350 below)', skill: 16 },
  { name: 'Full strength', skill: 20 },
];
// The engine's time per move; `?movetime=200` in the address makes games quicker (tests).
const MOVETIME_MS = Number(new URLSearchParams(location.search).get('movetime')) || 1000;

const $ = (id) => document.getElementById(id);
const state = {
  moves: [],          // the game, in the engine's UCI notation, from the start position
  player: 'white',
  info: null,         // the engine's view of the current position (see `analyse`)
  pending: [],        // search ids waiting for their bestmove, oldest first
  searchId: 0,
  autoPlace: false,   // "Place the rest" pressed: the player's remaining men go in by themselves
  pocketPick: null,   // the man picked from the hand by a click
  log: [],            // every move shown, for tests
};

/** Line-oriented access to one engine instance, one request at a time. */
class Engine {
  constructor(engine) {
    this.engine = engine;
    this.waiters = [];
    this.chain = Promise.resolve();
    this.onLine = null;
    engine.addMessageListener((line) => {
      if (this.onLine) this.onLine(line);
      const w = this.waiters[0];
      if (!w) return;
      w.lines.push(line);
      if (w.until(line)) {
        this.waiters.shift();
        w.resolve(w.lines);
      }
    });
  }
  send(line) { this.engine.postMessage(line); }
  /** Sends `lines` and resolves with the output up to the line `until` accepts. */
  ask(lines, until) {
    const run = () => new Promise((resolve) => {
      this.waiters.push({ until, lines: [], resolve });
      for (const l of lines) this.send(l);
    });
    const p = this.chain.then(run);
    this.chain = p.catch(() => {});
    return p;
  }
}

let rules, player, cg;

function positionCommand(moves) {
  return moves.length ? 'position startpos moves ' + moves.join(' ') : 'position startpos';
}

/** The engine's view of the position after `moves`: legal moves, FEN, clocks, outcome. */
async function analyse(moves) {
  const perft = await rules.ask([positionCommand(moves), 'go perft 1'], (l) => l.startsWith('Nodes searched:'));
  const legal = perft.filter((l) => /^\S+: 1$/.test(l)).map((l) => l.split(':')[0]);
  const d = await rules.ask(['d'], (l) => l.startsWith('Checkers:'));
  const field = (name) => (d.find((l) => l.startsWith(name + ': ')) || '').slice(name.length + 2);
  const fen = field('Fen');
  const [board, turn] = fen.split(' ');
  const pocket = (/\[(.*)\]/.exec(board) || [])[1] || '';
  return {
    legal, fen,
    board: board.replace(/\[.*\]/, ''),
    turn: turn === 'w' ? 'white' : 'black',
    pocket: { white: pocket.replace(/[a-z]/g, ''), black: pocket.replace(/[A-Z]/g, '').toUpperCase() },
    rule50: Number(field('Rule50')),
    counting: field('Counting'),
    outcome: field('Outcome'),
    check: field('Checkers').trim() !== '',
  };
}

/** chessground's board FEN: general as queen, elephant as bishop. */
function cgFen(board) {
  return board.replace(/[fF]/g, (c) => (c === 'f' ? 'q' : 'Q')).replace(/[sS]/g, (c) => (c === 's' ? 'b' : 'B'));
}

function over() { return state.info && !state.info.outcome.startsWith('*'); }
function playersTurn() { return state.info && state.info.turn === state.player && !over(); }
function inSetup(color) { return state.info && state.info.pocket[color].length > 0; }

function dests() {
  const map = new Map();
  if (!playersTurn()) return map;
  for (const m of state.info.legal) {
    if (m.includes('@')) continue;
    const from = m.slice(0, 2), to = m.slice(2, 4);
    if (from === to) continue; // in-place promotion: the button below the board
    if (!map.has(from)) map.set(from, []);
    if (!map.get(from).includes(to)) map.get(from).push(to);
  }
  return map;
}

function dropSquares(letter) {
  return state.info.legal.filter((m) => m.startsWith(letter + '@')).map((m) => m.slice(2));
}

function renderPockets() {
  const top = cg.state.orientation === 'white' ? 'black' : 'white';
  for (const [el, color] of [[$('pocket-top'), top], [$('pocket-bottom'), top === 'white' ? 'black' : 'white']]) {
    el.replaceChildren();
    let marked = false; // the picked man is one of its kind, the first
    for (const letter of state.info.pocket[color]) {
      const p = document.createElement('piece');
      p.className = color + ' ' + ROLE[letter];
      p.dataset.letter = letter;
      const mine = color === state.player && playersTurn() && dropSquares(letter).length > 0;
      if (!mine) p.classList.add('inactive');
      if (mine && state.pocketPick === letter && !marked) {
        p.classList.add('selected');
        marked = true;
      }
      if (mine) {
        p.addEventListener('mousedown', (ev) => pickFromPocket(letter, ev));
        p.addEventListener('touchstart', (ev) => pickFromPocket(letter, ev), { passive: false });
      }
      el.appendChild(p);
    }
  }
}

function pickFromPocket(letter, ev) {
  state.pocketPick = letter;
  const legal = dropSquares(letter);
  cg.set({ highlight: { custom: new Map(legal.map((sq) => [sq, 'legal-drop'])) } });
  renderPockets();
  cg.dragNewPiece({ color: state.player, role: ROLE[letter] }, ev);
}

function tryDrop(letter, square) {
  const move = letter + '@' + square;
  state.pocketPick = null;
  if (state.info.legal.includes(move)) play(move);
  else draw();
}

function showPromotion(from) {
  const box = $('promote');
  box.replaceChildren();
  box.hidden = true;
  if (!from || !playersTurn()) return;
  const inPlace = from + from + 'f';
  if (state.info.legal.includes(inPlace)) {
    const b = document.createElement('button');
    b.id = 'promote-in-place';
    b.textContent = 'Promote on ' + from + ' (' + inPlace + ')';
    b.onclick = () => play(inPlace);
    box.appendChild(b);
    box.hidden = false;
  }
}

function chooseBetween(moves) {
  const box = $('promote');
  box.replaceChildren();
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m.endsWith('f') ? 'Promote (' + m + ')' : 'Move (' + m + ')';
    b.dataset.move = m;
    b.onclick = () => play(m);
    box.appendChild(b);
  }
  box.hidden = false;
}

function onMove(orig, dest) {
  const candidates = state.info.legal.filter((m) => m.slice(0, 4) === orig + dest);
  if (candidates.length === 1) play(candidates[0]);
  else if (candidates.length > 1) chooseBetween(candidates);
  else draw();
}

function draw() {
  const info = state.info;
  const last = state.moves[state.moves.length - 1];
  const lastMove = last ? (last.includes('@') ? [last.slice(2, 4)] : [last.slice(0, 2), last.slice(2, 4)]) : undefined;
  cg.set({
    fen: cgFen(info.board),
    turnColor: info.turn,
    check: info.check ? info.turn : false,
    lastMove,
    highlight: { custom: new Map() },
    movable: { color: playersTurn() ? state.player : undefined, dests: dests(), free: false, showDests: true },
  });
  // A square selected before the position changed (a promotion by button, a take-back)
  // would turn the next click on it into a deselection.
  cg.selectSquare(null);
  renderPockets();
  showPromotion(null);
  const moves = $('moves');
  // One list item per move number, White's ply and Black's reply together, as a score
  // sheet reads (every game here starts with White).
  const items = [];
  for (let i = 0; i < state.moves.length; i += 2) {
    const li = document.createElement('li');
    li.textContent = state.moves.slice(i, i + 2).join(' ');
    items.push(li);
  }
  moves.replaceChildren(...items);
  $('clock50').textContent = '50-move clock: ' + info.rule50 + ' plies';
  $('count').textContent = info.counting === 'off' ? '' : '· Count: ' + info.counting + ' plies';
  let status;
  if (over()) {
    const [result, ...why] = info.outcome.split(' ');
    status = 'Game over: ' + result + ' by ' + why.join(' ');
  } else if (playersTurn()) {
    status = inSetup(state.player) ? 'Place your men (' + info.pocket[state.player].length + ' left)' : 'Your move';
  } else {
    status = 'Sitke is thinking...';
  }
  $('status').textContent = status;
  $('status').dataset.over = over() ? '1' : '0';
}

async function refresh() {
  const moves = state.moves.slice();
  const info = await analyse(moves);
  if (moves.join(' ') !== state.moves.join(' ')) return; // a newer position is on its way
  state.info = info;
  draw();
  if (over()) return;
  if (!playersTurn()) engineMove();
  else if (state.autoPlace && inSetup(state.player)) placeNext();
}

function play(move) {
  state.moves.push(move);
  state.log.push(move);
  state.pocketPick = null;
  $('promote').hidden = true;
  return refresh();
}

function level() { return LEVELS[Number($('level').value)]; }

function engineMove(forPlayer = false) {
  const id = ++state.searchId;
  state.pending.push(id);
  const moves = state.moves.slice();
  const engineColor = state.info.turn;
  const lv = forPlayer ? LEVELS[LEVELS.length - 1] : level();
  player.onLine = (line) => {
    if (line.startsWith('info ') && / depth /.test(line) && / score /.test(line) && state.searchId === id) {
      const depth = /depth (\d+)/.exec(line)[1];
      const cp = /score cp (-?\d+)/.exec(line);
      const mate = /score mate (-?\d+)/.exec(line);
      const sign = engineColor === 'white' ? 1 : -1;
      const score = cp ? ((sign * Number(cp[1])) / 100).toFixed(2) : '#' + sign * Number(mate[1]);
      $('thinking').textContent = 'Sitke: depth ' + depth + ', eval ' + (score > 0 ? '+' : '') + score + ' (White\'s view)';
    }
    if (line.startsWith('bestmove')) {
      const mine = state.pending.shift();
      if (mine !== state.searchId || moves.join(' ') !== state.moves.join(' ')) return;
      const best = line.split(' ')[1];
      if (best && best !== '(none)') play(best);
    }
  };
  player.send('setoption name Skill Level value ' + lv.skill);
  player.send(positionCommand(moves));
  player.send('go movetime ' + (forPlayer ? Math.min(300, MOVETIME_MS) : MOVETIME_MS));
}

/** "Place the rest": the next man of a formation that fits, else the engine's own choice. */
async function placeNext() {
  if (!playersTurn() || !inSetup(state.player)) return;
  const drop = formationDrop();
  if (drop) play(drop);
  else engineMove(true);
}

let formations = [];

function formationDrop() {
  const color = state.player;
  const placed = placedMen(color);
  for (const f of formations) {
    const squares = f[color];
    const fits = Object.entries(placed).every(([sq, letter]) => (squares[letter] || []).includes(sq));
    if (!fits) continue;
    for (const letter of DROP_ORDER) {
      if (!state.info.pocket[color].includes(letter)) continue;
      for (const sq of squares[letter] || []) {
        if (placed[sq]) continue;
        const move = letter + '@' + sq;
        if (state.info.legal.includes(move)) return move;
      }
    }
  }
  return null;
}

/** The men (not pawns) of `color` on the board: square -> letter. */
function placedMen(color) {
  const out = {};
  const rows = state.info.board.split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) { file += Number(c); continue; }
      const white = c === c.toUpperCase();
      if ((color === 'white') === white && c.toUpperCase() !== 'P') {
        out['abcdefgh'[file] + (8 - i)] = c.toUpperCase();
      }
      file += 1;
    }
  });
  return out;
}

function stopThinking() {
  state.searchId += 1;
  player.send('stop');
  $('thinking').textContent = '';
}

function newGame() {
  stopThinking();
  state.moves = [];
  state.autoPlace = false;
  state.player = $('side').value;
  cg.set({ orientation: state.player });
  player.send('ucinewgame');
  refresh();
}

function copy(text) {
  $('copied').value = text;
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

async function main() {
  const [a, b, f] = await Promise.all([Sitke(), Sitke(), fetch('../formations.json').then((r) => r.json())]);
  formations = f.formations;
  rules = new Engine(a);
  player = new Engine(b);
  for (const e of [rules, player]) {
    e.send('uci');
    e.send('setoption name UCI_Variant value sittuyin');
  }
  LEVELS.forEach((lv, i) => $('level').add(new Option(lv.name, String(i))));
  $('level').value = String(LEVELS.length - 1);
  cg = Chessground($('board'), {
    orientation: 'white',
    coordinates: true,
    animation: { duration: 150 },
    movable: { free: false, showDests: true, events: { after: onMove } },
    draggable: { showGhost: true },
    events: {
      dropNewPiece: (piece, key) => tryDrop(LETTER[piece.role], key),
      select: (key) => {
        if (state.pocketPick && playersTurn()) tryDrop(state.pocketPick, key);
        else showPromotion(key);
      },
    },
  });
  $('place-rest').onclick = () => { state.autoPlace = true; placeNext(); };
  $('flip').onclick = () => { cg.toggleOrientation(); renderPockets(); };
  $('takeback').onclick = () => {
    stopThinking();
    // Back to the player's previous turn: the engine's reply and the player's move.
    do { state.moves.pop(); } while (state.moves.length && (state.moves.length % 2 === 0) !== (state.player === 'white'));
    state.autoPlace = false;
    refresh();
  };
  $('new-game').onclick = newGame;
  $('side').onchange = newGame;
  $('copy-fen').onclick = () => copy(state.info.fen);
  $('copy-moves').onclick = () => copy(positionCommand(state.moves));
  // `?moves=K@g2 K@c7 ...` opens a game where it stands (Copy moves gives such a list).
  const given = new URLSearchParams(location.search).get('moves');
  if (given) state.moves = given.trim().split(/\s+/);
  window.sitkePage = { state, interruptible: a.interruptible };
  await refresh();
  document.body.dataset.ready = '1';
}

main().catch((e) => { $('status').textContent = 'Error: ' + e.message; console.error(e); });
