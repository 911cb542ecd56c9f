//! The CECP front-end (XBoard protocol 2), entered with `xboard`: what XBoard/WinBoard and
//! cutechess (`proto=xboard`) talk to.
//!
//! Unlike UCI, the engine keeps the game: it applies the host's moves (`usermove`) and its
//! own, decides when to think (the side it plays is to move), ponders on the move it expects
//! (`hard`), analyses (`analyze`) and claims results when the game ends by rule. The position,
//! the options and the jobs are the core's, as under UCI; this front-end keeps the game's
//! modes and clocks, and hears of each search's end through the core's event channel. A
//! search's result is used only if it is still wanted (a `force`, `new`, `undo` or `setboard`
//! meanwhile cancels it), and `pong` is held back until a move being thought about has been
//! sent, as CECP asks. When the input ends, a move being thought about is still sent (as
//! `echo "go depth 9" | sitke` prints its `bestmove`); pondering and analysis stop.

use super::cecp::{self, CecpReport, Clock};
use super::core::{Core, Ending, Event, Flow, Frontend, MAX_LINE, SearchEnd, truncate};
use super::engine::SearchOutput;
use super::go::Go;
use super::notice::Report;
use super::options;
use super::wire::send;
use crate::board::{Color, Move, Position, Rules};
use crate::search::{Bound, Info, Limits};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// A draw offer is accepted when the engine's last score is at most this (centipawns):
/// worse than an even game.
const DRAW_ACCEPT_CP: i32 = -50;

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
        let _ = self.tx.send(Event::Done(SearchEnd { id: self.id, best, ponder, value }));
    }
}

/// The CECP front-end: the game's clocks and modes (the position is the core's).
pub struct Xboard {
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
    /// The input ended: the move being thought about is the last thing to send.
    eof: bool,
}

impl Xboard {
    /// A session in the state `new` leaves: the engine plays Black.
    pub fn new() -> Xboard {
        Xboard {
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
            eof: false,
        }
    }

    /// Handles one command line.
    fn handle(&mut self, c: &mut Core, line: &str) -> Flow {
        let line = line.trim();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else { return Flow::Continue };
        let rest = line[cmd.len()..].trim();
        match cmd {
            "protover" => send(&cecp::features()),
            "new" => self.new_game(c),
            "variant" => self.variant(c, rest),
            "force" => {
                self.cancel(c);
                self.plays = None;
            }
            "go" => {
                self.cancel(c);
                self.analyzing = false;
                self.plays = Some(c.pos.side_to_move());
                self.think(c);
            }
            "playother" => {
                self.cancel(c);
                self.plays = Some(!c.pos.side_to_move());
            }
            "usermove" => self.user_move(c, rest),
            "setboard" => self.setboard(c, rest),
            "undo" => self.take_back(c, 1, cmd),
            "remove" => self.take_back(c, 2, cmd),
            "result" => {
                self.cancel(c);
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
                    self.cancel(c);
                }
            }
            "analyze" => {
                self.cancel(c);
                self.plays = None;
                self.analyzing = true;
                self.analyze(c);
            }
            "exit" => {
                if self.analyzing {
                    self.cancel(c);
                    self.analyzing = false;
                }
            }
            "?" => {
                if self.thinking() {
                    c.engine.stop();
                }
            }
            "ping" => {
                let pong = format!("pong {}", args.first().map_or(String::new(), |a| truncate(a)));
                // A move being thought about comes first; pondering and analysis do not count.
                if self.thinking() {
                    self.pongs.push(pong);
                } else {
                    send(&pong);
                }
            }
            "hint" => {
                if self.hint.is_some() && c.pos.is_legal(self.hint) {
                    send(&format!("Hint: {}", cecp::move_text(&c.pos, self.hint, self.xboard_host)));
                }
            }
            "draw" => {
                if self.plays.is_some() && self.last_value.is_some_and(|v| v <= DRAW_ACCEPT_CP) {
                    send("offer draw");
                }
            }
            "memory" => {
                c.set_option(&format!("name Hash value {}", args.first().copied().unwrap_or_default()));
            }
            "cores" => {
                c.set_option(&format!("name Threads value {}", args.first().copied().unwrap_or_default()));
            }
            "option" => {
                let (name, value) = match rest.split_once('=') {
                    Some((n, v)) => (n.trim(), Some(v.trim())),
                    None => (rest, None),
                };
                c.set_option(&options::xboard_setoption(name, value));
            }
            "lift" => send(&cecp::highlight(&c.pos, args.first().copied().unwrap_or_default())),
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

    fn new_game(&mut self, c: &mut Core) {
        self.cancel(c);
        c.pos = Position::startpos_with(c.options.rules());
        self.plays = Some(Color::Black);
        self.clock.new_game();
        self.reset_game();
        c.new_game();
        if self.analyzing {
            self.analyze(c);
        }
    }

    /// Forgets what belonged to the game left behind.
    fn reset_game(&mut self) {
        self.hint = Move::NONE;
        self.last_value = None;
        self.claimed = false;
    }

    fn variant(&mut self, c: &mut Core, name: &str) {
        // Each rule set is a variant of its own name; the `Rules` option, if set, still wins.
        let Some(rules) = Rules::ALL.into_iter().find(|r| r.name.eq_ignore_ascii_case(name)) else {
            error("unsupported variant", &truncate(name));
            return;
        };
        c.options.variant = rules;
        c.rules_changed();
        // XBoard knows no Sittuyin: teach it the board, the start and the pieces.
        let mut text = format!("{}\n", cecp::setup_line());
        for p in cecp::PIECES {
            text.push_str(p);
            text.push('\n');
        }
        send(&text);
    }

    fn setboard(&mut self, c: &mut Core, fen: &str) {
        self.cancel(c);
        match Position::from_fen_with(fen, c.options.rules()) {
            Ok(p) => {
                c.pos = p;
                self.reset_game();
            }
            Err(e) => send(&format!("tellusererror Illegal position: {}", truncate(&e.to_string()))),
        }
        if self.analyzing {
            self.analyze(c);
        }
    }

    fn user_move(&mut self, c: &mut Core, text: &str) {
        let Some(m) = cecp::parse_move(&c.pos, text) else {
            send(&format!("Illegal move: {}", truncate(text)));
            return;
        };
        if let Some(Job { id, purpose: Purpose::Ponder { expected } }) = self.job
            && m == expected
        {
            // Ponder hit: the search goes on, now on the clock, and its move is played.
            c.pos.do_move(m);
            self.job = Some(Job { id, purpose: Purpose::Think });
            c.engine.ponderhit();
            return;
        }
        self.cancel(c);
        c.pos.do_move(m);
        if self.analyzing {
            self.analyze(c);
        } else if self.plays == Some(c.pos.side_to_move()) {
            self.think(c);
        }
    }

    fn take_back(&mut self, c: &mut Core, plies: usize, cmd: &str) {
        self.cancel(c);
        if c.pos.history_len() < plies {
            error("command not legal now", cmd);
            return;
        }
        for _ in 0..plies {
            c.pos.undo_move();
        }
        self.claimed = false;
        if self.analyzing {
            self.analyze(c);
        }
    }

    /// Claims the result if the game is over and the engine is playing; returns whether
    /// the game is over.
    fn claim_if_over(&mut self, c: &mut Core) -> bool {
        let Some(claim) = cecp::result_claim(c.pos.outcome()) else { return false };
        // cutechess knows no repetition draw in Sittuyin and counts by rules of its own; it
        // ends the game itself where it sees an end, and a claim it does not share forfeits.
        // So to a host other than XBoard the engine claims only when no move is left, and
        // otherwise plays on.
        if !self.xboard_host && c.pos.has_legal_move() {
            return false;
        }
        if self.plays.is_some() && !self.claimed {
            self.claimed = true;
            send(&claim);
        }
        true
    }

    /// Starts thinking about the engine's move, unless the game is over.
    fn think(&mut self, c: &mut Core) {
        if self.claim_if_over(c) {
            return;
        }
        let limits = self.clock.limits(&c.pos);
        self.start(c, c.pos.clone(), limits, false, Purpose::Think);
    }

    /// Analyses the current position until told otherwise.
    fn analyze(&mut self, c: &mut Core) {
        self.cancel(c);
        if !c.pos.has_legal_move() {
            return;
        }
        self.start(c, c.pos.clone(), Limits { infinite: true, ..Limits::default() }, false, Purpose::Analyze);
    }

    /// After the engine's move: think on the opponent's time about the reply it expects.
    fn start_ponder(&mut self, c: &mut Core) {
        let expected = self.hint;
        if !self.ponder || !expected.is_some() || !c.pos.is_legal(expected) {
            return;
        }
        let mut pos = c.pos.clone();
        pos.do_move(expected);
        if pos.outcome().is_over() {
            return;
        }
        let limits = self.clock.limits(&pos);
        self.start(c, pos, limits, true, Purpose::Ponder { expected });
    }

    fn start(&mut self, c: &mut Core, pos: Position, limits: Limits, ponder: bool, purpose: Purpose) {
        let id = self.next_id;
        self.next_id += 1;
        let out = CecpOutput {
            id,
            post: self.post || purpose == Purpose::Analyze,
            tx: c.events(),
            last: std::sync::Mutex::new(None),
        };
        let go = Go { limits, ponder, perft: None };
        // A search that did not start (reported) will send no `Done` to wait for.
        if c.engine.start_search(pos, go, &c.options, Arc::new(out)) {
            self.job = Some(Job { id, purpose });
        }
    }

    /// Stops the running search and drops its result (its `Done` no longer matches a job).
    fn cancel(&mut self, c: &mut Core) {
        if self.job.take().is_some() {
            c.engine.stop_and_join();
        }
        self.flush_pongs();
    }

    /// Whether the engine is thinking about its own move (not pondering or analysing).
    fn thinking(&self) -> bool {
        matches!(self.job, Some(Job { purpose: Purpose::Think, .. }))
    }

    fn flush_pongs(&mut self) {
        for p in std::mem::take(&mut self.pongs) {
            send(&p);
        }
    }

    fn move_done(&mut self, c: &mut Core, end: SearchEnd) {
        let SearchEnd { id, best, ponder, value } = end;
        let Some(job) = self.job.filter(|j| j.id == id) else { return };
        self.job = None;
        // Ponder and analysis searches end only when stopped, and then are not wanted.
        if job.purpose == Purpose::Think {
            self.last_value = value;
            if best.is_some() && c.pos.is_legal(best) {
                send(&format!("move {}", cecp::move_text(&c.pos, best, self.xboard_host)));
                c.pos.do_move(best);
                self.hint = ponder;
                // After the input ended nobody will answer: no pondering then.
                if !self.claim_if_over(c) && !self.eof {
                    self.start_ponder(c);
                }
            } else {
                self.claim_if_over(c);
            }
        }
        self.flush_pongs();
    }
}

/// `Error (KIND): DETAIL`, CECP's answer to a command it cannot carry out.
fn error(kind: &str, detail: &str) {
    send(&format!("Error ({kind}): {detail}"));
}

impl Default for Xboard {
    fn default() -> Self {
        Xboard::new()
    }
}

impl Frontend for Xboard {
    fn report(&self) -> Arc<dyn Report> {
        Arc::new(CecpReport)
    }

    /// CECP starts a game from the start position, whatever UCI commands came before.
    fn start(&mut self, c: &mut Core) {
        c.pos = Position::startpos_with(c.options.rules());
    }

    fn command(&mut self, c: &mut Core, line: &str) -> Flow {
        self.handle(c, line)
    }

    fn too_long(&mut self, _c: &mut Core) {
        error("line too long", &format!("more than {MAX_LINE} bytes, ignored"));
    }

    fn search_done(&mut self, c: &mut Core, end: SearchEnd) -> Flow {
        self.move_done(c, end);
        if self.eof && !self.thinking() { Flow::EndOfInput } else { Flow::Continue }
    }

    /// A move being thought about ends by itself (clock, `st`, `sd`): it is waited for and
    /// sent, as UCI's `bestmove` is at the end of input. Pondering and analysis would run
    /// until stopped; `close` stops them.
    fn end_of_input(&mut self, _c: &mut Core) -> Flow {
        self.eof = true;
        if self.thinking() { Flow::Continue } else { Flow::EndOfInput }
    }

    /// Any search still running is stopped; its result is not wanted.
    fn close(&mut self, c: &mut Core, ending: Ending) {
        self.cancel(c);
        c.end_jobs(ending);
    }
}
