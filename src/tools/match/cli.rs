//! The command line of `sitke match`, in cutechess-cli's syntax (which fastchess shares),
//! so that existing match scripts run unchanged: `-engine cmd=X name=Y option.Hash=16
//! tc=10+0.1`, `-each ...`, `-games N -rounds N -repeat -concurrency N`, `-openings ...`,
//! `-pgnout FILE`, `-sprt ...`, `-resign ...`, `-draw ...`, `-srand N`, `-ratinginterval N`.
//! Anything it does not support is an error that names it, never silently ignored.

use super::clock::TimeControl;
use super::stats::Sprt;
use crate::board::Rules;
use std::path::PathBuf;
use std::time::Duration;

/// The variant the engines are told by default.
pub const VARIANT: &str = "sittuyin";

/// How one engine is started and limited.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// The name shown in output and PGN.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Its working directory, if not ours.
    pub dir: Option<PathBuf>,
    /// UCI options to set, in order.
    pub options: Vec<(String, String)>,
    /// Its clock (`tc=`), if any.
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`st=`).
    pub movetime: Option<Duration>,
    /// Node limit per move (`nodes=`).
    pub nodes: Option<u64>,
    /// Depth limit per move (`depth=`).
    pub depth: Option<u32>,
    /// How far past its time an engine may answer before it forfeits (`timemargin=` ms).
    pub timemargin: Duration,
    /// Restart the process before every game (`restart=on`) instead of reusing it.
    pub restart: bool,
    /// A file to append the engine's stderr to (`stderr=`), else it is logged at debug level.
    pub stderr: Option<PathBuf>,
}

/// Where game openings come from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    /// Every game from the start position.
    StartPosition,
    /// A file of positions (EPD/FEN) or games (PGN).
    File {
        /// The file.
        path: PathBuf,
        /// Its format.
        format: OpeningFormat,
        /// Taken in order, or shuffled with the `-srand` seed.
        random_order: bool,
        /// At most this many plies of a PGN opening are played.
        plies: Option<usize>,
        /// The 1-based index of the first opening used.
        start: usize,
    },
    /// A random setup: this many random legal plies from the start position.
    Random {
        /// The plies played at random (16 covers the whole setup phase).
        plies: usize,
    },
}

/// The format of an opening file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One FEN or EPD position a line.
    Epd,
    /// PGN games: the FEN tag if any, then the moves.
    Pgn,
}

/// Resign adjudication: a side loses once its engine has reported a score of `-score` or
/// worse for `movecount` moves in a row (and, two-sided, the opponent `+score` or better).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves needed.
    pub movecount: u32,
    /// The threshold in centipawns.
    pub score: i32,
    /// Whether both engines must agree.
    pub twosided: bool,
}

/// Draw adjudication: from move `movenumber` on, both engines' scores within `score`
/// centipawns of zero for `movecount` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The first full move at which a draw may be adjudicated.
    pub movenumber: u32,
    /// Consecutive moves of each side needed.
    pub movecount: u32,
    /// The threshold in centipawns.
    pub score: i32,
}

/// Everything a match needs.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The two engines; the first is the one whose score is reported.
    pub engines: Vec<EngineConfig>,
    /// Games per encounter (`-games`).
    pub games: u32,
    /// Encounters (`-rounds`).
    pub rounds: u32,
    /// Play every opening twice with colours swapped (`-repeat`).
    pub repeat: bool,
    /// Games played at once (`-concurrency`).
    pub concurrency: usize,
    /// Openings.
    pub openings: OpeningSource,
    /// PGN output file and whether to leave out move comments (`min`).
    pub pgnout: Option<(PathBuf, bool)>,
    /// The SPRT, if the match should stop once it decides.
    pub sprt: Option<Sprt>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Adjudicate a draw after this many moves of each side (`-maxmoves`).
    pub maxmoves: Option<u32>,
    /// Seed for shuffled and random openings (`-srand`).
    pub srand: Option<u64>,
    /// Go on from the games already in the PGN file (`-resume`, not in cutechess-cli).
    pub resume: bool,
    /// The ledger that adds this run to the match's earlier runs (`-ledger`, not in
    /// cutechess-cli).
    pub ledger: Option<PathBuf>,
    /// The command line without what may differ between runs of one match: what a ledger
    /// checks every run against.
    pub setup: String,
    /// Print the Elo (and SPRT) lines every this many games (`-ratinginterval`, 0: only
    /// at the end).
    pub rating_interval: u32,
    /// The PGN `Event` tag.
    pub event: String,
    /// The PGN `Site` tag.
    pub site: String,
    /// Log every line exchanged with the engines (`-debug`).
    pub debug: bool,
    /// Milliseconds to wait between games (`-wait`).
    pub wait: Duration,
    /// The `UCI_Variant` the engines are told (`-variant`, one per rule set).
    pub variant: String,
    /// The rule set the referee judges by: `-rules`, else the `Rules` option both engines
    /// are given, else the variant's.
    pub rules: &'static Rules,
}

impl MatchConfig {
    /// Games to play in all.
    pub fn total_games(&self) -> u64 {
        self.games as u64 * self.rounds as u64
    }
}

/// Options that may differ between the runs of one match kept in a ledger: which run it
/// is, how long it is, where its files go and what is logged.
const RUN_OPTIONS: [&str; 11] = [
    "-srand",
    "-rounds",
    "-pgnout",
    "-resume",
    "-ledger",
    "-ratinginterval",
    "-event",
    "-site",
    "-debug",
    "-wait",
    "-recover",
];

/// Splits `key=value`.
fn key_value(token: &str) -> Result<(&str, &str), String> {
    token.split_once('=').ok_or_else(|| format!("expected key=value, got '{token}'"))
}

fn number<T: std::str::FromStr>(what: &str, s: &str) -> Result<T, String> {
    s.parse::<T>().map_err(|_| format!("{what}: '{s}' is not a valid number"))
}

fn boolean(what: &str, s: &str) -> Result<bool, String> {
    match s {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(format!("{what}: expected true or false, got '{s}'")),
    }
}

fn seconds(what: &str, s: &str) -> Result<Duration, String> {
    let v: f64 = number(what, s)?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("{what}: '{s}' must be a positive number of seconds"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Engine settings as written, before `-each` is merged in.
#[derive(Default, Clone)]
struct EngineArgs {
    pairs: Vec<(String, String)>,
}

fn engine_from(each: &EngineArgs, own: &EngineArgs, index: usize) -> Result<EngineConfig, String> {
    let mut e = EngineConfig {
        name: String::new(),
        cmd: String::new(),
        args: Vec::new(),
        dir: None,
        options: Vec::new(),
        tc: None,
        movetime: None,
        nodes: None,
        depth: None,
        timemargin: Duration::ZERO,
        restart: false,
        stderr: None,
    };
    // `-each` first, so that the engine's own settings win.
    for (key, value) in each.pairs.iter().chain(&own.pairs) {
        let (key, value) = (key.as_str(), value.as_str());
        match key {
            "cmd" => e.cmd = value.to_string(),
            "name" => e.name = value.to_string(),
            "arg" => e.args.push(value.to_string()),
            "dir" => e.dir = Some(PathBuf::from(value)),
            "proto" if value == "uci" => {}
            "proto" => return Err(format!("proto={value}: only UCI engines are supported")),
            "tc" => {
                e.tc = Some(TimeControl::parse(value)?);
                e.movetime = None;
            }
            "st" => {
                e.movetime = Some(seconds("st", value)?);
                e.tc = None;
            }
            "nodes" => e.nodes = Some(number("nodes", value)?),
            "depth" => e.depth = Some(number("depth", value)?),
            "timemargin" => e.timemargin = Duration::from_millis(number("timemargin", value)?),
            "restart" => {
                e.restart = match value {
                    "on" => true,
                    "off" | "auto" => false,
                    _ => return Err(format!("restart={value}: expected on, off or auto")),
                }
            }
            "stderr" => e.stderr = Some(PathBuf::from(value)),
            _ => {
                if let Some(name) = key.strip_prefix("option.") {
                    if name.eq_ignore_ascii_case("UCI_Variant") {
                        return Err("option.UCI_Variant: the variant is set with -variant".to_string());
                    }
                    // A later setting of the same option replaces the earlier one.
                    e.options.retain(|(n, _)| n != name);
                    e.options.push((name.to_string(), value.to_string()));
                } else {
                    return Err(format!(
                        "engine setting '{key}' is not supported by sitke match \
                         (supported: cmd name arg dir proto tc st nodes depth timemargin \
                         restart stderr option.NAME)"
                    ));
                }
            }
        }
    }
    if e.cmd.is_empty() {
        return Err(format!("engine {}: cmd= is missing", index + 1));
    }
    if e.name.is_empty() {
        e.name = std::path::Path::new(&e.cmd).file_name().map_or(e.cmd.clone(), |f| f.to_string_lossy().into_owned());
    }
    let untimed = matches!(e.tc, None | Some(TimeControl::Infinite));
    if untimed && e.movetime.is_none() && e.nodes.is_none() && e.depth.is_none() {
        return Err(format!("engine '{}' has no limit: give it tc=, st=, nodes= or depth= (or use -each)", e.name));
    }
    Ok(e)
}

fn parse_openings(tokens: &[String]) -> Result<OpeningSource, String> {
    let (mut path, mut format, mut random_order, mut plies, mut start, mut random) =
        (None, None, false, None, 1usize, false);
    for t in tokens {
        if t == "random" {
            random = true;
            continue;
        }
        let (k, v) = key_value(t)?;
        match k {
            "file" => path = Some(PathBuf::from(v)),
            "format" => {
                format = Some(match v {
                    "epd" => OpeningFormat::Epd,
                    "pgn" => OpeningFormat::Pgn,
                    _ => return Err(format!("-openings format={v}: expected epd or pgn")),
                })
            }
            "order" => {
                random_order = match v {
                    "random" => true,
                    "sequential" => false,
                    _ => {
                        return Err(format!("-openings order={v}: expected random or sequential"));
                    }
                }
            }
            "plies" => plies = Some(number("-openings plies", v)?),
            "start" => {
                start = number("-openings start", v)?;
                if start == 0 {
                    return Err("-openings start= counts from 1".to_string());
                }
            }
            "policy" if v == "default" => {}
            _ => return Err(format!("-openings {k}={v} is not supported")),
        }
    }
    match (random, path) {
        (true, Some(_)) => Err("-openings: 'random' and file= exclude each other".to_string()),
        (true, None) => Ok(OpeningSource::Random { plies: plies.unwrap_or(8) }),
        (false, None) => Err("-openings needs file=FILE (or 'random plies=K')".to_string()),
        (false, Some(path)) => {
            let format = format.unwrap_or_else(|| {
                if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) {
                    OpeningFormat::Pgn
                } else {
                    OpeningFormat::Epd
                }
            });
            Ok(OpeningSource::File { path, format, random_order, plies, start })
        }
    }
}

fn parse_sprt(tokens: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
    for t in tokens {
        let (k, v) = key_value(t)?;
        match k {
            "elo0" => s.elo0 = number("-sprt elo0", v)?,
            "elo1" => s.elo1 = number("-sprt elo1", v)?,
            "alpha" => s.alpha = number("-sprt alpha", v)?,
            "beta" => s.beta = number("-sprt beta", v)?,
            "model" if v == "logistic" => {}
            _ => return Err(format!("-sprt {k}={v} is not supported (Elo is logistic)")),
        }
    }
    if !(s.elo0.is_finite() && s.elo1.is_finite() && s.elo0 < s.elo1) {
        return Err("-sprt needs elo0 < elo1".to_string());
    }
    if !(s.alpha > 0.0 && s.beta > 0.0 && s.alpha + s.beta < 1.0) {
        return Err("-sprt needs alpha, beta > 0 with alpha + beta < 1".to_string());
    }
    Ok(s)
}

fn parse_resign(tokens: &[String]) -> Result<ResignRule, String> {
    let mut r = ResignRule { movecount: 0, score: 0, twosided: true };
    for t in tokens {
        let (k, v) = key_value(t)?;
        match k {
            "movecount" => r.movecount = number("-resign movecount", v)?,
            "score" => r.score = number("-resign score", v)?,
            "twosided" => r.twosided = boolean("-resign twosided", v)?,
            _ => return Err(format!("-resign {k}= is not supported")),
        }
    }
    if r.movecount == 0 || r.score <= 0 {
        return Err("-resign needs movecount=N and score=CP, both positive".to_string());
    }
    Ok(r)
}

fn parse_draw(tokens: &[String]) -> Result<DrawRule, String> {
    let mut d = DrawRule { movenumber: 0, movecount: 0, score: -1 };
    for t in tokens {
        let (k, v) = key_value(t)?;
        match k {
            "movenumber" => d.movenumber = number("-draw movenumber", v)?,
            "movecount" => d.movecount = number("-draw movecount", v)?,
            "score" => d.score = number("-draw score", v)?,
            _ => return Err(format!("-draw {k}= is not supported")),
        }
    }
    if d.movecount == 0 || d.score < 0 {
        return Err("-draw needs movecount=N and score=CP".to_string());
    }
    Ok(d)
}

/// What `sitke match --help` prints: every option `parse` takes, in cutechess-cli's words.
pub const HELP: &str = "\
Play an engine-vs-engine match of Sittuyin between two UCI engines. The arguments follow
cutechess-cli, so its match scripts run unchanged; anything not listed is an error.

Usage: sitke match -engine SETTINGS -engine SETTINGS [-each SETTINGS] [OPTIONS]
       sitke match -referee FILE.pgn [-rules NAME]   (judge a PGN's games by NAME's rules:
       one line a game: number, Result tag, Sitke's result and reason)

Engine settings (key=value, after -engine, or after -each for both engines):
  cmd=PROGRAM  name=NAME  arg=ARG (repeatable)  dir=FOLDER  proto=uci
  tc=[MOVES/]SECONDS[+INCREMENT] or tc=inf  st=SECONDS  nodes=N  depth=N
  timemargin=MS (lateness allowed before a time forfeit)  restart=on|off|auto
  stderr=FILE  option.NAME=VALUE (a UCI option, e.g. option.Hash=64)

Options:
  -variant NAME               the UCI_Variant the engines are told: sittuyin (default),
                              sittuyin-federation, sittuyin-club or sittuyin-pritchard
  -rules NAME                 the rules the referee judges by: fairy, federation, club or
                              pritchard (default: the engines' option.Rules, else the
                              variant's)
  -games N                    games per encounter (default 1)
  -rounds N                   encounters (default 1)
  -repeat                     play each opening twice, colours swapped
  -concurrency N              games at once (default 1)
  -openings random plies=K    K random setup plies from the start position (default 8)
  -openings file=F format=epd|pgn order=sequential|random plies=K start=N
  -pgnout FILE [min]          write the games as PGN (min: without move comments)
  -sprt elo0=E0 elo1=E1 alpha=A beta=B   stop when the test decides
  -resign movecount=N score=CP [twosided=true]
  -draw movenumber=N movecount=N score=CP
  -maxmoves N                 a draw after N moves of each side
  -srand N                    seed of the openings (printed when not given)
  -resume                     go on from the finished games in the -pgnout file, as an
                              uninterrupted run would (needs the same -srand)
  -ledger FILE                one match in several runs, each its own -srand: a finished
                              run adds a line to FILE, and the Elo and SPRT lines cover
                              every run in it (a run already there plays nothing)
  -ratinginterval N           the Elo lines every N games (0: at the end)
  -event TEXT  -site TEXT     PGN tags
  -wait MS                    pause between games
  -tournament round-robin|gauntlet   accepted; two engines play either way
  -recover                    accepted; a crashed engine is always restarted
  -debug                      log the engine traffic to stderr
  -h, --help                  this text

Example:
  sitke match -engine cmd=target/release/sitke name=Sitke \\
    -engine cmd=/usr/games/fairy-stockfish name=FSF -each tc=10+0.1 \\
    -games 2 -rounds 50 -repeat -openings random plies=8 -pgnout games.pgn
";

/// Options of `sitke match`: cutechess-cli's, read by `parse`, not by clap.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct MatchArgs {
    /// cutechess-cli style arguments.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// Runs `sitke match`: its help, or the match.
pub fn main(a: &MatchArgs) {
    if wants_help(&a.args) {
        print!("{HELP}");
    } else if let Err(e) = super::run(&a.args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// Whether the arguments ask for the help text rather than a match.
pub fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| matches!(a.as_str(), "-h" | "--help" | "-help"))
}

/// Parses the arguments after `sitke match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut cfg = MatchConfig {
        engines: Vec::new(),
        games: 1,
        rounds: 1,
        repeat: false,
        concurrency: 1,
        openings: OpeningSource::StartPosition,
        pgnout: None,
        sprt: None,
        resign: None,
        draw: None,
        maxmoves: None,
        srand: None,
        resume: false,
        ledger: None,
        setup: String::new(),
        rating_interval: 10,
        event: "?".to_string(),
        site: "?".to_string(),
        debug: false,
        wait: Duration::ZERO,
        variant: VARIANT.to_string(),
        rules: &Rules::FAIRY_STOCKFISH,
    };
    let mut rules_flag: Option<&'static Rules> = None;
    let mut each = EngineArgs::default();
    let mut engines: Vec<EngineArgs> = Vec::new();
    let mut setup: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let opt = args[i].as_str();
        // The option's values: every following token that is not itself an option.
        let mut j = i + 1;
        while j < args.len() && !(args[j].starts_with('-') && args[j].len() > 1) {
            j += 1;
        }
        let values = &args[i + 1..j];
        let one = || -> Result<&str, String> {
            match values {
                [v] => Ok(v.as_str()),
                _ => Err(format!("{opt} takes exactly one value")),
            }
        };
        let none = || -> Result<(), String> {
            if values.is_empty() { Ok(()) } else { Err(format!("{opt} takes no value, got '{}'", values.join(" "))) }
        };
        match opt {
            "-engine" | "-each" => {
                let mut e = EngineArgs::default();
                for t in values {
                    let Some((k, v)) = t.split_once('=') else {
                        return Err(format!(
                            "{opt}: engine setting '{t}' is not supported by sitke match \
                             (settings are key=value)"
                        ));
                    };
                    e.pairs.push((k.to_string(), v.to_string()));
                }
                if opt == "-each" {
                    each.pairs.extend(e.pairs);
                } else {
                    engines.push(e);
                }
            }
            "-variant" => {
                let v = one()?;
                match Rules::ALL.iter().find(|r| r.name.eq_ignore_ascii_case(v)) {
                    Some(r) => cfg.variant = r.name.to_string(),
                    None => {
                        return Err(format!(
                            "-variant {v}: sitke match referees {} only",
                            super::told::variant_names()
                        ));
                    }
                }
            }
            "-rules" => {
                let v = one()?;
                rules_flag = Some(Rules::by_name(v).ok_or_else(|| {
                    format!("-rules {v}: expected one of {}", Rules::ALL.map(|r| r.short_name()).join(", "))
                })?);
            }
            "-games" => cfg.games = number("-games", one()?)?,
            "-rounds" => cfg.rounds = number("-rounds", one()?)?,
            "-repeat" => {
                if let [n] = values
                    && n != "2"
                {
                    return Err(format!("-repeat {n}: only pairs (-repeat 2) are supported"));
                }
                if values.len() > 1 {
                    return Err("-repeat takes at most one value".to_string());
                }
                cfg.repeat = true;
            }
            "-concurrency" => {
                cfg.concurrency = number("-concurrency", one()?)?;
                if cfg.concurrency == 0 {
                    return Err("-concurrency must be at least 1".to_string());
                }
            }
            "-openings" => cfg.openings = parse_openings(values)?,
            "-pgnout" => cfg.pgnout = Some(parse_pgnout(values)?),
            "-sprt" => cfg.sprt = Some(parse_sprt(values)?),
            "-resign" => cfg.resign = Some(parse_resign(values)?),
            "-draw" => cfg.draw = Some(parse_draw(values)?),
            "-maxmoves" => cfg.maxmoves = Some(number("-maxmoves", one()?)?),
            "-srand" => cfg.srand = Some(number("-srand", one()?)?),
            "-resume" => {
                none()?;
                cfg.resume = true;
            }
            "-ledger" => cfg.ledger = Some(PathBuf::from(one()?)),
            "-ratinginterval" => cfg.rating_interval = number("-ratinginterval", one()?)?,
            "-event" => cfg.event = values.join(" "),
            "-site" => cfg.site = values.join(" "),
            "-debug" => {
                none()?;
                cfg.debug = true;
            }
            // Crashed engines are always restarted.
            "-recover" => none()?,
            "-wait" => cfg.wait = Duration::from_millis(number("-wait", one()?)?),
            "-tournament" => {
                let t = one()?;
                if t != "round-robin" && t != "gauntlet" {
                    return Err(format!("-tournament {t} is not supported"));
                }
            }
            _ if opt.starts_with('-') => {
                return Err(format!(
                    "option {opt} is not supported by sitke match; supported: -engine -each \
                     -variant -rules -games -rounds -repeat -concurrency -openings -pgnout -sprt \
                     -resign -draw -maxmoves -srand -resume -ledger -ratinginterval -event -site \
                     -debug -recover -wait -tournament"
                ));
            }
            _ => return Err(format!("unexpected argument '{opt}'")),
        }
        if !RUN_OPTIONS.contains(&opt) {
            setup.push(opt);
            // Where an engine lives may change between sessions; how it plays may not.
            let local = |v: &&String| ["cmd=", "dir=", "stderr="].iter().any(|k| v.starts_with(k));
            setup.extend(values.iter().filter(|v| !local(v)).map(String::as_str));
        }
        i = j;
    }
    if engines.len() != 2 {
        return Err(format!("sitke match plays two engines against each other; got {} -engine options", engines.len()));
    }
    for (k, e) in engines.iter().enumerate() {
        cfg.engines.push(engine_from(&each, e, k)?);
    }
    let told =
        |e: &EngineConfig| e.options.iter().find(|(n, _)| n.eq_ignore_ascii_case("Rules")).map(|(_, v)| v.clone());
    let told = [told(&cfg.engines[0]), told(&cfg.engines[1])];
    cfg.rules = super::told::referee_rules(rules_flag, [told[0].as_deref(), told[1].as_deref()], &cfg.variant)?;
    if cfg.games == 0 || cfg.rounds == 0 {
        return Err("-games and -rounds must be at least 1".to_string());
    }
    if cfg.ledger.is_some() {
        if cfg.srand.is_none() {
            return Err("-ledger needs -srand: the seed names the run in the ledger".to_string());
        }
        // Runs are samples of one match only if each draws its own openings.
        let seeded =
            matches!(cfg.openings, OpeningSource::Random { .. } | OpeningSource::File { random_order: true, .. });
        if !seeded {
            return Err("-ledger needs openings the seed draws (-openings random, or a file with order=random): \
                        otherwise every run replays the same ones"
                .to_string());
        }
    }
    cfg.setup = setup.join(" ");
    Ok(cfg)
}

fn parse_pgnout(values: &[String]) -> Result<(PathBuf, bool), String> {
    let (mut path, mut minimal) = (None, false);
    for v in values {
        match v.split_once('=') {
            Some(("file", f)) => path = Some(PathBuf::from(f)),
            Some(("min", b)) => minimal = boolean("-pgnout min", b)?,
            Some((k, _)) => return Err(format!("-pgnout {k}= is not supported")),
            None if v == "min" => minimal = true,
            None if v == "fi" => {
                return Err("-pgnout fi (unfinished games) is not supported".to_string());
            }
            None if path.is_none() => path = Some(PathBuf::from(v)),
            None => return Err(format!("-pgnout: unexpected '{v}'")),
        }
    }
    path.map(|p| (p, minimal)).ok_or_else(|| "-pgnout needs a file name".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn reads_a_typical_cutechess_command_line() {
        let cfg = parse(&args(
            "-engine cmd=./new name=New option.Hash=16 -engine cmd=/usr/bin/old arg=-uci \
             -each tc=10+0.1 option.Hash=8 option.Threads=1 timemargin=50 \
             -games 2 -rounds 100 -repeat -concurrency 2 -variant sittuyin \
             -openings file=book.epd format=epd order=random start=3 -srand 42 \
             -pgnout out.pgn min -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 \
             -resign movecount=3 score=600 twosided=false -draw movenumber=40 movecount=8 \
             score=10 -ratinginterval 20 -maxmoves 200",
        ))
        .unwrap();
        assert_eq!(cfg.engines.len(), 2);
        let (a, b) = (&cfg.engines[0], &cfg.engines[1]);
        assert_eq!((a.name.as_str(), a.cmd.as_str()), ("New", "./new"));
        assert_eq!(b.name, "old");
        assert_eq!(b.args, vec!["-uci"]);
        // The engine's own Hash beats -each's; -each's Threads reaches both.
        assert!(a.options.contains(&("Hash".into(), "16".into())));
        assert!(!a.options.contains(&("Hash".into(), "8".into())));
        assert!(b.options.contains(&("Threads".into(), "1".into())));
        assert_eq!(a.tc, Some(TimeControl::parse("10+0.1").unwrap()));
        assert_eq!(b.timemargin, Duration::from_millis(50));
        assert_eq!((cfg.total_games(), cfg.repeat, cfg.concurrency), (200, true, 2));
        assert_eq!(
            cfg.openings,
            OpeningSource::File {
                path: "book.epd".into(),
                format: OpeningFormat::Epd,
                random_order: true,
                plies: None,
                start: 3
            }
        );
        assert_eq!(cfg.pgnout, Some(("out.pgn".into(), true)));
        let sprt = cfg.sprt.unwrap();
        assert_eq!((sprt.elo0, sprt.elo1, sprt.beta), (0.0, 5.0, 0.1));
        assert_eq!(cfg.resign, Some(ResignRule { movecount: 3, score: 600, twosided: false }));
        assert_eq!(cfg.draw.map(|d| d.movenumber), Some(40));
        assert_eq!((cfg.srand, cfg.rating_interval, cfg.maxmoves), (Some(42), 20, Some(200)));
    }

    #[test]
    fn fixed_limits_and_random_openings() {
        let cfg =
            parse(&args("-engine cmd=a nodes=5000 -engine cmd=b depth=4 st=0.5 -openings random plies=12")).unwrap();
        assert_eq!(cfg.engines[0].nodes, Some(5000));
        assert_eq!(cfg.engines[1].depth, Some(4));
        assert_eq!(cfg.engines[1].movetime, Some(Duration::from_millis(500)));
        assert_eq!(cfg.openings, OpeningSource::Random { plies: 12 });
        assert_eq!(cfg.total_games(), 1);
    }

    #[test]
    fn refuses_what_it_does_not_support_by_name() {
        for (line, needle) in [
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -tb /syzygy", "-tb"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -variant chess", "sittuyin, sittuyin-federation"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -rules chess", "-rules chess: expected one of"),
            ("-engine cmd=a tc=1 option.Rules=federation -engine cmd=b tc=1 option.Rules=club", "different rule sets"),
            ("-engine cmd=a tc=1 proto=xboard -engine cmd=b tc=1", "only UCI"),
            ("-engine cmd=a tc=1 book=x.bin -engine cmd=b tc=1", "'book'"),
            ("-engine cmd=a tc=1 ponder -engine cmd=b tc=1", "'ponder'"),
            ("-engine cmd=a tc=1", "two engines"),
            ("-engine cmd=a -engine cmd=b tc=1", "no limit"),
            ("-engine cmd=a tc=inf -engine cmd=b tc=1", "no limit"),
            ("-engine name=x tc=1 -engine cmd=b tc=1", "cmd= is missing"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=fast", "invalid time control"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=5 elo1=0", "elo0 < elo1"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=0 elo1=5 model=normalized", "model"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -repeat 4", "pairs"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -openings file=x policy=round", "policy"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -pgnout x.pgn fi", "fi"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -games", "exactly one value"),
            ("stray -engine cmd=a tc=1 -engine cmd=b tc=1", "unexpected argument"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -ledger l.txt", "-ledger needs -srand"),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -ledger l.txt -srand 1", "openings the seed draws"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -ledger l.txt -srand 1 -openings file=x.epd format=epd",
                "openings the seed draws",
            ),
        ] {
            match parse(&args(line)) {
                Ok(_) => panic!("'{line}' must be refused"),
                Err(e) => assert!(e.contains(needle), "'{line}': '{e}' lacks '{needle}'"),
            }
        }
    }

    #[test]
    fn a_setup_is_the_match_without_what_changes_from_run_to_run() {
        let setup = |line: &str| parse(&args(line)).unwrap().setup;
        let base = "-engine cmd=/a/sitke name=A option.Threads=2 -engine cmd=b dir=/x name=B stderr=e.log \
                    -each tc=10+0.1 -games 2 -rounds 20 -repeat -concurrency 1 -openings random plies=8 \
                    -srand 7 -pgnout a.pgn -ledger l.txt";
        let want = "-engine name=A option.Threads=2 -engine name=B -each tc=10+0.1 -games 2 -repeat \
                    -concurrency 1 -openings random plies=8";
        assert_eq!(setup(base), want.split_whitespace().collect::<Vec<_>>().join(" "));
        let other_run = base
            .replace("/a/sitke", "/tmp/sitke")
            .replace("-srand 7", "-srand 8")
            .replace("-pgnout a.pgn", "-pgnout b.pgn -resume -ratinginterval 0 -rounds 3 -debug");
        assert_eq!(setup(&other_run), setup(base));
        for other_match in [
            base.replace("tc=10+0.1", "tc=20+0.2"),
            base.replace("Threads=2", "Threads=1"),
            base.replace("-concurrency 1", "-concurrency 2"),
            format!("{base} -sprt elo0=0 elo1=5"),
        ] {
            assert_ne!(setup(&other_match), setup(base), "{other_match}");
        }
    }
}
