//! What the engine core has to tell the host, as typed values: the effect of an option
//! (`Tablebases`, `NetLoaded`), a refused option, a job that could not run. The core never
//! writes protocol text; each front-end wraps a notice in its protocol's form (UCI and USI
//! `info string error: ...`, CECP `Error (bad option): ...` or a `#` comment), around the
//! one message text given here, so every protocol says the same thing.

use super::options::{OptionError, VARIANTS};
use crate::board::Rules;
use crate::board::START_FEN;
use std::fmt;

/// How serious a notice is: the front-end's wrapper depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// What an option did (a net loaded, tables found).
    Note,
    /// Something was done otherwise than asked, and the engine goes on.
    Warning,
    /// A request was refused or failed; the state stays as it was.
    Error,
}

/// One thing the core reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// `UCI_Variant` was set: the board geometry and start position, in the words
    /// Fairy-Stockfish uses, which web GUIs parse, under the variant's name.
    Variant(&'static Rules),
    /// The `Rules` option (or the variant) put a rule set in force.
    Rules(&'static Rules),
    /// `TablebasePath` is set, but no table holds under the rules in force: play goes on
    /// without tables.
    TablebasesNotForRules {
        /// The rules in force.
        rules: &'static Rules,
        /// Why there is no table for them.
        why: String,
    },
    /// `TablebasePath` was emptied.
    TablebasesOff,
    /// `TablebasePath` names a folder that holds `tables` tables.
    Tablebases {
        /// How many table files the folder holds.
        tables: usize,
        /// The folder.
        dir: String,
    },
    /// `TablebasePath` names a folder that cannot be read; play goes on without tables.
    TablebasePath {
        /// The folder.
        dir: String,
        /// Why it cannot be read.
        error: String,
    },
    /// `EvalFile` loaded a net: from `file`, or the built-in one when `file` is None.
    NetLoaded {
        /// The net's name.
        name: String,
        /// The file it came from.
        file: Option<String>,
    },
    /// `EvalFile` names a file that is no usable net; the net in use stays.
    EvalFile {
        /// The file.
        file: String,
        /// What is wrong with it.
        error: String,
        /// The name of the net that stays in use.
        kept: String,
    },
    /// `Hash` asks for more memory than the machine has; the table keeps its size.
    HashTooLarge {
        /// The size asked for, in MiB.
        asked: usize,
        /// The memory available, in MiB.
        available: u64,
        /// The size kept, in MiB.
        kept: usize,
    },
    /// `UCI_Variant` names a variant other than Sittuyin.
    UnsupportedVariant(String, &'static str),
    /// Any other refused option.
    Option(OptionError),
    /// A new job (`why`: `go`, `bench`) arrived during a search that runs until `stop`.
    StoppingSearch {
        /// What is starting.
        why: &'static str,
    },
    /// `stop` or `quit` interrupted a perft.
    PerftStopped {
        /// Its depth.
        depth: u32,
    },
    /// The search panicked (a bug); the first legal move is played instead.
    SearchFailed,
    /// The job thread could not be started.
    NoThread(String),
    /// `Threads` asked for more than one thread where the build has only one (wasm32).
    OneThread {
        /// The number asked for.
        asked: usize,
    },
}

impl Notice {
    /// How serious the notice is.
    pub fn level(&self) -> Level {
        match self {
            Notice::Variant(_)
            | Notice::Rules(_)
            | Notice::TablebasesOff
            | Notice::Tablebases { .. }
            | Notice::NetLoaded { .. } => Level::Note,
            Notice::TablebasesNotForRules { .. } => Level::Warning,
            Notice::PerftStopped { .. } | Notice::OneThread { .. } => Level::Note,
            Notice::StoppingSearch { .. } => Level::Warning,
            _ => Level::Error,
        }
    }

    /// Whether the notice answers an option the host set (CECP files such errors under
    /// `bad option`).
    pub fn is_about_an_option(&self) -> bool {
        matches!(
            self,
            Notice::Variant(_)
                | Notice::Rules(_)
                | Notice::TablebasesNotForRules { .. }
                | Notice::TablebasesOff
                | Notice::Tablebases { .. }
                | Notice::TablebasePath { .. }
                | Notice::NetLoaded { .. }
                | Notice::EvalFile { .. }
                | Notice::HashTooLarge { .. }
                | Notice::UnsupportedVariant(..)
                | Notice::Option(_)
        )
    }
}

/// The message, the same under every protocol.
impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Variant(r) => {
                write!(f, "variant {} files 8 ranks 8 pocket 6 template bughouse startpos {START_FEN}", r.name)
            }
            Notice::Rules(r) => write!(f, "rules {}: {}", r.short_name(), r.title),
            Notice::TablebasesNotForRules { rules, why } => {
                write!(
                    f,
                    "no tablebases for the {} rules: {}; playing without tables",
                    rules.short_name(),
                    truncate(why)
                )
            }
            Notice::TablebasesOff => write!(f, "tablebases off"),
            Notice::Tablebases { tables, dir } => {
                write!(f, "tablebases: {tables} tables in {} (each read when first needed)", truncate(dir))
            }
            Notice::TablebasePath { dir, error } => {
                write!(f, "TablebasePath {}: {error}; playing without tablebases", truncate(dir))
            }
            Notice::NetLoaded { name, file: None } => write!(f, "NNUE net {name} (built in) loaded"),
            Notice::NetLoaded { name, file: Some(file) } => write!(f, "NNUE net {name} loaded from {}", truncate(file)),
            Notice::EvalFile { file, error, kept } => {
                write!(f, "EvalFile {}: {}; keeping {kept}", truncate(file), truncate(error))
            }
            Notice::HashTooLarge { asked, available, kept } => {
                write!(f, "Hash {asked} MiB does not fit in memory ({available} MiB available); keeping {kept} MiB")
            }
            Notice::UnsupportedVariant(v, current) => {
                write!(
                    f,
                    "variant '{}' is not supported, only {}; staying on {current}",
                    truncate(v),
                    VARIANTS.join(", ")
                )
            }
            Notice::Option(e) => write!(f, "{}", truncate(&e.to_string())),
            Notice::StoppingSearch { why } => {
                write!(f, "{why} received during an open-ended search; stopping that search first")
            }
            Notice::PerftStopped { depth } => write!(f, "perft {depth} stopped before it finished"),
            Notice::SearchFailed => write!(f, "the search failed; playing the first legal move"),
            Notice::NoThread(e) => write!(f, "cannot start a thread: {e}"),
            Notice::OneThread { asked } => {
                write!(f, "Threads {asked}: this build searches with one thread; Threads stays at 1")
            }
        }
    }
}

/// Where the core's notices go: the front-end that speaks to the host. Jobs report from
/// their own thread, hence `Send + Sync`.
pub trait Report: Send + Sync {
    /// Tells the host, in the front-end's protocol.
    fn notice(&self, notice: &Notice);
}

/// Makes user text safe to echo: control characters become `?` (a host's parser must never
/// see them) and long text is cut so one bad line cannot flood the host's log.
pub fn truncate(s: &str) -> String {
    const MAX: usize = 200;
    let clean = |c: char| if c.is_control() { '?' } else { c };
    let mut out: String = s.chars().take(MAX).map(clean).collect();
    if s.chars().count() > MAX {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_is_cleaned_and_cut() {
        assert_eq!(truncate("a\tb\u{1b}c"), "a?b?c");
        let long = "x".repeat(300);
        assert_eq!(truncate(&long), format!("{}...", "x".repeat(200)));
        let n = Notice::TablebasePath { dir: "/no\nwhere".into(), error: "gone".into() };
        assert_eq!(n.to_string(), "TablebasePath /no?where: gone; playing without tablebases");
        assert_eq!(n.level(), Level::Error);
        assert!(n.is_about_an_option() && !Notice::SearchFailed.is_about_an_option());
    }
}
