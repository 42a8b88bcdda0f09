//! Everything the engine writes on the protocol channel goes through one
//! `Output`: whole lines, written under a lock and flushed at once. Also the
//! formatting of `info` lines from search reports.

use crate::board::Board;
use crate::score::Score;
use crate::search::Info;
use crate::tt::Bound;
use crate::uci::wdl::{material, wdl};
use shakmaty::Position;
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
    let mut pv = String::new();
    let mut b = board.clone();
    for &m in &info.pv {
        pv.push(' ');
        pv += &b.uci(m);
        b.play(m);
    }
    let score = mate_score_of_pv(info, b.pos().is_checkmate());
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {score}",
        info.depth,
        info.seldepth.max(info.depth as usize),
        info.multipv,
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s += " lowerbound",
        Bound::Upper => s += " upperbound",
    }
    if show_wdl {
        let (w, d, l) = wdl(score, material(board));
        s += &format!(" wdl {w} {d} {l}");
    }
    s += &format!(" nodes {} nps {nps} hashfull {}", info.nodes, info.hashfull);
    if let Some(tbhits) = info.tbhits {
        s += &format!(" tbhits {tbhits}");
    }
    s += &format!(" time {ms}");
    if !pv.is_empty() {
        s += " pv";
        s += &pv;
    }
    s
}

/// The score to show with `info`'s PV. Match runners (fastchess's
/// `-check-mate-pvs`) and GUIs read a mate score and its PV together: a
/// mate in N moves must come with a PV of 2N-1 plies (2N when mated) ending
/// in checkmate. A mate distance carried over from the hash table through
/// another path can be off by a move or two from the PV found; when the PV
/// (an exact line's) does end in checkmate, for the side the score says
/// wins, the mate shown is the PV's.
fn mate_score_of_pv(info: &Info, pv_ends_in_mate: bool) -> Score {
    let score = info.score;
    if info.bound != Bound::Exact || !pv_ends_in_mate || !score.is_mate() {
        return score;
    }
    let plies = info.pv.len();
    // An odd number of plies: the side to move gave the mate.
    match (plies % 2 == 1, score.0 > 0) {
        (true, true) => Score::mate_in(plies),
        (false, false) => Score::mated_in(plies),
        _ => score,
    }
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

    #[test]
    fn a_mate_score_shows_the_mate_its_pv_ends_in() {
        // White mates in one (Rd8#); a PV of one ply is mate 1, whatever
        // distance the score carried.
        let b = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mate = Info {
            depth: 4,
            seldepth: 4,
            multipv: 1,
            score: Score::mate_in(3),
            bound: Bound::Exact,
            nodes: 100,
            time: Duration::from_millis(1),
            hashfull: 0,
            tbhits: None,
            pv: vec![b.parse_uci("d1d8").unwrap()],
        };
        assert!(format_info(&mate, &b, false).contains(" score mate 1 "));
        // A bound, a PV that does not end in mate, or one that mates the
        // other side, keeps the score.
        let lower = Info {
            bound: Bound::Lower,
            ..mate.clone()
        };
        assert!(format_info(&lower, &b, false).contains(" score mate 2 lowerbound "));
        let quiet = Info {
            pv: vec![b.parse_uci("d1d7").unwrap()],
            ..mate.clone()
        };
        assert!(format_info(&quiet, &b, false).contains(" score mate 2 "));
        let mated = Info {
            score: Score::mated_in(4),
            ..mate
        };
        assert!(format_info(&mated, &b, false).contains(" score mate -2 "));
    }
}
