//! The user documentation agrees with the binary that ships: the option tables of the README
//! and of docs/protocol.md list exactly what `uci` prints (names in order, types, defaults
//! and ranges); every subcommand answers `--help` and `-h`, as the README promises; and the
//! pages that name the current build name the bench signature the binary prints.

use std::path::Path;
use std::process::{Command, Stdio};

/// One option as a table row or a `uci` line gives it: name, type, default, range.
#[derive(Debug, PartialEq, Eq)]
struct OptionRow {
    name: String,
    kind: String,
    default: String,
    range: String,
}

fn sitke() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sitke"))
}

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The `option name ...` lines of `uci`, each as a row the tables would hold: the range
/// is `min..max` for a spin, the values joined by `, ` for a combo, empty otherwise.
fn uci_options() -> Vec<OptionRow> {
    let mut child = sitke().stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("sitke runs");
    use std::io::Write;
    child.stdin.take().expect("stdin").write_all(b"uci\nquit\n").expect("write uci");
    let out = child.wait_with_output().expect("sitke ends");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let rows: Vec<OptionRow> = text
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|rest| {
            // Names may hold spaces: the name ends at the first " type ".
            let (name, rest) = rest.split_once(" type ").expect("option line has a type");
            let words: Vec<&str> = rest.split(' ').collect();
            let field = |key: &str| -> Vec<String> {
                let mut found = Vec::new();
                for (i, w) in words.iter().enumerate() {
                    if *w == key {
                        // A value runs to the next keyword (string defaults may hold spaces).
                        let value: Vec<&str> = words[i + 1..]
                            .iter()
                            .take_while(|v| !matches!(**v, "default" | "min" | "max" | "var"))
                            .copied()
                            .collect();
                        found.push(value.join(" "));
                    }
                }
                found
            };
            let kind = words[0].to_string();
            let default = field("default").into_iter().next().unwrap_or_default();
            let range = match kind.as_str() {
                "spin" => format!("{}..{}", field("min")[0], field("max")[0]),
                "combo" => field("var").join(", "),
                _ => String::new(),
            };
            OptionRow { name: name.to_string(), kind, default, range }
        })
        .collect();
    assert!(rows.len() >= 10, "too few options parsed from `uci`:\n{text}");
    rows
}

/// The rows of the first Markdown table after `heading` whose header starts
/// `| option | type | default | range |`, with backticks stripped.
fn option_table(page: &str, heading: &str) -> Vec<OptionRow> {
    let text = read(page);
    let at = text.find(heading).unwrap_or_else(|| panic!("{page}: no '{heading}'"));
    let rest = &text[at..];
    let header = rest
        .find("| option | type | default | range |")
        .unwrap_or_else(|| panic!("{page}: no option table after '{heading}'"));
    let clean = |cell: &str| cell.trim().trim_matches('`').replace("`, `", ", ").to_string();
    let rows: Vec<OptionRow> = rest[header..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').collect();
            assert!(cells.len() >= 4, "{page}: short row: {l}");
            OptionRow { name: clean(cells[0]), kind: clean(cells[1]), default: clean(cells[2]), range: clean(cells[3]) }
        })
        .collect();
    assert!(!rows.is_empty(), "{page}: empty option table");
    rows
}

#[test]
fn readme_and_protocol_option_tables_are_what_uci_prints() {
    let printed = uci_options();
    for (page, heading) in [("README.md", "### UCI options"), ("docs/protocol.md", "## Options")] {
        let table = option_table(page, heading);
        let names = |rows: &[OptionRow]| rows.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&table), names(&printed), "{page}: the table's options (in order) differ from `uci`'s");
        for (doc, bin) in table.iter().zip(&printed) {
            assert_eq!(doc, bin, "{page}: the row of {} differs from what `uci` prints", bin.name);
        }
    }
}

/// The subcommands `sitke --help` (or `sitke CMD --help`) lists under `Commands:`.
fn subcommands(prefix: &[&str]) -> Vec<String> {
    let out = sitke().args(prefix).arg("--help").output().expect("sitke runs");
    assert!(out.status.success(), "sitke {} --help failed", prefix.join(" "));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let Some(at) = text.find("Commands:") else { return Vec::new() };
    text[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_subcommand_answers_help() {
    let top = subcommands(&[]);
    let engine = ["bench", "perft"];
    let tools = ["match", "datagen", "train", "tune", "spsa", "tb", "pgn-positions"];
    for expected in engine.iter().chain(tools.iter().filter(|_| cfg!(feature = "tools"))) {
        assert!(top.iter().any(|c| c == expected), "`sitke --help` does not list {expected}: {top:?}");
    }
    if !cfg!(feature = "tools") {
        assert!(top.iter().all(|c| engine.contains(&c.as_str()) || c == "help"), "{top:?} without tools");
    }
    let mut all: Vec<Vec<String>> = Vec::new();
    for cmd in &top {
        all.push(vec![cmd.clone()]);
        for sub in subcommands(&[cmd]) {
            all.push(vec![cmd.clone(), sub]);
        }
    }
    for cmd in &all {
        for flag in ["--help", "-h"] {
            let out = sitke().args(cmd).arg(flag).output().expect("sitke runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "`sitke {} {flag}` exited with {:?}", cmd.join(" "), out.status.code());
            assert!(
                text.contains("Usage") && text.lines().count() >= 3,
                "`sitke {} {flag}` printed no usage:\n{text}",
                cmd.join(" ")
            );
        }
    }
}

/// The node count `sitke bench` prints.
fn bench_nodes() -> String {
    let out = sitke().arg("bench").output().expect("sitke bench runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("Nodes searched")).expect("a `Nodes searched` line");
    line.rsplit(':').next().expect("a count").trim().to_string()
}

#[test]
fn pages_that_name_the_current_build_name_the_bench_it_prints() {
    let nodes = bench_nodes();
    let readme = read("README.md");
    let strength = read("docs/strength.md");
    let claims = [
        ("README.md, subcommand table", readme.contains(&format!("(today `{nodes}`)"))),
        ("README.md, strength section", readme.contains(&format!("(`sitke bench`: `{nodes}`"))),
        ("docs/strength.md, builds table", strength.contains(&format!("| **`{nodes}`** |"))),
    ];
    for (place, ok) in claims {
        assert!(ok, "{place} does not name the current build `{nodes}`, which `sitke bench` prints");
    }
    // Exactly one build is the current one.
    assert_eq!(strength.matches("**the current build**").count(), 1, "docs/strength.md names one current build");
}
