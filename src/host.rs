//! What the platform gives the engine. Natively that is the OS: `Instant` is std's. On
//! `wasm32-unknown-unknown` there is no OS clock (`std::time::Instant::now` panics there), no
//! stdout and no second thread, so the page or node script that loads the engine provides
//! them as imported functions: a clock in milliseconds, a way out for protocol lines, and
//! the signals (`stop`, `ponderhit`) that arrive while a search runs on the only thread.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use wasm::{Instant, interrupted, memory_left_mb, pause, ponderhit_arrived, write};

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::time::Duration;

    /// Bit of `sitke_host_signals`: a `stop` (or `quit`) was posted after the current line.
    const SIGNAL_STOP: u32 = 1;
    /// Bit of `sitke_host_signals`: a `ponderhit` was posted after the current line.
    const SIGNAL_PONDERHIT: u32 = 2;

    #[link(wasm_import_module = "sitke")]
    unsafe extern "C" {
        /// Milliseconds on a clock that never goes back (`performance.now()`).
        fn sitke_host_now() -> f64;
        /// One or more protocol lines (UTF-8, `len` bytes at `ptr`) for the host.
        fn sitke_host_write(ptr: *const u8, len: usize);
        /// The `SIGNAL_*` bits of lines posted after the one being handled.
        fn sitke_host_signals() -> u32;
        /// Blocks up to `ms` milliseconds or until a signal arrives.
        fn sitke_host_pause(ms: f64);
    }

    /// A point on the host's clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// The host clock's origin (the page's or process's start).
        pub const ZERO: Instant = Instant(0.0);

        /// Now, on the host's clock.
        pub fn now() -> Instant {
            // SAFETY: the import takes no arguments and only reads the host's clock.
            Instant(unsafe { sitke_host_now() })
        }

        /// Time from `earlier` to this instant (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        /// Time since this instant.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    /// The memory every browser lets a wasm32 module grow to, in MiB: the format allows 4 GiB,
    /// but some browsers and phones stop at 2 GiB.
    const MEMORY_MB: u64 = 2048;

    /// What is left of `MEMORY_MB` for new allocations, in MiB.
    pub fn memory_left_mb() -> u64 {
        let used = core::arch::wasm32::memory_size(0) as u64 * 65536 / (1 << 20);
        MEMORY_MB.saturating_sub(used)
    }

    /// Hands `text` to the host.
    pub fn write(text: &str) {
        // SAFETY: the host copies `len` bytes from `ptr`, which `text` keeps alive and valid
        // for the call, and keeps no pointer after it returns.
        unsafe { sitke_host_write(text.as_ptr(), text.len()) }
    }

    /// Whether the host holds a `stop` (or `quit`) sent after the line being handled.
    pub fn interrupted() -> bool {
        // SAFETY: the import takes no arguments and only reads the host's flags.
        unsafe { sitke_host_signals() & SIGNAL_STOP != 0 }
    }

    /// Whether the host holds a `ponderhit` sent after the line being handled.
    pub fn ponderhit_arrived() -> bool {
        // SAFETY: as in `interrupted`.
        unsafe { sitke_host_signals() & SIGNAL_PONDERHIT != 0 }
    }

    /// Waits up to `d` or until a signal arrives, without burning the CPU where the host can
    /// block (a worker with a SharedArrayBuffer).
    pub fn pause(d: Duration) {
        // SAFETY: the import takes a number and returns nothing.
        unsafe { sitke_host_pause(d.as_secs_f64() * 1000.0) }
    }
}
