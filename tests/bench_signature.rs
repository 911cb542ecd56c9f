//! The `bench` node count is the engine's signature: a commit that changes the search
//! changes it and must say so (`Bench: <nodes>` in its message, and the constant below).
//! This test catches a search change that slipped in unannounced, and a bench that is not
//! deterministic from run to run.

use std::process::Command;

/// The node count of `sitke bench` at the default depth on one thread.
const EXPECTED_NODES: u64 = 1328860;

/// The node count of a plain `sitke bench` (the signature).
fn bench_nodes() -> u64 {
    bench_nodes_with(&[]).unwrap_or_else(|e| panic!("sitke bench: {e}"))
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

/// The node count `sitke bench ARGS` prints, or its exit status and output when it fails.
fn bench_nodes_with(args: &[&str]) -> Result<u64, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_sitke")).arg("bench").args(args).output().expect("run sitke bench");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("status {:?}: {text}", out.status.code()));
    }
    let line = text.lines().find(|l| l.starts_with("Nodes searched")).ok_or(text.clone())?;
    line.rsplit(':').next().and_then(|n| n.trim().parse().ok()).ok_or(text)
}

#[test]
fn bench_evaluates_with_the_net_it_is_given() {
    let nets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let built_in = nets.join(format!("{}.nnue", sitke::eval::nnue::embedded::NAME));
    // Another valid net, written here: the built-in net with its hidden weights halved,
    // saved with its own header and checksum. Another net searches a different tree.
    let mut weights = sitke::eval::nnue::embedded::network().weights().clone();
    for w in &mut weights.hidden_weights {
        *w /= 2;
    }
    let other = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-other-net.nnue");
    std::fs::write(&other, weights.to_bytes()).unwrap();
    assert!(sitke::eval::nnue::Network::from_file(&other).is_ok(), "the written net must load");
    let depth = "7";
    let plain = bench_nodes_with(&[depth]).unwrap();
    let same = bench_nodes_with(&[depth, "--eval-file", built_in.to_str().unwrap()]).unwrap();
    assert_eq!(same, plain, "the built-in net's own file must search the same tree");
    let changed = bench_nodes_with(&[depth, "--eval-file", other.to_str().unwrap()]).unwrap();
    assert_ne!(changed, plain, "{} searched the built-in net's tree", other.display());
    let missing = bench_nodes_with(&[depth, "--eval-file", "/nonexistent/net.nnue"]).unwrap_err();
    assert!(missing.starts_with("status Some(2)") && missing.contains("--eval-file"), "{missing}");
    assert!(bench_nodes_with(&[depth, "--eval-file", built_in.to_str().unwrap(), "--classical"]).is_err());
}
