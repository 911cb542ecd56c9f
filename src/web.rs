//! The WebAssembly build's entry points, called by the JS loader in `web/` (the binary's
//! counterpart is `cli`). The interface is a handful of plain functions rather than a
//! bindings generator: the loader writes a line's UTF-8 bytes into a buffer the engine
//! lends it (`sitke_input`), then calls `sitke_line`; everything the engine says goes out
//! through the host's `sitke_host_write` (see `host`).

use crate::protocol::session::Session;
use std::cell::RefCell;

thread_local! {
    /// The session, started by the first line.
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// Where the loader puts the next line's bytes.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Starts the session and writes the banner line (`Sitke 0.1.0 by the Sitke developers`),
/// as Fairy-Stockfish's wasm build does when it loads: some web GUIs wait for a first line
/// before they send `uci`. A line sent without this call starts the session silently.
#[unsafe(no_mangle)]
pub extern "C" fn sitke_start() {
    SESSION.with_borrow_mut(|session| {
        session.get_or_insert_with(crate::protocol::session);
    });
    crate::protocol::wire::send(&format!(
        "{} by {}",
        crate::protocol::core::ENGINE_NAME,
        crate::protocol::core::ENGINE_AUTHOR
    ));
}

/// A buffer of `len` bytes for the next line, valid until the next call into the engine.
#[unsafe(no_mangle)]
pub extern "C" fn sitke_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|buf| {
        buf.resize(len, 0);
        buf.as_mut_ptr()
    })
}

/// Handles the `len` bytes the loader wrote into `sitke_input`'s buffer as one line; returns
/// 1 while the session goes on and 0 once it has ended (`quit`).
#[unsafe(no_mangle)]
pub extern "C" fn sitke_line(len: usize) -> u32 {
    let text = INPUT.with_borrow(|buf| String::from_utf8_lossy(&buf[..len.min(buf.len())]).into_owned());
    SESSION.with_borrow_mut(|session| session.get_or_insert_with(crate::protocol::session).line(&text)) as u32
}
