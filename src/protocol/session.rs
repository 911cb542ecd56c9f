//! The protocol loop turned inside out, for hosts that hand the engine one line at a time
//! instead of a stdin to read: the WebAssembly build, where a page or a node script posts
//! each line and the engine has no thread to block on input. The core, the front-ends and
//! what every command does are the same as under `core::run`; only the reading differs.
//!
//! Jobs report their end (CECP's moves) through the core's channel as `core::run` expects;
//! the session delivers those events after each line, so where jobs run to their end
//! before `Engine` returns (wasm) every event is out before the next line is taken.

use super::core::{Core, Ending, Event, Flow, Frontend, MAX_LINE, Protocol};
use std::sync::mpsc::{Receiver, channel};

/// A protocol session fed line by line.
pub struct Session {
    frontend: Box<dyn Frontend>,
    core: Core,
    events: Receiver<Event>,
    make: fn(Protocol) -> Box<dyn Frontend>,
    over: bool,
}

impl Session {
    /// A session speaking `first` until the host switches; `make` builds each front-end.
    pub fn new(first: Protocol, make: fn(Protocol) -> Box<dyn Frontend>) -> Session {
        let (tx, rx) = channel();
        let mut frontend = make(first);
        let mut core = Core::new(tx, frontend.report());
        frontend.start(&mut core);
        Session { frontend, core, events: rx, make, over: false }
    }

    /// Handles one line from the host (CRLF and surrounding blanks allowed); returns false
    /// once the session has ended (`quit`), after which lines are ignored.
    pub fn line(&mut self, text: &str) -> bool {
        if self.over {
            return false;
        }
        let flow = if text.len() > MAX_LINE {
            self.frontend.too_long(&mut self.core);
            Flow::Continue
        } else {
            log::debug!("<< {}", text.trim_end());
            self.frontend.command(&mut self.core, text)
        };
        self.follow(flow);
        while !self.over
            && let Ok(event) = self.events.try_recv()
        {
            let flow = match event {
                Event::Done(end) => self.frontend.search_done(&mut self.core, end),
                // Only `core::run`'s reader sends lines and the end of input.
                Event::Line(_) | Event::Eof => Flow::Continue,
            };
            self.follow(flow);
        }
        !self.over
    }

    fn follow(&mut self, flow: Flow) {
        match flow {
            Flow::Continue => {}
            Flow::Quit => self.end(Ending::Quit),
            Flow::EndOfInput => self.end(Ending::EndOfInput),
            Flow::Switch(protocol) => {
                self.frontend.close(&mut self.core, Ending::Switch);
                self.frontend = (self.make)(protocol);
                self.core.engine.set_report(self.frontend.report());
                self.frontend.start(&mut self.core);
            }
        }
    }

    fn end(&mut self, ending: Ending) {
        self.frontend.close(&mut self.core, ending);
        self.over = true;
    }
}
