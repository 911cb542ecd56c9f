//! Each rule of Sittuyin is written once, in `src/board/sittuyin.rs`, and every other part
//! of the engine reads it from there (docs/rules.md describes the rules). This test reads
//! the source: no other file under `src/` defines one of that module's constants or
//! functions again, or spells one of the rule values that were once written in several
//! places (the start position, the promotion squares, the last-pawn rule, the drop ranks,
//! the counting and 50-move limits, the repetition count, the met colours of the
//! insufficient-material rule). Comments and `#[cfg(test)]` items and module files, where
//! positions and expected values are test data, are not looked at.

use std::path::{Path, PathBuf};

const RULES_FILE: &str = "src/board/sittuyin.rs";

/// Spellings of rules: a code line outside the rules module that holds every string of an
/// entry (each as a whole word, where it begins or ends with one) writes that rule again.
const SPELLINGS: &[(&str, &[&str])] = &[
    ("the start position", &["8/8/4pppp/pppp4/4PPPP/PPPP4/8/8["]),
    ("the promotion squares", &["D5 | E5"]),
    ("the promotion squares", &["Square::D5", "Square::E5"]),
    ("the promotion squares", &["fn promotion_squares"]),
    ("the last-pawn promotion rule", &["pawns.more_than_one()", "pawns &"]),
    ("the rook's drop rank", &["Rook", "=>", "rel"]),
    ("a counting limit", &["Rook", "16"]),
    ("a counting limit", &["Khon", "44"]),
    ("a counting limit", &["Knight", "64"]),
    ("a counting limit", &["2 * 16"]),
    ("a counting limit", &["2 * 44"]),
    ("a counting limit", &["2 * 64"]),
    ("the 50-move limit", &["rule50", "100"]),
    ("the 50-move limit", &["rule50", "90"]),
    ("the repetition count", &["repetitions()", "2"]),
    ("the insufficient-material colours", &["Bitboard::DARK"]),
];

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

/// The code lines of a file (1-based numbers), comments and `#[cfg(test)]` items dropped,
/// and the files of the test modules it declares (`#[cfg(test)] mod name;`).
fn code_lines(file: &Path, text: &str) -> (Vec<(usize, String)>, Vec<PathBuf>) {
    let mut lines = Vec::new();
    let mut test_files = Vec::new();
    // Inside a `#[cfg(test)]` item: the brace depth so far, and whether a brace opened yet.
    let mut skipping: Option<(i32, bool)> = None;
    for (i, line) in text.lines().enumerate() {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        if code.trim().is_empty() {
            continue;
        }
        if code.trim_start().starts_with("#[cfg(test)]") {
            skipping = Some((0, false));
            continue;
        }
        if let Some((depth, opened)) = skipping.as_mut() {
            if !*opened && let Some(name) = code.trim().strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                test_files.extend(module_files(file, name.trim()));
                skipping = None;
                continue;
            }
            *depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            *opened |= code.contains('{');
            if (*opened && *depth <= 0) || (!*opened && code.trim_end().ends_with(';')) {
                skipping = None;
            }
            continue;
        }
        lines.push((i + 1, code.to_string()));
    }
    (lines, test_files)
}

/// Where the module `name` declared in `file` may live.
fn module_files(file: &Path, name: &str) -> Vec<PathBuf> {
    let dir = file.parent().expect("a file has a directory");
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let base = if ["mod", "lib", "main"].contains(&stem) { dir.to_path_buf() } else { dir.join(stem) };
    vec![base.join(format!("{name}.rs")), base.join(name).join("mod.rs")]
}

/// The names the rules module defines: its constants and functions.
fn rule_names(rules: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (_, line) in code_lines(Path::new(RULES_FILE), rules).0 {
        let line = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
        for keyword in ["const fn ", "fn ", "const "] {
            if let Some(rest) = line.strip_prefix(keyword) {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    names.push(name);
                }
                break;
            }
        }
    }
    names
}

/// Whether `line` holds `needle` not run together with a word before or after it (`100`
/// is not in `1000`, nor `2 * 64` in `12 * 64`).
fn holds(line: &str, needle: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(needle).any(|(at, m)| {
        let joined_before = m.starts_with(word) && line[..at].ends_with(word);
        let joined_after = m.ends_with(word) && line[at + m.len()..].starts_with(word);
        !joined_before && !joined_after
    })
}

/// Whether `line` defines `name` as a constant, static or function.
fn defines(line: &str, name: &str) -> bool {
    ["const ", "static ", "fn "].iter().any(|kw| holds(line, &format!("{kw}{name}")))
}

#[test]
fn each_rule_is_defined_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rules_text = std::fs::read_to_string(root.join(RULES_FILE)).expect("the rules module");
    let names = rule_names(&rules_text);
    for expected in ["START_FEN", "drop_zone", "promotion_zone", "COUNTING_LIMITS", "FIFTY_MOVE_PLIES"] {
        assert!(names.iter().any(|n| n == expected), "{RULES_FILE} no longer defines {expected}: {names:?}");
    }

    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    assert!(files.len() > 20, "found only {files:?}");
    let texts: Vec<String> =
        files.iter().map(|f| std::fs::read_to_string(f).expect("a readable source file")).collect();
    let scanned: Vec<_> = files.iter().zip(&texts).map(|(f, t)| code_lines(f, t)).collect();
    let test_files: Vec<&PathBuf> = scanned.iter().flat_map(|(_, t)| t).collect();
    assert!(!test_files.is_empty(), "no #[cfg(test)] mod file found: the scan is broken");
    let mut found = Vec::new();
    for (file, (lines, _)) in files.iter().zip(&scanned) {
        if test_files.contains(&file) {
            continue;
        }
        let relative = file.strip_prefix(root).expect("under the crate").to_string_lossy().replace('\\', "/");
        if relative == RULES_FILE {
            for name in &names {
                let n = lines.iter().filter(|(_, l)| defines(l, name)).count();
                if n != 1 {
                    found.push(format!("{relative}: {name} is defined {n} times"));
                }
            }
            continue;
        }
        for (number, line) in lines {
            for name in &names {
                if defines(line, name) {
                    found.push(format!("{relative}:{number}: defines the rule {name} again: {}", line.trim()));
                }
            }
            for (rule, needles) in SPELLINGS {
                if needles.iter().all(|n| holds(line, n)) {
                    found.push(format!("{relative}:{number}: spells {rule} again: {}", line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "rules written outside {RULES_FILE}:\n{}", found.join("\n"));
}
