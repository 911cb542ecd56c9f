//! CECP (XBoard protocol 2), entered with `xboard`: the session that XBoard/WinBoard and
//! cutechess (`proto=xboard`) talk to.
//!
//! Unlike UCI, the engine keeps the game: it applies the host's moves (`usermove`) and its
//! own, decides when to think (the side it plays is to move), ponders on the move it expects
//! (`hard`), analyses (`analyze`) and claims results when the game ends by rule. So one thread
//! owns all that state and takes events in order from a channel: lines from a reader thread,
//! and the end of each search from the search job. A search's result is used only if it is
//! still wanted (a `force`, `new`, `undo` or `setboard` meanwhile cancels it), and `pong` is
//! held back until a move being thought about has been sent, as CECP asks.

use super::cecp::{self, Clock};
use super::engine::{Engine, SearchOutput};
use super::go::Go;
use super::lines::{Line, LineReader};
use super::options::{self, Accepted, Id, Options, VARIANT};
use super::output::send;
use super::uci::{Flow, MAX_LINE, truncate};
use crate::board::{Color, Move, Position};
use crate::search::{Bound, Info, Limits};
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

/// A draw offer is accepted when the engine's last score is at most this (centipawns):
/// worse than an even game.
const DRAW_ACCEPT_CP: i32 = -50;

/// What the session waits for.
pub enum Event {
    /// A line from the host (or a line that was too long).
    Line(Line),
    /// The host closed the input.
    Eof,
    /// Search `id` ended.
    Done {
        /// Which search.
        id: u64,
        /// Its move, `Move::NONE` when there is none.
        best: Move,
        /// The reply it expects.
        ponder: Move,
        /// Its last exact score, for the side to move.
        value: Option<i32>,
    },
}

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move, sent when the search ends.
    Think,
    /// Thinking on the opponent's time about the position after `expected`.
    Ponder {
        /// The opponent's move the search assumes.
        expected: Move,
    },
    /// `analyze`: runs until the position changes or `exit`.
    Analyze,
}

/// The running search.
#[derive(Clone, Copy, Debug)]
struct Job {
    id: u64,
    purpose: Purpose,
}

/// Thinking output for one search, and its end as an event.
struct CecpOutput {
    id: u64,
    post: bool,
    tx: Sender<Event>,
    last: std::sync::Mutex<Option<i32>>,
}

impl SearchOutput for CecpOutput {
    fn info(&self, info: &Info) {
        // CECP shows one line; a fail-high or fail-low bound is not yet a result.
        if info.multipv != 1 || info.bound != Bound::Exact {
            return;
        }
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(info.value);
        if self.post {
            send(&cecp::thinking_line(info));
        }
    }

    fn done(&self, _pos: &Position, best: Move, ponder: Move) {
        let value = *self.last.lock().unwrap_or_else(|p| p.into_inner());
        // The session may be gone (quit): nobody needs the result then.
        let _ = self.tx.send(Event::Done { id: self.id, best, ponder, value });
    }
}

/// The CECP session: the game, the clocks, the modes and the engine.
pub struct Xboard {
    pos: Position,
    options: Options,
    engine: Engine,
    clock: Clock,
    /// The side the engine plays; `None` in force mode.
    plays: Option<Color>,
    analyzing: bool,
    post: bool,
    ponder: bool,
    job: Option<Job>,
    next_id: u64,
    /// The reply the engine expects to its last move (`hint`, and what it ponders on).
    hint: Move,
    /// The engine's last score, from its side.
    last_value: Option<i32>,
    /// Whether the result of the game was already claimed.
    claimed: bool,
    /// `pong` answers held back until the move being thought about is sent.
    pongs: Vec<String>,
    /// The host accepted the `highlight` feature: XBoard or WinBoard, which need some moves in
    /// forms of their own (`cecp::move_text`) and, with legality testing off, leave ending the
    /// game to the engines' claims. cutechess rejects `highlight`; it judges every game by its
    /// own rules and forfeits a claim it does not share.
    xboard_host: bool,
    tx: Sender<Event>,
}

impl Xboard {
    /// A session at the start position, in the state `new` leaves: the engine plays Black.
    pub fn new(tx: Sender<Event>) -> Xboard {
        Xboard {
            pos: Position::startpos(),
            options: Options::default(),
            engine: Engine::new(),
            clock: Clock::default(),
            plays: Some(Color::Black),
            analyzing: false,
            post: false,
            ponder: false,
            job: None,
            next_id: 1,
            hint: Move::NONE,
            last_value: None,
            claimed: false,
            pongs: Vec::new(),
            xboard_host: false,
            tx,
        }
    }

    /// Handles one event; `Flow::Quit` ends the session.
    pub fn event(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(Line::Text(text)) => {
                log::debug!("<< {}", text.trim_end());
                return self.handle(&text);
            }
            Event::Line(Line::TooLong) => error("line too long", &format!("more than {MAX_LINE} bytes, ignored")),
            Event::Eof => return Flow::Quit,
            Event::Done { id, best, ponder, value } => self.search_done(id, best, ponder, value),
        }
        Flow::Continue
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Flow::Continue };
        let rest = line[cmd.len()..].trim();
        match cmd {
            "protover" => send(&cecp::features()),
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "force" => {
                self.cancel();
                self.plays = None;
            }
            "go" => {
                self.cancel();
                self.analyzing = false;
                self.plays = Some(self.pos.side_to_move());
                self.think();
            }
            "playother" => {
                self.cancel();
                self.plays = Some(!self.pos.side_to_move());
            }
            "usermove" => self.user_move(rest),
            "setboard" => self.setboard(rest),
            "undo" => self.take_back(1, cmd),
            "remove" => self.take_back(2, cmd),
            "result" => {
                self.cancel();
                self.plays = None;
            }
            "time" | "otim" => match args.first().and_then(|t| cecp::parse_centis(t)) {
                Some(t) if cmd == "time" => self.clock.own = Some(t),
                Some(t) => self.clock.opp = Some(t),
                None => error("bad argument", line),
            },
            "level" => match cecp::parse_level(args) {
                Ok((mps, base, inc)) => {
                    (self.clock.mps, self.clock.base, self.clock.inc) = (mps, base, inc);
                    self.clock.per_move = None;
                }
                Err(e) => error(&format!("bad argument: {e}"), line),
            },
            "st" => match args.first().and_then(|t| t.parse::<f64>().ok()).filter(|s| (0.0..1e7).contains(s)) {
                Some(s) => self.clock.per_move = Some(Duration::from_secs_f64(s)),
                None => error("bad argument", line),
            },
            "sd" => match args.first().and_then(|t| t.parse::<u32>().ok()).filter(|&d| d >= 1) {
                Some(d) => self.clock.depth = Some(d.min(1000)),
                None => error("bad argument", line),
            },
            "nps" => match args.first().and_then(|t| t.parse::<u64>().ok()) {
                Some(n) => self.clock.nps = (n > 0).then_some(n),
                None => error("bad argument", line),
            },
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if matches!(self.job, Some(Job { purpose: Purpose::Ponder { .. }, .. })) {
                    self.cancel();
                }
            }
            "analyze" => {
                self.cancel();
                self.plays = None;
                self.analyzing = true;
                self.analyze();
            }
            "exit" => {
                if self.analyzing {
                    self.cancel();
                    self.analyzing = false;
                }
            }
            "?" => {
                if matches!(self.job, Some(Job { purpose: Purpose::Think, .. })) {
                    self.engine.stop();
                }
            }
            "ping" => {
                let pong = format!("pong {}", args.first().map_or(String::new(), |a| truncate(a)));
                // A move being thought about comes first; pondering and analysis do not count.
                if matches!(self.job, Some(Job { purpose: Purpose::Think, .. })) {
                    self.pongs.push(pong);
                } else {
                    send(&pong);
                }
            }
            "hint" => {
                if self.hint.is_some() && self.pos.is_legal(self.hint) {
                    send(&format!("Hint: {}", cecp::move_text(&self.pos, self.hint, self.xboard_host)));
                }
            }
            "draw" => {
                if self.plays.is_some() && self.last_value.is_some_and(|v| v <= DRAW_ACCEPT_CP) {
                    send("offer draw");
                }
            }
            "memory" => self.set_option(&format!("name Hash value {}", args.first().copied().unwrap_or_default())),
            "cores" => self.set_option(&format!("name Threads value {}", args.first().copied().unwrap_or_default())),
            "option" => {
                let (name, value) = match rest.split_once('=') {
                    Some((n, v)) => (n.trim(), Some(v.trim())),
                    None => (rest, None),
                };
                self.set_option(&options::xboard_setoption(name, value));
            }
            "lift" => send(&cecp::highlight(&self.pos, args.first().copied().unwrap_or_default())),
            // Nothing to do for these: options the engine does not have, the opponent's
            // name and rating, periodic updates, clicks without a highlight to answer.
            "accepted" if args.first() == Some(&"highlight") => self.xboard_host = true,
            "rejected" if args.first() == Some(&"highlight") => self.xboard_host = false,
            "xboard" | "accepted" | "rejected" | "computer" | "name" | "rating" | "random" | "." | "hover" | "put"
            | "ics" | "white" | "black" | "bk" | "edit" | "pause" | "resume" | "uci" => {}
            "quit" => return Flow::Quit,
            _ => error("unknown command", &truncate(line)),
        }
        Flow::Continue
    }

    /// Ends the session: any search is stopped (its result is not wanted).
    pub fn close(&mut self) {
        self.cancel();
        self.engine.stop_and_join();
    }

    fn new_game(&mut self) {
        self.cancel();
        self.pos = Position::startpos();
        self.plays = Some(Color::Black);
        self.clock.new_game();
        self.reset_game();
        self.engine.clear();
        if self.analyzing {
            self.analyze();
        }
    }

    /// Forgets what belonged to the game left behind.
    fn reset_game(&mut self) {
        self.hint = Move::NONE;
        self.last_value = None;
        self.claimed = false;
    }

    fn variant(&mut self, name: &str) {
        if !name.eq_ignore_ascii_case(VARIANT) {
            error("unsupported variant", &truncate(name));
            return;
        }
        // XBoard knows no Sittuyin: teach it the board, the start and the pieces.
        let mut text = format!("{}\n", cecp::setup_line());
        for p in cecp::PIECES {
            text.push_str(p);
            text.push('\n');
        }
        send(&text);
    }

    fn setboard(&mut self, fen: &str) {
        self.cancel();
        match Position::from_fen(fen) {
            Ok(p) => {
                self.pos = p;
                self.reset_game();
            }
            Err(e) => send(&format!("tellusererror Illegal position: {}", truncate(&e.to_string()))),
        }
        if self.analyzing {
            self.analyze();
        }
    }

    fn user_move(&mut self, text: &str) {
        let Some(m) = cecp::parse_move(&self.pos, text) else {
            send(&format!("Illegal move: {}", truncate(text)));
            return;
        };
        if let Some(Job { id, purpose: Purpose::Ponder { expected } }) = self.job
            && m == expected
        {
            // Ponder hit: the search goes on, now on the clock, and its move is played.
            self.pos.do_move(m);
            self.job = Some(Job { id, purpose: Purpose::Think });
            self.engine.ponderhit();
            return;
        }
        self.cancel();
        self.pos.do_move(m);
        if self.analyzing {
            self.analyze();
        } else if self.plays == Some(self.pos.side_to_move()) {
            self.think();
        }
    }

    fn take_back(&mut self, plies: usize, cmd: &str) {
        self.cancel();
        if self.pos.history_len() < plies {
            error("command not legal now", cmd);
            return;
        }
        for _ in 0..plies {
            self.pos.undo_move();
        }
        self.claimed = false;
        if self.analyzing {
            self.analyze();
        }
    }

    fn set_option(&mut self, args: &str) {
        let before = self.options.clone();
        match self.options.set(args) {
            Ok(Accepted(Id::Hash | Id::Threads)) => {
                if let Err(e) = self.engine.configure(&self.options) {
                    self.options = before;
                    error("option", &e);
                }
            }
            Ok(Accepted(Id::ClearHash)) => self.engine.clear(),
            Ok(Accepted(Id::EvalFile)) => {
                if let Err(e) = self.engine.load_network(&self.options.eval_file) {
                    self.options = before;
                    error("bad option", &truncate(&e));
                }
            }
            Ok(_) => {}
            Err(e) => error("bad option", &truncate(&e.to_string())),
        }
    }

    /// Claims the result if the game is over and the engine is playing; returns whether
    /// the game is over.
    fn claim_if_over(&mut self) -> bool {
        let Some(claim) = cecp::result_claim(self.pos.outcome()) else { return false };
        // cutechess knows no repetition draw in Sittuyin and counts by rules of its own; it
        // ends the game itself where it sees an end, and a claim it does not share forfeits.
        // So to a host other than XBoard the engine claims only when no move is left, and
        // otherwise plays on.
        if !self.xboard_host && self.pos.has_legal_move() {
            return false;
        }
        if self.plays.is_some() && !self.claimed {
            self.claimed = true;
            send(&claim);
        }
        true
    }

    /// Starts thinking about the engine's move, unless the game is over.
    fn think(&mut self) {
        if self.claim_if_over() {
            return;
        }
        let limits = self.clock.limits(&self.pos);
        self.start(self.pos.clone(), limits, false, Purpose::Think);
    }

    /// Analyses the current position until told otherwise.
    fn analyze(&mut self) {
        self.cancel();
        if !self.pos.has_legal_move() {
            return;
        }
        self.start(self.pos.clone(), Limits { infinite: true, ..Limits::default() }, false, Purpose::Analyze);
    }

    /// After the engine's move: think on the opponent's time about the reply it expects.
    fn start_ponder(&mut self) {
        let expected = self.hint;
        if !self.ponder || !expected.is_some() || !self.pos.is_legal(expected) {
            return;
        }
        let mut pos = self.pos.clone();
        pos.do_move(expected);
        if pos.outcome().is_over() {
            return;
        }
        let limits = self.clock.limits(&pos);
        self.start(pos, limits, true, Purpose::Ponder { expected });
    }

    fn start(&mut self, pos: Position, limits: Limits, ponder: bool, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        let out = CecpOutput {
            id,
            post: self.post || purpose == Purpose::Analyze,
            tx: self.tx.clone(),
            last: std::sync::Mutex::new(None),
        };
        let go = Go { limits, ponder, perft: None };
        self.engine.start_search(pos, go, &self.options, Arc::new(out));
        self.job = Some(Job { id, purpose });
    }

    /// Stops the running search and drops its result (its `Done` no longer matches a job).
    fn cancel(&mut self) {
        if self.job.take().is_some() {
            self.engine.stop_and_join();
        }
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        for p in std::mem::take(&mut self.pongs) {
            send(&p);
        }
    }

    fn search_done(&mut self, id: u64, best: Move, ponder: Move, value: Option<i32>) {
        let Some(job) = self.job.filter(|j| j.id == id) else { return };
        self.job = None;
        // Ponder and analysis searches end only when stopped, and then are not wanted.
        if job.purpose == Purpose::Think {
            self.last_value = value;
            if best.is_some() && self.pos.is_legal(best) {
                send(&format!("move {}", cecp::move_text(&self.pos, best, self.xboard_host)));
                self.pos.do_move(best);
                self.hint = ponder;
                if !self.claim_if_over() {
                    self.start_ponder();
                }
            } else {
                self.claim_if_over();
            }
        }
        self.flush_pongs();
    }
}

/// `Error (KIND): DETAIL`, CECP's answer to a command it cannot carry out.
fn error(kind: &str, detail: &str) {
    send(&format!("Error ({kind}): {detail}"));
}

/// Runs the CECP session on stdin until `quit` or the end of input. The UCI loop calls it
/// when the host says `xboard`; the lines it has not read yet stay in stdin's buffer.
pub fn run() {
    let (tx, rx) = channel();
    let input_tx = tx.clone();
    // The reader blocks on stdin; it dies with the process when the session ends.
    let spawned = std::thread::Builder::new().name("input".into()).spawn(move || {
        let mut input = LineReader::new(std::io::stdin().lock(), MAX_LINE);
        while let Some(line) = input.next_line() {
            if input_tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = input_tx.send(Event::Eof);
    });
    if let Err(e) = spawned {
        error("internal", &format!("cannot start the input thread: {e}"));
        return;
    }
    let mut session = Xboard::new(tx);
    while let Ok(event) = rx.recv() {
        if session.event(event) == Flow::Quit {
            break;
        }
    }
    session.close();
}
