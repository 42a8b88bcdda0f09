//! Everything the engine writes on the protocol channel goes through one
//! `Output`: whole lines, written under a lock and flushed at once. Also the
//! formatting of `info` lines from search reports.

use crate::board::Board;
use crate::score::Score;
use crate::search::Info;
use crate::tt::Bound;
use crate::uci::wdl::{material, wdl};
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

    pub fn info_string(&self, message: &str) {
        // One line per message: a newline inside would break the protocol.
        for part in message.lines() {
            self.line(&format!("info string {}", escape_controls(part)));
        }
    }
}

/// `text` with control characters (ESC, NUL, BEL, a lone CR, tabs...)
/// written as `\xNN` or `\u{NNNN}`: messages quote input, and raw control
/// bytes would drive the GUI's terminal or break its line parser.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if c.is_ascii_control() => out += &format!("\\x{:02x}", c as u32),
            c if c.is_control() => out += &format!("\\u{{{:04x}}}", c as u32),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The `info` line for one finished line of an iteration.
pub fn format_info(info: &Info, board: &Board, show_wdl: bool) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth.max(info.depth as usize),
        info.multipv,
        info.score
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s += " lowerbound",
        Bound::Upper => s += " upperbound",
    }
    if show_wdl {
        let (w, d, l) = wdl(info.score, material(board));
        s += &format!(" wdl {w} {d} {l}");
    }
    s += &format!(" nodes {} nps {nps} hashfull {}", info.nodes, info.hashfull);
    if let Some(tbhits) = info.tbhits {
        s += &format!(" tbhits {tbhits}");
    }
    s += &format!(" time {ms}");
    if !info.pv.is_empty() {
        s += " pv";
        let mut b = board.clone();
        for &m in &info.pv {
            s.push(' ');
            s += &b.uci(m);
            b.play(m);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn info_line_has_single_spaces_and_integers() {
        let b = Board::default();
        let pv = vec![b.parse_uci("e2e4").unwrap()];
        let info = Info {
            depth: 3,
            seldepth: 7,
            multipv: 1,
            score: Score(31),
            bound: Bound::Exact,
            nodes: 12_345,
            time: Duration::from_millis(20),
            hashfull: 5,
            tbhits: None,
            pv,
        };
        let s = format_info(&info, &b, false);
        assert_eq!(
            s,
            "info depth 3 seldepth 7 multipv 1 score cp 31 nodes 12345 nps 617250 hashfull 5 time 20 pv e2e4"
        );
        assert!(!s.contains("  "));
        let s = format_info(&info, &b, true);
        assert!(s.contains(" wdl "));
        let lower = Info {
            bound: Bound::Lower,
            ..info
        };
        assert!(format_info(&lower, &b, false).contains(" score cp 31 lowerbound nodes "));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("plain text"), "plain text");
        assert_eq!(
            escape_controls("a\u{1b}[31mb\0c\u{7}d\re\tf\u{7f}g\u{85}h"),
            "a\\x1b[31mb\\x00c\\x07d\\x0de\\x09f\\x7fg\\u{0085}h"
        );
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

    #[test]
    fn wdl_follows_the_score_and_the_material() {
        let b = Board::default();
        let info = Info {
            depth: 3,
            seldepth: 3,
            multipv: 1,
            score: Score(40),
            bound: Bound::Exact,
            nodes: 100,
            time: Duration::from_millis(1),
            hashfull: 0,
            tbhits: None,
            pv: vec![],
        };
        let (w, d, l) = wdl(Score(40), 78);
        assert!(format_info(&info, &b, true).contains(&format!(" wdl {w} {d} {l} nodes ")));
        let mate = Info {
            score: Score::mate_in(3),
            ..info
        };
        assert!(format_info(&mate, &b, true).contains(" score mate 2 wdl 1000 0 0 "));
    }
}
