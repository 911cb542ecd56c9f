//! One core under every protocol: an option set through UCI and through CECP has the same
//! effect and reports the same message, wrapped as each protocol wraps it (UCI
//! `info string error: M` or `info string M`; CECP `Error (bad option): M` or `# M`).

mod uci;

use std::time::Duration;
use uci::Engine;

/// Whether a message is an error or a note, and its text.
#[derive(Debug, PartialEq, Eq)]
enum Said {
    Error(String),
    Note(String),
}

/// The one line a UCI `setoption` answered with, unwrapped.
fn uci_said(e: &mut Engine, line: &str) -> Said {
    e.send(line);
    let out = e.sync();
    assert_eq!(out.len(), 1, "{line}: {out:?}");
    let text = out[0].strip_prefix("info string ").unwrap_or_else(|| panic!("{line}: {out:?}"));
    match text.strip_prefix("error: ") {
        Some(m) => Said::Error(m.to_string()),
        None => Said::Note(text.to_string()),
    }
}

/// The one line a CECP command answered with, unwrapped.
fn cecp_said(e: &mut Engine, line: &str, ping: u32) -> Said {
    e.send(line);
    e.send(&format!("ping {ping}"));
    let mut out = e.expect(&format!("pong {ping}"));
    out.pop();
    assert_eq!(out.len(), 1, "{line}: {out:?}");
    if let Some(m) = out[0].strip_prefix("Error (bad option): ") {
        Said::Error(m.to_string())
    } else if let Some(m) = out[0].strip_prefix("# ") {
        Said::Note(m.to_string())
    } else {
        panic!("{line}: {out:?}")
    }
}

#[test]
fn options_say_the_same_under_uci_and_cecp() {
    let dir = std::env::temp_dir().join(format!("sitke-parity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad_net = dir.join("bad.nnue");
    std::fs::write(&bad_net, b"SITKENNU but not a net").unwrap();
    let missing = dir.join("missing");
    let built_in = sitke::eval::nnue::embedded::NAME;

    let mut u = Engine::sitke();
    u.send("uci");
    u.expect("uciok");
    let mut x = Engine::sitke();
    x.send("xboard");
    x.send("protover 2");
    x.expect("feature done=1");

    // (UCI line, CECP line, what the message must say, whether it is an error)
    let cases: Vec<(String, String, String, bool)> = vec![
        (
            format!("setoption name TablebasePath value {}", missing.display()),
            format!("option TablebasePath={}", missing.display()),
            format!("TablebasePath {}: ", missing.display()),
            true,
        ),
        (
            format!("setoption name TablebasePath value {}", dir.display()),
            format!("option TablebasePath={}", dir.display()),
            format!("tablebases: 0 tables in {}", dir.display()),
            false,
        ),
        (
            format!("setoption name EvalFile value {}", bad_net.display()),
            format!("option EvalFile={}", bad_net.display()),
            format!("keeping {built_in}"),
            true,
        ),
        (
            format!("setoption name EvalFile value {}", missing.display()),
            format!("option EvalFile={}", missing.display()),
            format!("EvalFile {}: ", missing.display()),
            true,
        ),
        ("setoption name EvalFile value".into(), "option EvalFile=".into(), format!("NNUE net {built_in}"), false),
        ("setoption name Hash value 0".into(), "memory 0".into(), "'Hash': 0 is outside 1..".into(), true),
        ("setoption name Hash value 99999999".into(), "memory 99999999".into(), "99999999 is outside".into(), true),
        ("setoption name Threads value 0".into(), "cores 0".into(), "'Threads': 0 is outside".into(), true),
        ("setoption name NoSuch value 3".into(), "option NoSuch=3".into(), "no such option 'NoSuch'".into(), true),
        ("setoption name Skill Level value x".into(), "option Skill Level=x".into(), "not an integer".into(), true),
        ("setoption name UCI_Variant value chess".into(), "option UCI_Variant=chess".into(), "'chess'".into(), true),
    ];
    for (i, (uci_line, cecp_line, needle, is_error)) in cases.iter().enumerate() {
        let ours = uci_said(&mut u, uci_line);
        let theirs = cecp_said(&mut x, cecp_line, i as u32);
        assert_eq!(ours, theirs, "{uci_line} / {cecp_line}");
        let text = match &ours {
            Said::Error(m) => {
                assert!(is_error, "{uci_line}: {ours:?}");
                m
            }
            Said::Note(m) => {
                assert!(!is_error, "{uci_line}: {ours:?}");
                m
            }
        };
        assert!(text.contains(needle.as_str()), "'{needle}' not in {text}");
    }

    // The refused options changed nothing: both still search, with the built-in net.
    u.send("eval");
    let eval = u.expect_prefix("NNUE evaluation", Duration::from_secs(5));
    assert!(eval.last().unwrap().contains(&format!("({built_in}, in use)")), "{eval:?}");
    for line in ["new", "sd 2", "go"] {
        x.send(line);
    }
    x.expect_prefix("move ", Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}
