//! The engine's options: their `option name ...` lines for `uci`/`usi`, their typed values,
//! and `setoption` parsing with an error that names the problem for every bad input.

use crate::board::Rules;
use crate::search::params::SearchParams;
use std::fmt;

/// The variant name hosts know: Fairy-Stockfish's rules, the default.
pub const VARIANT: &str = "sittuyin";

/// The `UCI_Variant` names, one per rule set (`Rules::ALL`), the default first.
pub const VARIANTS: [&str; 4] = [Rules::ALL[0].name, Rules::ALL[1].name, Rules::ALL[2].name, Rules::ALL[3].name];

/// The `Rules` combo's value that follows `UCI_Variant` (the default).
pub const RULES_FROM_VARIANT: &str = "variant";

/// The `Rules` combo's values: follow the variant, or one rule set by its short name.
const RULES_CHOICES: [&str; 5] = [
    RULES_FROM_VARIANT,
    Rules::ALL[0].short_name_const(),
    Rules::ALL[1].short_name_const(),
    Rules::ALL[2].short_name_const(),
    Rules::ALL[3].short_name_const(),
];

/// The largest hash table accepted, in MiB.
pub const MAX_HASH_MB: i64 = 1 << 16;
/// The most search threads accepted.
pub const MAX_THREADS: i64 = 256;
/// The most principal variations accepted (more than any position has moves).
pub const MAX_MULTIPV: i64 = 256;
/// The lowest and highest `UCI_Elo`: the weakest level and full strength on the ladder of
/// measured levels (`search::skill` says what the values mean).
pub const ELO_RANGE: (i64, i64) = (crate::search::skill::ELO_MIN, crate::search::skill::ELO_FULL);

/// The type and range of one option, as `uci` announces it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    Combo { default: &'static str, vars: &'static [&'static str] },
    Str { default: &'static str },
}

/// Which option a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    /// `UCI_Variant`.
    Variant,
    /// `Rules`: the rule set, for hosts that always send `sittuyin` (cutechess).
    Rules,
    /// `Threads`.
    Threads,
    /// `Hash` (MiB).
    Hash,
    /// `Clear Hash`.
    ClearHash,
    /// `Ponder`.
    Ponder,
    /// `MultiPV`.
    MultiPv,
    /// `Move Overhead` (ms).
    MoveOverhead,
    /// `Skill Level`.
    SkillLevel,
    /// `UCI_LimitStrength`.
    LimitStrength,
    /// `UCI_Elo`.
    Elo,
    /// `UCI_ShowWDL`.
    ShowWdl,
    /// `UCI_AnalyseMode`.
    AnalyseMode,
    /// `TablebasePath`: the folder of Sitke's endgame tablebases (empty: none).
    TablebasePath,
    /// `Use NNUE`: evaluate with the net rather than the classical evaluation.
    UseNnue,
    /// `EvalFile`: the net file to load (empty: the net built into the binary).
    EvalFile,
    /// A named search constant (`search::params`), for the next search; not listed by
    /// `uci`, since it is for tuning and ablation matches, not for players.
    SearchParam,
}

/// Every option in the order `uci` lists them.
const SPECS: &[(Id, &str, Kind)] = &[
    (Id::Variant, "UCI_Variant", Kind::Combo { default: VARIANT, vars: &VARIANTS }),
    (Id::Rules, "Rules", Kind::Combo { default: RULES_FROM_VARIANT, vars: &RULES_CHOICES }),
    (Id::Threads, "Threads", Kind::Spin { default: 1, min: 1, max: MAX_THREADS }),
    (Id::Hash, "Hash", Kind::Spin { default: 16, min: 1, max: MAX_HASH_MB }),
    (Id::ClearHash, "Clear Hash", Kind::Button),
    (Id::Ponder, "Ponder", Kind::Check { default: false }),
    (Id::MultiPv, "MultiPV", Kind::Spin { default: 1, min: 1, max: MAX_MULTIPV }),
    (Id::MoveOverhead, "Move Overhead", Kind::Spin { default: 10, min: 0, max: 5000 }),
    (Id::SkillLevel, "Skill Level", Kind::Spin { default: 20, min: 0, max: 20 }),
    (Id::LimitStrength, "UCI_LimitStrength", Kind::Check { default: false }),
    (Id::Elo, "UCI_Elo", Kind::Spin { default: ELO_RANGE.0, min: ELO_RANGE.0, max: ELO_RANGE.1 }),
    (Id::ShowWdl, "UCI_ShowWDL", Kind::Check { default: false }),
    (Id::AnalyseMode, "UCI_AnalyseMode", Kind::Check { default: false }),
    (Id::UseNnue, "Use NNUE", Kind::Check { default: true }),
    (Id::EvalFile, "EvalFile", Kind::Str { default: "" }),
    (Id::TablebasePath, "TablebasePath", Kind::Str { default: "" }),
];

/// Older USI hosts prefix the standard options with `USI_`.
const ALIASES: &[(&str, Id)] = &[("USI_Hash", Id::Hash), ("USI_Ponder", Id::Ponder)];

/// The `option name ...` lines, one per option, as `uci` and `usi` print them.
pub fn option_lines() -> String {
    let mut s = String::new();
    for (_, name, kind) in SPECS {
        let line = match kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Button => format!("option name {name} type button"),
            Kind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            // UCI has no way to write an empty default but this placeholder.
            Kind::Str { default } => {
                format!(
                    "option name {name} type string default {}",
                    if default.is_empty() { "<empty>" } else { default }
                )
            }
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// The `feature option="..."` lines for CECP: the options that have no command of their
/// own there (`variant`, `memory`, `cores` and `hard`/`easy` cover the others, and WDL and
/// MultiPV lines have no place in CECP's thinking output).
pub fn xboard_option_features() -> Vec<String> {
    let mut lines = Vec::new();
    for (id, name, kind) in SPECS {
        if matches!(id, Id::Variant | Id::Threads | Id::Hash | Id::Ponder | Id::MultiPv | Id::ShowWdl) {
            continue;
        }
        let spec = match kind {
            Kind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            Kind::Check { default } => format!("-check {}", *default as u8),
            Kind::Button => "-button".to_string(),
            Kind::Combo { default, vars } => {
                let others: String = vars.iter().filter(|v| *v != default).map(|v| format!(" /// {v}")).collect();
                format!("-combo {default}{others}")
            }
            Kind::Str { default } => format!("-string {default}"),
        };
        lines.push(format!("feature option=\"{name} {spec}\""));
    }
    lines
}

/// The `setoption` arguments for CECP's `option NAME[=VALUE]`: a check option's `1`/`0`
/// become `true`/`false`; anything else passes as it is, for `Options::set` to judge.
pub fn xboard_setoption(name: &str, value: Option<&str>) -> String {
    let is_check = lookup(name).is_some_and(|(_, _, kind)| matches!(kind, Kind::Check { .. }));
    match value {
        Some("1") if is_check => format!("name {name} value true"),
        Some("0") if is_check => format!("name {name} value false"),
        Some(v) => format!("name {name} value {v}"),
        None => format!("name {name}"),
    }
}

/// The current value of every option, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Search threads.
    pub threads: usize,
    /// Hash table size in MiB.
    pub hash_mb: usize,
    /// Whether the host may ask the engine to ponder.
    pub ponder: bool,
    /// Principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve on every move for the host's latency.
    pub move_overhead_ms: u64,
    /// Skill Level, 0 (weakest) to 20 (full strength).
    pub skill_level: u32,
    /// Whether UCI_Elo limits the strength.
    pub limit_strength: bool,
    /// The strength asked for when `limit_strength` is on.
    pub elo: u32,
    /// Whether `info` lines carry a win/draw/loss estimate.
    pub show_wdl: bool,
    /// Whether the host is analysing rather than playing a game.
    pub analyse_mode: bool,
    /// Whether the net evaluates (when one is loaded).
    pub use_nnue: bool,
    /// The net file asked for; empty for the built-in net.
    pub eval_file: String,
    /// The search constants and feature switches set by name (defaults unless set).
    pub search: SearchParams,
    /// The folder of the endgame tablebases (empty: none).
    pub tablebase_path: String,
    /// The rule set `UCI_Variant` named.
    pub variant: &'static Rules,
    /// The rule set the `Rules` option names, if it names one rather than following the
    /// variant.
    pub rules_choice: Option<&'static Rules>,
}

impl Default for Options {
    fn default() -> Self {
        let mut o = Options {
            threads: 0,
            hash_mb: 0,
            ponder: false,
            multipv: 0,
            move_overhead_ms: 0,
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            show_wdl: false,
            analyse_mode: false,
            use_nnue: false,
            eval_file: String::new(),
            search: SearchParams::default(),
            tablebase_path: String::new(),
            variant: &Rules::FAIRY_STOCKFISH,
            rules_choice: None,
        };
        // The defaults live in one place, the table that `uci` prints.
        for (id, _, kind) in SPECS {
            match *kind {
                Kind::Spin { default, .. } => o.store(*id, Value::Int(default)),
                Kind::Check { default } => o.store(*id, Value::Bool(default)),
                _ => {}
            }
        }
        o
    }
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No `name` keyword, or nothing after it.
    MissingName,
    /// The name is not one of the engine's options.
    UnknownName(String),
    /// A spin, check or combo option without `value ...`.
    MissingValue(String),
    /// A spin value that is not an integer.
    NotANumber {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// A spin value outside the option's range.
    OutOfRange {
        /// The option.
        name: String,
        /// The value given.
        value: i128,
        /// The option's lowest value.
        min: i64,
        /// The option's highest value.
        max: i64,
    },
    /// A check value other than true/false.
    NotABool {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// A combo value not in the option's list (for UCI_Variant: another variant).
    NotInList {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// The values the option takes, joined by commas.
        vars: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::MissingName => write!(f, "setoption: expected 'setoption name <id> [value <x>]'"),
            OptionError::UnknownName(n) => write!(f, "setoption: no such option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "setoption: option '{n}' needs 'value <x>'"),
            OptionError::NotANumber { name, value } => {
                write!(f, "setoption: option '{name}': '{value}' is not an integer")
            }
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "setoption: option '{name}': {value} is outside {min}..{max}")
            }
            OptionError::NotABool { name, value } => {
                write!(f, "setoption: option '{name}': '{value}' is not 'true' or 'false'")
            }
            OptionError::NotInList { name, value, vars } => {
                write!(f, "setoption: option '{name}': '{value}' is not one of: {vars}")
            }
        }
    }
}

/// A parsed option value.
#[derive(Clone, Copy, Debug)]
enum Value {
    Int(i64),
    Bool(bool),
}

/// A `setoption` that was accepted: which option, so the engine can act on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accepted(pub Id);

impl Options {
    /// Applies `setoption` arguments (everything after the word `setoption`).
    pub fn set(&mut self, args: &str) -> Result<Accepted, OptionError> {
        let (name, value) = split_name_value(args)?;
        if lookup(&name).is_none()
            && let Some(param) = crate::search::params::find(&name)
        {
            let name = param.name.to_string();
            let value = value.ok_or_else(|| OptionError::MissingValue(name.clone()))?;
            let n: i128 = value.parse().map_err(|_| OptionError::NotANumber { name: name.clone(), value })?;
            let (min, max) = (param.min as i64, param.max as i64);
            if n < min as i128 || n > max as i128 {
                return Err(OptionError::OutOfRange { name, value: n, min, max });
            }
            param.set(&mut self.search, n as i32);
            return Ok(Accepted(Id::SearchParam));
        }
        let (id, canonical, kind) = lookup(&name).ok_or_else(|| OptionError::UnknownName(name.clone()))?;
        let name = canonical.to_string();
        let missing = || OptionError::MissingValue(name.clone());
        match kind {
            Kind::Button => {}
            Kind::Str { .. } => {
                // `<empty>` is how UCI writes an empty string; hosts send it back as such.
                let v = value.unwrap_or_default();
                let v = if v == "<empty>" { String::new() } else { v };
                match id {
                    Id::TablebasePath => self.tablebase_path = v,
                    _ => self.eval_file = v,
                }
            }
            Kind::Combo { vars, .. } => {
                let value = value.ok_or_else(missing)?;
                if !vars.iter().any(|v| v.eq_ignore_ascii_case(&value)) {
                    return Err(OptionError::NotInList { name, value, vars: vars.join(", ") });
                }
                // Every value in the lists names a rule set, but `variant`.
                let named = Rules::by_name(&value);
                match id {
                    Id::Variant => self.variant = named.unwrap_or(&Rules::FAIRY_STOCKFISH),
                    _ => self.rules_choice = named,
                }
            }
            Kind::Check { .. } => {
                let value = value.ok_or_else(missing)?;
                let b = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(OptionError::NotABool { name, value }),
                };
                self.store(id, Value::Bool(b));
            }
            Kind::Spin { min, max, .. } => {
                let value = value.ok_or_else(missing)?;
                let n: i128 = value.parse().map_err(|_| OptionError::NotANumber { name: name.clone(), value })?;
                if n < min as i128 || n > max as i128 {
                    return Err(OptionError::OutOfRange { name, value: n, min, max });
                }
                self.store(id, Value::Int(n as i64));
            }
        }
        Ok(Accepted(id))
    }

    /// Stores a value already checked against the option's type and range.
    fn store(&mut self, id: Id, v: Value) {
        let int = |v: Value| match v {
            Value::Int(n) => n.max(0) as u64,
            Value::Bool(b) => b as u64,
        };
        let flag = |v: Value| matches!(v, Value::Bool(true));
        match id {
            Id::Threads => self.threads = int(v) as usize,
            Id::Hash => self.hash_mb = int(v) as usize,
            Id::Ponder => self.ponder = flag(v),
            Id::MultiPv => self.multipv = int(v) as usize,
            Id::MoveOverhead => self.move_overhead_ms = int(v),
            Id::SkillLevel => self.skill_level = int(v) as u32,
            Id::LimitStrength => self.limit_strength = flag(v),
            Id::Elo => self.elo = int(v) as u32,
            Id::ShowWdl => self.show_wdl = flag(v),
            Id::AnalyseMode => self.analyse_mode = flag(v),
            Id::UseNnue => self.use_nnue = flag(v),
            Id::Variant | Id::Rules | Id::ClearHash | Id::SearchParam | Id::EvalFile | Id::TablebasePath => {}
        }
    }

    /// The rule set in force: the `Rules` option's, else the variant's.
    pub fn rules(&self) -> &'static Rules {
        self.rules_choice.unwrap_or(self.variant)
    }
}

/// Finds an option by name, ignoring case as UCI hosts expect.
fn lookup(name: &str) -> Option<(Id, &'static str, Kind)> {
    if let Some(&(id, n, kind)) = SPECS.iter().find(|(_, n, _)| n.eq_ignore_ascii_case(name)) {
        return Some((id, n, kind));
    }
    let (_, id) = ALIASES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))?;
    SPECS.iter().find(|(i, _, _)| i == id).map(|&(id, n, kind)| (id, n, kind))
}

/// Splits `name <id words> [value <value words>]`; names and values may contain spaces.
fn split_name_value(args: &str) -> Result<(String, Option<String>), OptionError> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    if tokens.first() != Some(&"name") || tokens.len() < 2 {
        return Err(OptionError::MissingName);
    }
    let value_at = tokens.iter().skip(1).position(|&t| t == "value").map(|i| i + 1);
    let name_end = value_at.unwrap_or(tokens.len());
    if name_end <= 1 {
        return Err(OptionError::MissingName);
    }
    let name = tokens[1..name_end].join(" ");
    let value = value_at.map(|i| tokens[i + 1..].join(" ")).filter(|v| !v.is_empty());
    Ok((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_come_from_the_table() {
        let o = Options::default();
        assert_eq!((o.threads, o.hash_mb, o.multipv, o.skill_level, o.elo), (1, 16, 1, 20, ELO_RANGE.0 as u32));
        assert!(!o.ponder && !o.limit_strength && !o.show_wdl && !o.analyse_mode);
    }

    #[test]
    fn xboard_options() {
        let lines = xboard_option_features();
        assert!(lines.contains(&"feature option=\"Skill Level -spin 20 0 20\"".to_string()), "{lines:?}");
        assert!(lines.contains(&"feature option=\"UCI_LimitStrength -check 0\"".to_string()));
        assert!(lines.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(!lines.iter().any(|l| l.contains("Hash -spin") || l.contains("Threads")));
        let mut o = Options::default();
        assert_eq!(o.set(&xboard_setoption("UCI_LimitStrength", Some("1"))), Ok(Accepted(Id::LimitStrength)));
        assert!(o.limit_strength);
        assert_eq!(o.set(&xboard_setoption("Skill Level", Some("3"))), Ok(Accepted(Id::SkillLevel)));
        assert_eq!(o.skill_level, 3);
        assert_eq!(o.set(&xboard_setoption("Clear Hash", None)), Ok(Accepted(Id::ClearHash)));
        assert!(o.set(&xboard_setoption("Skill Level", Some("1x"))).is_err());
    }

    #[test]
    fn setoption_parses_and_refuses_with_a_reason() {
        let mut o = Options::default();
        assert_eq!(o.set("name Hash value 64"), Ok(Accepted(Id::Hash)));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.set("name move overhead value 250"), Ok(Accepted(Id::MoveOverhead)));
        assert_eq!(o.move_overhead_ms, 250);
        assert_eq!(o.set("name UCI_ShowWDL value TRUE"), Ok(Accepted(Id::ShowWdl)));
        assert!(o.show_wdl);
        assert_eq!(o.set("name Clear Hash"), Ok(Accepted(Id::ClearHash)));
        assert_eq!(o.set("name USI_Hash value 32"), Ok(Accepted(Id::Hash)));
        assert_eq!(o.set("name UCI_Variant value Sittuyin"), Ok(Accepted(Id::Variant)));
        let before = o.clone();
        assert!(matches!(o.set("name Hash value -1"), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(o.set("name Hash value 99999999999999999999999"), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(o.set("name Hash value lots"), Err(OptionError::NotANumber { .. })));
        assert!(matches!(o.set("name Threads"), Err(OptionError::MissingValue(_))));
        assert!(matches!(o.set("name Ponder value maybe"), Err(OptionError::NotABool { .. })));
        assert!(matches!(o.set("name UCI_Variant value chess"), Err(OptionError::NotInList { .. })));
        assert!(matches!(o.set("name Contempt value 3"), Err(OptionError::UnknownName(_))));
        assert!(matches!(o.set("name ASPIRATION_WINDOW value 100000"), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(o.set("name ASPIRATION_WINDOW value x"), Err(OptionError::NotANumber { .. })));
        assert!(matches!(o.set("name USE_LMR value 2"), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(o.set("name USE_LMR"), Err(OptionError::MissingValue(_))));
        assert_eq!(o.set("value 3"), Err(OptionError::MissingName));
        assert_eq!(o.set(""), Err(OptionError::MissingName));
        assert_eq!(o, before, "a refused setoption changes nothing");
    }

    #[test]
    fn search_constants_are_set_by_name_in_the_options_only() {
        // Within their ranges, in the options' own copy: the next search takes it from there.
        let mut o = Options::default();
        assert_eq!(o.set("name aspiration_window value 40"), Ok(Accepted(Id::SearchParam)));
        assert_eq!(o.set("name USE_LMR value 0"), Ok(Accepted(Id::SearchParam)));
        assert_eq!(o.set("name use_iir value 0"), Ok(Accepted(Id::SearchParam)));
        assert_eq!((o.search.ASPIRATION_WINDOW, o.search.USE_LMR, o.search.USE_IIR), (40, false, false));
        let mut expected = SearchParams::default();
        (expected.ASPIRATION_WINDOW, expected.USE_LMR, expected.USE_IIR) = (40, false, false);
        assert_eq!(o.search, expected, "nothing else changed");
        assert_eq!(Options::default().search, SearchParams::default(), "another session's options are untouched");
    }
}
