//! The one writer of stdout, shared by every front-end: each line goes through `send`, which
//! writes whole lines under the stdout lock (so a job thread's `info` lines and the loop's
//! `readyok` never interleave mid-line), flushes at once and logs the traffic at debug level.

#[cfg(not(target_arch = "wasm32"))]
use std::io::Write;

/// Writes `text` (one or more lines; a missing final newline is added) to stdout and flushes.
pub fn send(text: &str) {
    for line in text.lines() {
        log::debug!(">> {line}");
    }
    #[cfg(target_arch = "wasm32")]
    crate::host::write(text);
    #[cfg(not(target_arch = "wasm32"))]
    write_stdout(text);
}

/// Writes `text` to stdout under its lock, ending it with a newline.
#[cfg(not(target_arch = "wasm32"))]
fn write_stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout (the host went away) is no reason to panic; the loop ends on EOF.
    let _ = out.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = out.write_all(b"\n");
    }
    let _ = out.flush();
}
