//! Drives an engine process over its stdin/stdout for the protocol tests: a reader thread
//! collects output lines, and the test waits for the line it expects with a timeout, so a
//! hung engine fails the test instead of hanging it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The engine binary under test.
pub const SITKE: &str = env!("CARGO_BIN_EXE_sitke");
#[path = "../oracle/mod.rs"]
pub mod oracle;

/// Debian's Fairy-Stockfish, the reference.
pub const FAIRY: &str = oracle::FSF;

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, in order.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts `path` with `args`.
    pub fn start(path: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                if tx.send(String::from_utf8_lossy(&line).trim_end_matches('\r').to_string()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx, log: Vec::new() }
    }

    /// Starts Sitke.
    pub fn sitke() -> Engine {
        Engine::start(SITKE, &[])
    }

    /// Starts Fairy-Stockfish set to Sittuyin, in UCI or USI mode.
    pub fn fairy(usi: bool) -> Engine {
        let mut e = Engine::start(FAIRY, &[]);
        e.send(if usi { "usi" } else { "uci" });
        e.expect(if usi { "usiok" } else { "uciok" });
        e.send("setoption name UCI_Variant value sittuyin");
        e.sync();
        e
    }

    /// Writes one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Writes raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine accepts input");
        stdin.flush().expect("flush");
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or None after `timeout` (or at the end of output).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads until a line satisfies `done`; returns every line read, that one included.
    pub fn read_until(&mut self, timeout: Duration, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                None => panic!("timed out after {timeout:?}; read so far: {out:#?}"),
            }
        }
    }

    /// Reads until a line equal to `line` (10 s at most); returns the lines before and it.
    pub fn expect(&mut self, line: &str) -> Vec<String> {
        self.read_until(Duration::from_secs(10), |l| l == line)
    }

    /// Reads until a line starting with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.read_until(timeout, |l| l.starts_with(prefix))
    }

    /// `isready`, then everything up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.expect("readyok");
        lines.pop();
        lines
    }

    /// Sends a `go ...` and returns all lines up to and including `bestmove`.
    pub fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.expect_prefix("bestmove", Duration::from_secs(30))
    }

    /// Every line that arrives within `wait` (waits the whole time).
    pub fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut out = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            out.push(l);
        }
        out
    }

    /// Asserts that no `bestmove` arrives within `wait`.
    pub fn no_bestmove_within(&mut self, wait: Duration) {
        let lines = self.lines_within(wait);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "early bestmove: {lines:?}");
    }

    /// Waits for the process to exit, at most `timeout`; returns whether it did.
    pub fn exited_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if !self.exited_within(Duration::from_millis(500)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line (the second word).
pub fn bestmove(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or_default().to_string()
}

/// The value after `key` in an `info` line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1).copied())
}

/// The `info depth` lines of a search's output.
pub fn infos(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info depth")).collect()
}
