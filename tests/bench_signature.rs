//! The `bench` node count is the engine's signature: a commit that changes the search
//! changes it and must say so (`Bench: <nodes>` in its message, and the constant below).
//! This test catches a search change that slipped in unannounced, and a bench that is not
//! deterministic from run to run.

use std::process::Command;

/// The node count of `sitke bench` at the default depth on one thread.
const EXPECTED_NODES: u64 = 1316049;

fn bench_nodes() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_sitke")).arg("bench").output().expect("run sitke bench");
    assert!(out.status.success(), "sitke bench failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let line = text
        .lines()
        .find(|l| l.starts_with("Nodes searched"))
        .unwrap_or_else(|| panic!("no `Nodes searched` line in:\n{text}"));
    line.rsplit(':').next().and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("unreadable line: {line}"))
}

#[test]
fn bench_signature_is_the_committed_one_and_repeats() {
    let first = bench_nodes();
    assert_eq!(
        first, EXPECTED_NODES,
        "bench signature changed: update EXPECTED_NODES and end the commit message with `Bench: {first}`"
    );
    assert_eq!(bench_nodes(), first, "bench is not deterministic");
}
