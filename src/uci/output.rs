//! The protocol channel: everything the engine writes goes through one
//! `Output`, whole lines written under a lock and flushed at once. The
//! lines' text comes from `protocol`, and `info string` messages' from
//! `notice`.

use crate::uci::notice::Notice;
use crate::uci::protocol;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line and flushes. A closed channel is not an error worth
    /// dying for: the engine will see end of input next.
    pub fn line(&self, text: &str) {
        log::trace!("> {text}");
        if let Ok(mut w) = self.sink.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }

    /// Writes `message` as `info string` lines, one per line of it.
    pub fn info_string(&self, message: &str) {
        // One line per message: a newline inside would break the protocol.
        for part in message.lines() {
            self.line(&protocol::info_string(part));
        }
    }

    /// Writes `notice` as `info string` lines.
    pub fn notice(&self, notice: Notice) {
        self.info_string(&notice.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_strings_are_split_into_lines_and_escaped() {
        let sink = std::sync::Arc::new(Mutex::new(Vec::new()));
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out = Output::new(Box::new(Shared(sink.clone())));
        out.info_string("unknown command 'x\u{1b}y'\nsecond\u{0}");
        let text = String::from_utf8(sink.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "info string unknown command 'x\\x1by'\ninfo string second\\x00\n"
        );
    }
}
