//! Reading the host's input one line at a time without trusting its length.
//!
//! `BufRead::read_until` keeps everything up to the newline, so a host that sends gigabytes
//! without one would make the engine hold all of them. `LineReader` keeps at most `max`
//! bytes of a line: once a line passes the limit it reports `TooLong` at once (so the host
//! hears about it even if the line never ends) and throws the rest of that line away as it
//! arrives, chunk by chunk.

use std::io::{self, BufRead};

/// What the next read found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its newline; bytes that are not UTF-8 become U+FFFD.
    Text(String),
    /// A line longer than the limit; its rest is skipped by the next read.
    TooLong,
}

/// Splits a byte stream into lines of at most `max` bytes.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    max: usize,
    /// Inside a line already reported as too long: drop bytes up to its newline.
    skipping: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of lines of at most `max` bytes (the newline not counted).
    pub fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader { inner, buf: Vec::new(), max, skipping: false }
    }

    /// The memory the line buffer holds: never more than the limit.
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// The next line, or `None` at the end of input (or when the input fails). A last line
    /// without a newline still counts.
    pub fn next_line(&mut self) -> Option<Line> {
        if self.skipping && !self.skip_rest() {
            return None;
        }
        self.buf.clear();
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            if chunk.is_empty() {
                if self.buf.is_empty() {
                    return None;
                }
                return Some(Line::Text(String::from_utf8_lossy(&self.buf).into_owned()));
            }
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            if self.buf.len() + take > self.max {
                self.inner.consume(take + end as usize);
                self.skipping = !end;
                self.buf.clear();
                return Some(Line::TooLong);
            }
            let needed = self.buf.len() + take;
            if needed > self.buf.capacity() {
                // Grow by doubling as Vec would, but never past the limit.
                let target = needed.max(2 * self.buf.capacity()).min(self.max);
                self.buf.reserve_exact(target - self.buf.len());
            }
            self.buf.extend_from_slice(&chunk[..take]);
            self.inner.consume(take + end as usize);
            if end {
                return Some(Line::Text(String::from_utf8_lossy(&self.buf).into_owned()));
            }
        }
    }

    /// Drops input up to and including the next newline; false at the end of input.
    fn skip_rest(&mut self) -> bool {
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return false,
            };
            if chunk.is_empty() {
                return false;
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    self.inner.consume(i + 1);
                    self.skipping = false;
                    return true;
                }
                None => {
                    let n = chunk.len();
                    self.inner.consume(n);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut r = LineReader::new(BufReader::with_capacity(7, input), max);
        std::iter::from_fn(|| r.next_line()).collect()
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn splits_lines_across_chunks() {
        assert_eq!(
            lines(b"uci\nisready\r\n\nposition startpos moves K@e2", 100),
            [text("uci"), text("isready\r"), text(""), text("position startpos moves K@e2")]
        );
        assert_eq!(lines(b"", 100), []);
        assert_eq!(lines(b"\xffgo\n", 100), [text("\u{fffd}go")]);
    }

    #[test]
    fn a_long_line_is_reported_and_skipped() {
        // Exactly the limit is fine; one byte more is not, wherever the chunks fall.
        let mut input = b"abcdefghij\n".to_vec();
        input.extend_from_slice(&[b'x'; 11]);
        input.extend_from_slice(b"\nafter\n");
        input.extend_from_slice(&[b'y'; 40]);
        assert_eq!(lines(&input, 10), [text("abcdefghij"), Line::TooLong, text("after"), Line::TooLong]);
    }

    #[test]
    fn an_endless_line_never_grows_the_buffer() {
        const MAX: usize = 1 << 16;
        // Endless: the answer must come while the line is still going on.
        let mut r = LineReader::new(BufReader::new(io::repeat(b'x')), MAX);
        assert_eq!(r.next_line(), Some(Line::TooLong));
        assert!(r.capacity() <= MAX, "{}", r.capacity());
        // A line of 64 times the limit, then a command: the command still arrives, and the
        // buffer never held more than the limit (its capacity never shrinks, so the end
        // shows the peak).
        let long = io::repeat(b'x').take(64 * MAX as u64).chain(&b"\nisready\n"[..]);
        let mut r = LineReader::new(BufReader::new(long), MAX);
        assert_eq!(r.next_line(), Some(Line::TooLong));
        assert!(r.capacity() <= MAX);
        assert_eq!(r.next_line(), Some(text("isready")));
        assert_eq!(r.next_line(), None);
        // Lines just under the limit need the whole buffer, and no more.
        let near = [vec![b'z'; MAX - 1], b"\n".to_vec(), vec![b'z'; MAX], b"\n".to_vec()].concat();
        let mut r = LineReader::new(BufReader::new(&near[..]), MAX);
        assert!(matches!(r.next_line(), Some(Line::Text(t)) if t.len() == MAX - 1));
        assert!(matches!(r.next_line(), Some(Line::Text(t)) if t.len() == MAX));
        assert!(r.capacity() <= MAX, "{}", r.capacity());
    }
}
