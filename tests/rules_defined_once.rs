//! Each rule of Sittuyin is written once, in `src/board/sittuyin.rs` (the other rule sets'
//! own values in `src/board/ruleset.rs`), and every other part of the engine reads it from
//! there (docs/rules.md describes the rules). This test reads
//! the source of every other file under `src/` as Rust tokens (comments dropped, numbers
//! by value whatever their spelling: `100`, `100u32`, `1_00`, `0x64` and `100.0` are one
//! number) and fails on:
//!
//! - a definition of one of the rules module's constants or functions again;
//! - a rule's value as a literal where a rule's clock is at hand: a counting limit (in
//!   moves or plies), the 50-move limit (in plies or moves) or the repetition count, in a
//!   statement, or in the signature of the function around it, that names that rule's
//!   quantities (`rule50`, `count`, `limit`, `budget`, ...);
//! - the known spellings of the other rules: the start position, the promotion squares,
//!   which pawns may promote and where (a function that combines the promotion zone with a
//!   pawn count, or the met's attacks with the squares a met may not attack), the rook's
//!   drop rank and the met colours of the insufficient-material rule.
//!
//! `#[cfg(test)]` items and test module files are not looked at: their numbers are
//! positions and expected values. A number of a rule's value elsewhere (a bit width, a
//! record size, a search ply limit) is not a rule, and passes as long as nothing around
//! it speaks of a rule's clock.

use sitke::board::sittuyin::{COUNTING_LIMITS, FIFTY_MOVE_PLIES, REPETITION_DRAW_COUNT, promotion_zone};
use sitke::board::{Color, Square};
use std::path::{Path, PathBuf};

const RULES_FILE: &str = "src/board/sittuyin.rs";
/// The rule sets (`Rules`): each other rule set's own values are written there, as data
/// beside the default's, which it takes from `RULES_FILE`.
const RULE_SETS_FILE: &str = "src/board/ruleset.rs";

/// One token of Rust source, as far as the scan needs it.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// A numeric literal with an integral value, whatever its base, separators or suffix.
    Num(u128),
    /// A numeric literal with a fractional part.
    Fraction,
    /// A string literal's contents (escapes left as written).
    Str(String),
    /// Any other character (punctuation; char literals and lifetimes become `'`).
    Punct(char),
}

/// Tokens with the 1-based line each starts on.
type Tokens = Vec<(usize, Tok)>;

/// The tokens of `text`, comments dropped.
fn tokenize(text: &str) -> Tokens {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let (ch, start_line) = (c[i], line);
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                } else if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += (c[i] == '\n') as usize;
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(&c, i) {
            // r"..", r#".."#, br"..": no escapes, ends at a quote and as many hashes.
            let open = i + c[i..].iter().position(|&x| x == '"').unwrap_or(0) + 1;
            let mut j = open;
            while j < c.len() && !(c[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#')) {
                line += (c[j] == '\n') as usize;
                j += 1;
            }
            out.push((start_line, Tok::Str(c[open..j.min(c.len())].iter().collect())));
            i = j + 1 + hashes;
        } else if ch == '"' || (ch == 'b' && at(i + 1) == '"') {
            let open = i + if ch == 'b' { 2 } else { 1 };
            let mut j = open;
            while j < c.len() && c[j] != '"' {
                line += (c[j] == '\n') as usize;
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            out.push((start_line, Tok::Str(c[open..j.min(c.len())].iter().collect())));
            i = j + 1;
        } else if ch == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime or label ('a).
            if at(i + 1) == '\\' {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
            out.push((start_line, Tok::Punct('\'')));
        } else if ch.is_ascii_digit() {
            let (tok, len) = number(&c[i..]);
            out.push((start_line, tok));
            i += len;
        } else if ch.is_alphabetic() || ch == '_' {
            let mut j = i;
            while j < c.len() && (c[j].is_alphanumeric() || c[j] == '_') {
                j += 1;
            }
            out.push((start_line, Tok::Ident(c[i..j].iter().collect())));
            i = j;
        } else {
            out.push((start_line, Tok::Punct(ch)));
            i += 1;
        }
    }
    out
}

/// How many hashes the raw string starting at `i` has, if one starts there.
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    let before_ok = i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    let mut j = i + (c.get(i) == Some(&'b')) as usize;
    if !before_ok || c.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
    (c.get(j + hashes) == Some(&'"')).then_some(hashes)
}

/// The numeric literal at the start of `c` and its length in chars.
fn number(c: &[char]) -> (Tok, usize) {
    let radix = match (c[0], c.get(1)) {
        ('0', Some('x')) => 16,
        ('0', Some('o')) => 8,
        ('0', Some('b')) => 2,
        _ => 10,
    };
    let mut i = if radix == 10 { 0 } else { 2 };
    let mut digits = String::new();
    while i < c.len() && (c[i].is_digit(radix) || c[i] == '_') {
        if c[i] != '_' {
            digits.push(c[i]);
        }
        i += 1;
    }
    let mut fraction = false;
    // A fractional part only when a digit follows the dot (`0..100`, `x.0.1` stay integers).
    if radix == 10 && c.get(i) == Some(&'.') && c.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
        i += 1;
        while i < c.len() && (c[i].is_ascii_digit() || c[i] == '_') {
            fraction |= c[i].is_ascii_digit() && c[i] != '0';
            i += 1;
        }
    }
    // The suffix (u32, usize, f64) or an exponent: part of the literal, not its value.
    let exponent = radix == 10 && matches!(c.get(i), Some('e' | 'E'));
    while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
        i += 1;
    }
    let value = u128::from_str_radix(&digits, radix).ok();
    match value {
        Some(v) if !fraction && !exponent => (Tok::Num(v), i),
        _ => (Tok::Fraction, i),
    }
}

/// A file's code outside `#[cfg(test)]` items (or None when the whole file is one, by
/// `#![cfg(test)]`), and the files of the test modules it declares (`#[cfg(test)] mod x;`).
fn code(file: &Path, toks: Tokens) -> (Tokens, Vec<PathBuf>) {
    let mut kept = Vec::new();
    let mut test_files = Vec::new();
    let mut i = 0;
    let is = |i: usize, t: &Tok| toks.get(i).is_some_and(|(_, x)| x == t);
    let punct = |c| Tok::Punct(c);
    while i < toks.len() {
        let inner = is(i + 1, &punct('!'));
        let open = i + 1 + inner as usize;
        if !(is(i, &punct('#')) && is(open, &punct('['))) {
            kept.push(toks[i].clone());
            i += 1;
            continue;
        }
        let close = (open..toks.len()).find(|&j| is(j, &punct(']'))).unwrap_or(toks.len());
        let attr: Vec<&Tok> = toks[open..close].iter().map(|(_, t)| t).collect();
        let ident = |s: &str| attr.contains(&&Tok::Ident(s.into()));
        let test_only = ident("cfg") && ident("test") && !ident("not");
        if !test_only {
            kept.extend_from_slice(&toks[i..=close.min(toks.len() - 1)]);
            i = close + 1;
            continue;
        }
        if inner {
            return (Vec::new(), test_files);
        }
        // Skip the item: to its `;` before any brace, or to the brace closing its first one.
        let mut j = close + 1;
        let mut depth = 0;
        while j < toks.len() {
            match &toks[j].1 {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    if let (Some((_, Tok::Ident(m))), Some((_, Tok::Ident(name)))) = (toks.get(j - 2), toks.get(j - 1))
                        && m == "mod"
                    {
                        test_files.extend(module_files(file, name));
                    }
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        i = j + 1;
    }
    (kept, test_files)
}

/// Where the module `name` declared in `file` may live.
fn module_files(file: &Path, name: &str) -> Vec<PathBuf> {
    let dir = file.parent().expect("a file has a directory");
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let base = if ["mod", "lib", "main"].contains(&stem) { dir.to_path_buf() } else { dir.join(stem) };
    vec![base.join(format!("{name}.rs")), base.join(name).join("mod.rs")]
}

/// The names the rules module defines: its constants, statics and functions.
fn defined_names(toks: &Tokens) -> Vec<(usize, String)> {
    let mut names = Vec::new();
    for w in toks.windows(2) {
        // `const fn name`: the name follows the `fn`.
        if let (Tok::Ident(kw), Tok::Ident(name)) = (&w[0].1, &w[1].1)
            && ["const", "static", "fn"].contains(&kw.as_str())
            && name != "fn"
        {
            names.push((w[0].0, name.clone()));
        }
    }
    names
}

/// A stretch of code checked as one: a statement (split at `;`, `{`, `}` and at commas
/// outside brackets, which part enum variants, fields and match arms), or a whole function; `sig` is the signature of the function it is in (empty at item level).
struct Unit<'a> {
    line: usize,
    toks: &'a [(usize, Tok)],
    sig: &'a [(usize, Tok)],
}

/// The statements and the functions of a file's code.
fn units(toks: &Tokens) -> (Vec<Unit<'_>>, Vec<Unit<'_>>) {
    let (mut statements, mut functions) = (Vec::new(), Vec::new());
    // Open functions: (brace depth inside their body, where the signature starts, where the body starts).
    let mut open: Vec<(i32, usize, usize)> = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let mut sig_start = None;
    // Open brackets ( and [ inside the current braces, and those of the braces around.
    let mut brackets = 0;
    let mut outer_brackets = Vec::new();
    for (i, (_, t)) in toks.iter().enumerate() {
        match t {
            Tok::Ident(x) if x == "fn" => sig_start = Some(i),
            Tok::Punct('(' | '[') => brackets += 1,
            Tok::Punct(')' | ']') => brackets -= 1,
            _ => {}
        }
        let boundary = matches!(t, Tok::Punct(';' | '{' | '}')) || (*t == Tok::Punct(',') && brackets == 0);
        if !boundary {
            continue;
        }
        let sig = open.last().map_or(&toks[0..0], |&(_, s, b)| &toks[s..b]);
        if start < i {
            statements.push(Unit { line: toks[start].0, toks: &toks[start..i], sig });
        }
        start = i + 1;
        match t {
            Tok::Punct('{') => {
                outer_brackets.push(brackets);
                brackets = 0;
                depth += 1;
                if let Some(s) = sig_start.take() {
                    open.push((depth, s, i));
                }
            }
            Tok::Punct('}') => {
                if let Some(&(d, s, b)) = open.last()
                    && d == depth
                {
                    open.pop();
                    functions.push(Unit { line: toks[s].0, toks: &toks[b..i], sig: &toks[s..b] });
                }
                brackets = outer_brackets.pop().unwrap_or(0);
                depth -= 1;
            }
            Tok::Punct(';') => sig_start = None,
            _ => {}
        }
    }
    (statements, functions)
}

/// A rule whose values must not be written where its quantities are named.
struct RuleValue {
    rule: &'static str,
    values: Vec<u128>,
    /// Words (lower case) that, as a word of an identifier (`counting_limit`, `rule50`,
    /// `fiftyMoves`), name the rule's quantities.
    context: &'static [&'static str],
    /// Whether the signature of the function around counts as context, not only the
    /// statement.
    signature: bool,
}

/// The rule values, read from the rules module itself, so the test follows a change there.
fn rule_values() -> Vec<RuleValue> {
    let counting = COUNTING_LIMITS.iter().flat_map(|&(_, moves)| [moves, 2 * moves]).map(u128::from).collect();
    vec![
        RuleValue {
            rule: "a counting limit",
            values: counting,
            context: &["count", "counting", "counted", "limit", "limits", "bare"],
            signature: true,
        },
        RuleValue {
            rule: "the 50-move limit",
            values: vec![FIFTY_MOVE_PLIES.into(), (FIFTY_MOVE_PLIES / 2).into()],
            context: &["rule50", "fifty", "clock", "clocks", "budget", "halfmove", "halfmoves"],
            signature: true,
        },
        RuleValue {
            rule: "the repetition count",
            values: vec![REPETITION_DRAW_COUNT.into()],
            context: &["repetition", "repetitions", "repeated", "occurrences"],
            signature: true,
        },
        // Earlier occurrences of a position, as `repetitions()` counts them: one less, and a
        // number too common to look for beyond the statement that calls it (the count
        // itself steps back two plies at a time).
        RuleValue {
            rule: "the repetition count",
            values: vec![(REPETITION_DRAW_COUNT - 1).into()],
            context: &["repetitions"],
            signature: false,
        },
    ]
}

/// One part of a spelling: what a token must be.
enum Needle {
    /// This identifier.
    Ident(&'static str),
    /// An identifier holding this (lower case).
    IdentPart(&'static str),
    /// A string literal holding this.
    Str(&'static str),
    /// This code, written with no spaces but between two words (`Bitboard::DARK`).
    Code(&'static str),
}

/// Spellings of rules: a statement (or, for `whole_fn`, a function) that holds a token of
/// every needle writes the rule again.
const SPELLINGS: &[(&str, bool, &[Needle])] = {
    use Needle::*;
    &[
        ("the start position", false, &[Str("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[")]),
        ("the promotion squares", false, &[Ident("promotion_squares")]),
        ("which pawns may promote", true, &[Ident("promotion_zone"), Ident("more_than_one")]),
        ("which pawns may promote", true, &[Ident("WHITE_PROMOTION_SQUARES"), Ident("more_than_one")]),
        ("where a promotion may go", true, &[Ident("met_attack_set"), Ident("met"), IdentPart("promot")]),
        ("the rook's drop rank", false, &[Ident("Rook"), IdentPart("relative_rank")]),
        ("the rook's drop rank", false, &[Ident("Rook"), Ident("rel")]),
        ("the insufficient-material colours", false, &[Code("Bitboard::DARK")]),
    ]
};

/// Whether `toks` hold what `n` asks for.
fn holds(n: &Needle, toks: &[(usize, Tok)]) -> bool {
    if let Needle::Code(code) = n {
        return compact(toks).contains(code);
    }
    toks.iter().any(|(_, t)| match (n, t) {
        (Needle::Ident(s), Tok::Ident(x)) => x == s,
        (Needle::IdentPart(s), Tok::Ident(x)) => x.to_lowercase().contains(s),
        (Needle::Str(s), Tok::Str(x)) => x.contains(s),
        _ => false,
    })
}

/// The tokens written with no space but between two words.
fn compact(toks: &[(usize, Tok)]) -> String {
    let mut s = String::new();
    for (_, t) in toks {
        let word = match t {
            Tok::Ident(x) => x.clone(),
            Tok::Num(v) => v.to_string(),
            Tok::Fraction => "0.5".into(),
            Tok::Str(x) => format!("{x:?}"),
            Tok::Punct(c) => c.to_string(),
        };
        if s.ends_with(|c: char| c.is_alphanumeric() || c == '_') && word.starts_with(|c: char| c.is_alphanumeric()) {
            s.push(' ');
        }
        s.push_str(&word);
    }
    s
}

/// The words of an identifier, lower case: `counting_limit` is counting and limit,
/// `PaddedCounter` padded and counter.
fn words(ident: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut prev_lower = false;
    for c in ident.chars() {
        if c == '_' || (c.is_uppercase() && prev_lower) {
            out.push(String::new());
        }
        if c != '_' {
            out.last_mut().expect("one word at least").extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    out.retain(|w| !w.is_empty());
    out
}

/// Whether an identifier of `toks` has one of `context` as a word. The method `.count()`
/// (of a bitboard or an iterator) names no rule.
fn names_any(toks: &[(usize, Tok)], context: &[&str]) -> bool {
    toks.iter().enumerate().any(|(i, (_, t))| {
        let Tok::Ident(x) = t else { return false };
        let method =
            i > 0 && toks[i - 1].1 == Tok::Punct('.') && toks.get(i + 1).is_some_and(|(_, t)| *t == Tok::Punct('('));
        !(method && x == "count") && words(x).iter().any(|w| context.contains(&w.as_str()))
    })
}

/// The promotion squares of each side as the names the code writes (`D5`).
fn promotion_square_names() -> Vec<Vec<String>> {
    Color::ALL.iter().map(|&c| promotion_zone(c).map(|sq: Square| sq.to_string().to_uppercase()).collect()).collect()
}

/// Whether a statement lists promotion squares: two or more square names, all of them one
/// side's promotion squares (`D5 | E5`, `[Square::A8, Square::B7, ...]`).
fn lists_promotion_squares(toks: &[(usize, Tok)], zones: &[Vec<String>]) -> bool {
    let mut squares: Vec<&String> = toks
        .iter()
        .filter_map(|(_, t)| match t {
            Tok::Ident(x) if x.len() == 2 && matches!(x.as_bytes(), [b'A'..=b'H', b'1'..=b'8']) => Some(x),
            _ => None,
        })
        .collect();
    squares.sort();
    squares.dedup();
    squares.len() >= 2 && zones.iter().any(|z| squares.iter().all(|s| z.contains(s)))
}

/// Everything `file`'s code writes again of the rules, as report lines.
fn copies(relative: &str, source: &str, toks: &Tokens, rule_names: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    // A finding quotes the source line it is on.
    let text = |line: usize| source.lines().nth(line - 1).unwrap_or_default().trim().to_string();
    for (line, name) in defined_names(toks) {
        if rule_names.contains(&name) {
            found.push(format!("{relative}:{line}: defines the rule {name} again: {}", text(line)));
        }
    }
    let (statements, functions) = units(toks);
    let rules = rule_values();
    let zones = promotion_square_names();
    for s in &statements {
        if lists_promotion_squares(s.toks, &zones) {
            found.push(format!("{relative}:{}: spells the promotion squares again: {}", s.line, text(s.line)));
        }
        for rv in &rules {
            if !(names_any(s.toks, rv.context) || (rv.signature && names_any(s.sig, rv.context))) {
                continue;
            }
            for (line, t) in s.toks {
                if let Tok::Num(v) = t
                    && rv.values.contains(v)
                {
                    found.push(format!("{relative}:{line}: writes {} as the number {v}: {}", rv.rule, text(*line)));
                }
            }
        }
    }
    for (rule, whole_fn, needles) in SPELLINGS {
        let scope = if *whole_fn { &functions } else { &statements };
        for u in scope {
            if needles.iter().all(|n| holds(n, u.toks) || holds(n, u.sig)) {
                found.push(format!("{relative}:{}: spells {rule} again: {}", u.line, text(u.line)));
            }
        }
    }
    found
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn each_rule_is_defined_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules_text = std::fs::read_to_string(root.join(RULES_FILE)).expect("the rules module");
    let (rules_code, _) = code(Path::new(RULES_FILE), tokenize(&rules_text));
    let defined = defined_names(&rules_code);
    let names: Vec<String> = defined.iter().map(|(_, n)| n.clone()).collect();
    for expected in
        ["START_FEN", "drop_zone", "promotion_zone", "promotable_pawns", "COUNTING_LIMITS", "FIFTY_MOVE_PLIES"]
    {
        assert!(names.iter().any(|n| n == expected), "{RULES_FILE} no longer defines {expected}: {names:?}");
    }
    let mut found = Vec::new();
    for name in &names {
        let n = names.iter().filter(|m| *m == name).count();
        if n != 1 {
            found.push(format!("{RULES_FILE}: {name} is defined {n} times"));
        }
    }

    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    assert!(files.len() > 20, "found only {files:?}");
    let texts: Vec<String> =
        files.iter().map(|f| std::fs::read_to_string(f).expect("a readable source file")).collect();
    let scanned: Vec<(Tokens, Vec<PathBuf>)> = files.iter().zip(&texts).map(|(f, t)| code(f, tokenize(t))).collect();
    let test_files: Vec<&PathBuf> = scanned.iter().flat_map(|(_, t)| t).collect();
    assert!(!test_files.is_empty(), "no #[cfg(test)] mod file found: the scan is broken");
    for ((file, text), (toks, _)) in files.iter().zip(&texts).zip(&scanned) {
        let relative = file.strip_prefix(root).expect("under the crate").to_string_lossy().replace('\\', "/");
        if relative != RULES_FILE && relative != RULE_SETS_FILE && !test_files.contains(&file) {
            found.extend(copies(&relative, text, toks, &names));
        }
    }
    assert!(found.is_empty(), "rules written outside {RULES_FILE}:\n{}", found.join("\n"));
}

/// What the scan reports on `snippet`, as if it were a file of `src/`.
fn scan(snippet: &str) -> Vec<String> {
    let rules_text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(RULES_FILE)).unwrap();
    let names: Vec<String> =
        defined_names(&code(Path::new(RULES_FILE), tokenize(&rules_text)).0).into_iter().map(|(_, n)| n).collect();
    copies("src/x.rs", snippet, &code(Path::new("src/x.rs"), tokenize(snippet)).0, &names)
}

#[test]
fn the_scan_finds_copies_however_they_are_written() {
    // Each snippet writes a rule again, the first three as the tables once did; each must
    // be reported for the rule named, and as often as given.
    let cases: &[(&str, &str, usize)] = &[
        (
            "pub fn counting_limit(rook: bool, khon: bool, knight: bool) -> u32 {
                if rook { 32 } else if khon { 88 } else if knight { 128 } else { 0 }
            }",
            "a counting limit",
            3,
        ),
        (
            "pub fn bare_king_budget(clocks: Clocks) -> u32 { let by_fifty = 100u32.saturating_sub(clocks.rule50); by_fifty }
             pub fn fifty_move_budget(rule50: u32) -> u32 { 100u32.saturating_sub(rule50) }",
            "the 50-move limit",
            2,
        ),
        (
            "fn for_each_move(&self) {
                if p.kind() == PieceType::Pawn && !has_met && (!pawns.more_than_one() || promotion_zone(us).has(from)) {
                    let forbidden = met_attack_set(theirs);
                    for to in ((attacks::met(from) - occ) | from) - forbidden {
                        f(&TbMove { mv: Move::promotion(from, to) });
                    }
                }
            }",
            "which pawns may promote",
            1,
        ),
        ("fn moves(&self) { let forbidden = met_attack_set(theirs); let to = attacks::met(from); Move::promotion(from, to) }", "where a promotion may go", 1),
        ("const KHON_LIMIT: u32 = 0x58;", "a counting limit", 1),
        ("fn f(p: &Position) -> bool { p.rule50() >= 1_00 }", "the 50-move limit", 1),
        ("fn f(p: &Position) -> f64 { p.rule50() as f64 / 100.0 }", "the 50-move limit", 1),
        ("fn f(counting: bool) -> u32 { match pt { Rook => 16, Khon => 44, _ => 0 } }", "a counting limit", 2),
        ("fn drawn(p: &Position) -> bool { p.repetitions() >= 2 }", "the repetition count", 1),
        ("const S: &str = \"8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1\";", "the start position", 1),
        ("const Z: Bitboard = Bitboard::from_square(Square::D5) | Square::E5;", "the promotion squares", 1),
        ("fn same(b: Bitboard) -> bool { (b & Bitboard::DARK).is_empty() }", "the insufficient-material colours", 1),
        ("pub const fn drop_zone(c: Color) -> Bitboard { Bitboard::EMPTY }", "drop_zone", 1),
    ];
    for &(snippet, rule, n) in cases {
        let found = scan(snippet);
        let of_rule = found.iter().filter(|f| f.contains(rule)).count();
        assert_eq!(of_rule, n, "{snippet}\nfound: {found:#?}");
    }
}

#[test]
fn the_scan_passes_numbers_that_are_not_rules() {
    for snippet in [
        "pub const MAX_PLY: usize = 128;",
        "fn pack(eval: i32) -> u64 { (eval as u16 as u64) << 32 }",
        "fn header(h: &mut [u8]) { h[32..40].copy_from_slice(&[0; 8]); }",
        "#[repr(align(64))] pub(super) struct PaddedCounter(pub AtomicU64);",
        "fn percent(wins: f64, n: f64) -> f64 { 100.0 * wins / n }",
        "fn f(b: Bitboard) -> u32 { b.count() * 16 }",
        "// rule50 100 and count 88: a comment\nconst A: u8 = 1;",
        "const NOTE: &str = \"rule50 100, counting limit 88\";",
        "fn f() { let limit = LIMIT; }\n#[cfg(test)]\nmod tests { fn g() { let rule50 = 100; let limit = 88; } }",
        "fn repetitions(&self) -> u32 { let mut i = 4; while i < n { i += 2; } 0 }",
        "squares!(A1, B1, C1, D1, E1, D5, E5);",
        "fn last_pawn(pawns: Bitboard) -> bool { !pawns.more_than_one() }",
    ] {
        assert_eq!(scan(snippet), Vec::<String>::new(), "{snippet}");
    }
}
