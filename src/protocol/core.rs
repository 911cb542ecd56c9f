//! The protocol core: one input reader, one engine state, and the loop that hands each
//! input line to the front-end the host chose (UCI/USI at first, CECP after `xboard`).
//!
//! The core owns what every protocol shares: the position, the options and what setting
//! them does (the hash table, the threads, the net, the tablebases), and the jobs
//! (`engine`). It writes no protocol text: what it has to say goes to the front-end's
//! `Report` as a typed `Notice`. A front-end (`Frontend`) reads its protocol's commands,
//! acts on the core, and words the results; front-ends depend on the core, never the
//! reverse, and never on each other (`protocol::run` picks them).
//!
//! Input is read by a thread of its own, one line at a time: it hands a line to the loop
//! and reads the next only once the loop has taken that one in. So a command that has to
//! wait (a `go` behind a running perft) holds back the lines after it in the pipe, not in
//! the engine's memory, while a front-end that needs to hear of a search's end while idle
//! (CECP) gets it through the same channel (`Event::Done`).

use super::engine::{Engine, JobKind};
use super::lines::{Line, LineReader};
use super::notice::{Notice, Report};
use super::options::{Accepted, Id, OptionError, Options};
use crate::board::{Move, Position};
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};

pub use super::notice::truncate;

/// Engine name as sent in `id name` and CECP's `myname`.
pub const ENGINE_NAME: &str = concat!("Sitke ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const ENGINE_AUTHOR: &str = "the Sitke developers";
/// Lines longer than this (bytes) are refused: no host sends them, and a runaway producer
/// must not make the engine hold gigabytes (the reader drops the excess as it arrives).
pub const MAX_LINE: usize = 1 << 20;

/// The protocols a front-end speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI, and its USI dialect.
    Uci,
    /// CECP (XBoard protocol 2).
    Cecp,
}

/// Whether the loop goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Take the next event.
    Continue,
    /// `quit` was received.
    Quit,
    /// The input ended and nothing the front-end waits for is left.
    EndOfInput,
    /// The host speaks another protocol from now on (`xboard`).
    Switch(Protocol),
}

/// How a front-end's session ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `quit`: searches stop at once.
    Quit,
    /// The end of input: jobs that end by themselves are waited for.
    EndOfInput,
    /// Another front-end takes over.
    Switch,
}

/// The end of a search a front-end asked to hear about (CECP's moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchEnd {
    /// The front-end's number for the search.
    pub id: u64,
    /// Its move, `Move::NONE` when there is none.
    pub best: Move,
    /// The reply it expects.
    pub ponder: Move,
    /// Its last exact score, for the side to move.
    pub value: Option<i32>,
}

/// What the loop waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line from the host (or a line that was too long).
    Line(Line),
    /// The host closed the input.
    Eof,
    /// A search ended.
    Done(SearchEnd),
}

/// A protocol front-end: turns its commands into actions on the core and words what comes
/// back.
pub trait Frontend {
    /// Where the core's notices go while this front-end speaks.
    fn report(&self) -> Arc<dyn Report>;
    /// Takes over from the start or from another front-end.
    fn start(&mut self, core: &mut Core);
    /// Handles one command line (CRLF and surrounding blanks allowed).
    fn command(&mut self, core: &mut Core, line: &str) -> Flow;
    /// Answers a line longer than `MAX_LINE` (already dropped by the reader).
    fn too_long(&mut self, core: &mut Core);
    /// A search that reports through `Event::Done` ended. Front-ends whose searches report
    /// otherwise (UCI's `bestmove` comes from the job) never get one.
    fn search_done(&mut self, _core: &mut Core, _end: SearchEnd) -> Flow {
        Flow::Continue
    }
    /// The input ended; `Flow::Continue` keeps the loop for events still to come.
    fn end_of_input(&mut self, _core: &mut Core) -> Flow {
        Flow::EndOfInput
    }
    /// The session ends.
    fn close(&mut self, core: &mut Core, ending: Ending);
}

/// The state every protocol shares.
pub struct Core {
    /// The position searches start from.
    pub pos: Position,
    /// The options as set.
    pub options: Options,
    /// The searcher and its jobs.
    pub engine: Engine,
    events: Sender<Event>,
}

impl Core {
    /// The start position, the default options, an idle engine reporting to `report`;
    /// `events` is the loop's channel.
    pub fn new(events: Sender<Event>, report: Arc<dyn Report>) -> Core {
        Core { pos: Position::startpos(), options: Options::default(), engine: Engine::new(report), events }
    }

    /// The rule set in force has been set: where it differs from the position's, the
    /// position starts again under it (a position set up under other rules may not be one
    /// under these), and the tables under `TablebasePath` are those of the new rules.
    /// Setting the rules already in force keeps the position, as it did before rule sets
    /// existed: hosts send `UCI_Variant sittuyin` at any time.
    pub fn rules_changed(&mut self) {
        let rules = self.options.rules();
        if *rules != *self.pos.rules() {
            self.pos = Position::startpos_with(rules);
            if !self.options.tablebase_path.is_empty() {
                self.open_tablebases();
            }
        }
    }

    /// The one place `TablebasePath` and the rules in force decide which tables the search
    /// probes; a notice says what was found.
    fn open_tablebases(&mut self) {
        let note = self.engine.set_tablebases(&self.options.tablebase_path, self.options.rules());
        self.engine.notice(note);
    }

    /// A sender into the loop's channel, for a search's `Event::Done`.
    pub fn events(&self) -> Sender<Event> {
        self.events.clone()
    }

    /// Applies `setoption` arguments (`name <id> [value <x>]`) and what the option does,
    /// under every protocol alike; notices say what happened. A value whose effect fails
    /// (a net that does not load, a table that does not fit) leaves the option as it was.
    pub fn set_option(&mut self, args: &str) -> Option<Id> {
        let before = self.options.clone();
        let id = match self.options.set(args) {
            Ok(Accepted(id)) => id,
            Err(OptionError::NotInList { name, value, .. }) if name == "UCI_Variant" => {
                self.engine.notice(Notice::UnsupportedVariant(value, self.options.variant.name));
                return None;
            }
            Err(e) => {
                self.engine.notice(Notice::Option(e));
                return None;
            }
        };
        let refused = match id {
            Id::Variant | Id::Rules => {
                // The variant line is what hosts parse; the rules line answers `Rules` only.
                let notice = match id {
                    Id::Variant => Notice::Variant(self.options.variant),
                    _ => Notice::Rules(self.options.rules()),
                };
                self.engine.notice(notice);
                self.rules_changed();
                None
            }
            Id::Threads if cfg!(target_arch = "wasm32") && self.options.threads > 1 => {
                self.engine.notice(Notice::OneThread { asked: self.options.threads });
                self.engine.configure(&self.options).err()
            }
            Id::Hash | Id::Threads => self.engine.configure(&self.options).err(),
            Id::ClearHash => {
                self.engine.clear();
                None
            }
            Id::TablebasePath => {
                self.open_tablebases();
                None
            }
            Id::EvalFile => match self.engine.load_network(&self.options.eval_file) {
                Ok(net) => {
                    let file = (!self.options.eval_file.is_empty()).then(|| self.options.eval_file.clone());
                    let loaded = Notice::NetLoaded { name: net.name().to_string(), file };
                    self.engine.notice(loaded);
                    None
                }
                Err(e) => Some(e),
            },
            _ => None,
        };
        match refused {
            Some(notice) => {
                self.options = before;
                self.engine.notice(notice);
                None
            }
            None => Some(id),
        }
    }

    /// A new game: a job that ends by itself is waited for (a script's perft keeps its
    /// count), a search that would run until `stop` is stopped, the table is cleared.
    pub fn new_game(&mut self) {
        self.engine.finish();
        self.engine.clear();
    }

    /// Readies the engine for a new job, as Fairy-Stockfish would: a job that ends by itself
    /// is waited for; a search that would wait for `stop` forever is stopped (`why` says
    /// what is starting, for the notice).
    pub fn make_room(&mut self, why: &'static str) {
        if self.engine.open_ended() {
            self.engine.notice(Notice::StoppingSearch { why });
        }
        self.engine.finish();
    }

    /// Ends the running job as the session ends. After `quit` a running search is stopped
    /// at once (it still reports its result), a running perft finishes (as in
    /// Fairy-Stockfish) and a bench is abandoned; at the end of input, jobs that end by
    /// themselves are waited for, so `echo "go depth 9" | sitke` prints its answer; for
    /// another front-end, searches and perft stop and a bench is waited for.
    pub fn end_jobs(&mut self, ending: Ending) {
        match (ending, self.engine.busy()) {
            (Ending::Quit, Some(JobKind::Bench)) => {}
            (Ending::Quit, Some(JobKind::Search { .. })) => self.engine.stop_and_join(),
            (Ending::Switch, _) => self.engine.stop_and_join(),
            (_, Some(_)) => {
                self.engine.finish();
            }
            (_, None) => {}
        }
    }
}

/// Runs the protocol loop on stdin until `quit` or the end of input, starting with the
/// `first` protocol; `make` builds the front-end for a protocol.
pub fn run(first: Protocol, make: impl Fn(Protocol) -> Box<dyn Frontend>) {
    let (tx, rx) = channel();
    // One credit per line: the reader reads the next line only when the loop took this one.
    let (credit, credits) = channel::<()>();
    let input = tx.clone();
    // The reader blocks on stdin; it dies with the process when the loop ends.
    let spawned = std::thread::Builder::new().name("input".into()).spawn(move || {
        let mut reader = LineReader::new(std::io::stdin().lock(), MAX_LINE);
        while let Some(line) = reader.next_line() {
            if input.send(Event::Line(line)).is_err() || credits.recv().is_err() {
                return;
            }
        }
        let _ = input.send(Event::Eof);
    });
    let mut frontend = make(first);
    let mut core = Core::new(tx, frontend.report());
    if let Err(e) = spawned {
        core.engine.notice(Notice::NoThread(e.to_string()));
        return;
    }
    frontend.start(&mut core);
    let ending = loop {
        // The core holds a sender, so the channel never closes under the loop.
        let Ok(event) = rx.recv() else { break Ending::EndOfInput };
        let flow = match event {
            Event::Line(line) => {
                let flow = match line {
                    // Bytes that are not UTF-8 became U+FFFD and end up in an "unknown" message.
                    Line::Text(text) => {
                        log::debug!("<< {}", text.trim_end());
                        frontend.command(&mut core, &text)
                    }
                    Line::TooLong => {
                        frontend.too_long(&mut core);
                        Flow::Continue
                    }
                };
                let _ = credit.send(());
                flow
            }
            Event::Eof => frontend.end_of_input(&mut core),
            Event::Done(end) => frontend.search_done(&mut core, end),
        };
        match flow {
            Flow::Continue => {}
            Flow::Quit => break Ending::Quit,
            Flow::EndOfInput => break Ending::EndOfInput,
            Flow::Switch(protocol) => {
                frontend.close(&mut core, Ending::Switch);
                frontend = make(protocol);
                core.engine.set_report(frontend.report());
                frontend.start(&mut core);
            }
        }
    };
    frontend.close(&mut core, ending);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Keeps every notice, as a front-end would word it.
    #[derive(Default)]
    struct Collect(Mutex<Vec<Notice>>);

    impl Report for Collect {
        fn notice(&self, notice: &Notice) {
            self.0.lock().unwrap().push(notice.clone());
        }
    }

    #[test]
    fn options_report_typed_notices_and_keep_the_old_value_on_failure() {
        let report = Arc::new(Collect::default());
        let (tx, _rx) = channel();
        let mut core = Core::new(tx, report.clone());
        let taken = || std::mem::take(&mut *report.0.lock().unwrap());

        // A folder that cannot be read is named, and play goes on without tables.
        assert_eq!(core.set_option("name TablebasePath value /sitke/no/such/dir"), Some(Id::TablebasePath));
        assert!(matches!(&taken()[..], [Notice::TablebasePath { dir, .. }] if dir == "/sitke/no/such/dir"));
        // A net that does not load leaves the option, and the net, as they were.
        assert_eq!(core.set_option("name EvalFile value /sitke/no/such.nnue"), None);
        assert!(matches!(&taken()[..], [Notice::EvalFile { file, .. }] if file == "/sitke/no/such.nnue"));
        assert_eq!(core.options.eval_file, "");
        assert_eq!(core.set_option("name EvalFile value"), Some(Id::EvalFile));
        assert!(matches!(&taken()[..], [Notice::NetLoaded { file: None, .. }]));
        assert_eq!(core.set_option("name Hash value 0"), None);
        assert!(matches!(&taken()[..], [Notice::Option(OptionError::OutOfRange { .. })]));
        assert_eq!(core.options.hash_mb, Options::default().hash_mb);
        assert_eq!(core.set_option("name UCI_Variant value chess"), None);
        assert_eq!(taken(), [Notice::UnsupportedVariant("chess".into(), "sittuyin")]);
        // An option without a side effect says nothing.
        assert_eq!(core.set_option("name Skill Level value 5"), Some(Id::SkillLevel));
        assert!(taken().is_empty());
        assert_eq!(core.options.skill_level, 5);
    }
}
