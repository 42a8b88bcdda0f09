//! The text of every line the engine writes on the protocol channel:
//! `id`, `option`, `uciok`, `readyok`, `info ...`, `info string ...`,
//! `bestmove`, and `go perft`'s counts. Only this file spells them, and
//! `notice` the words of each `info string` message; the session
//! (`crate::session::engine`), the searches (`crate::session::search_job`) and the long
//! commands (`crate::session::background`) pass its lines, or a `Notice`, to
//! `Output`, which writes them.

use crate::board::Board;
use crate::score::Score;
use crate::search::Info;
use crate::search::tunables::tunable::TunableSpec;
use crate::tt::Bound;
use crate::uci::options::{DECLARATIONS, OptionDecl, OptionKind};
use crate::uci::wdl::{material, wdl};
use shakmaty::Position;

/// The answer to `isready`.
pub const READYOK: &str = "readyok";

/// The last line of the answer to `uci`.
pub const UCIOK: &str = "uciok";

/// The `bestmove` of a search in a position without a legal move.
pub const BESTMOVE_NONE: &str = "bestmove (none)";

/// The whole answer to `uci`: the engine's name and author, its options
/// (with `tunables`, a tuning build's search constants), then `uciok`.
pub fn uci_reply(tunables: &[TunableSpec]) -> Vec<String> {
    let mut lines = vec![
        format!("id name Stockman {}", env!("CARGO_PKG_VERSION")),
        "id author the Stockman developers".to_string(),
    ];
    lines.extend(DECLARATIONS.iter().map(option_declaration));
    lines.extend(
        tunables
            .iter()
            .map(|t| spin_option(t.name, t.default, t.min, t.max)),
    );
    lines.push(UCIOK.to_string());
    lines
}

/// The `option name ... type ...` line of a declared option.
pub fn option_declaration(decl: &OptionDecl) -> String {
    let name = decl.name;
    match &decl.kind {
        OptionKind::Spin { default, min, max } => spin_option(name, default, min, max),
        OptionKind::Check { default } => {
            format!("option name {name} type check default {default}")
        }
        OptionKind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::Text { default } => {
            format!("option name {name} type string default {default}")
        }
    }
}

/// The declaration of a spin option.
pub fn spin_option(
    name: &str,
    default: impl std::fmt::Display,
    min: impl std::fmt::Display,
    max: impl std::fmt::Display,
) -> String {
    format!("option name {name} type spin default {default} min {min} max {max}")
}

/// `bestmove best [ponder p]`, the moves already written in UCI notation.
pub fn bestmove(best: &str, ponder: Option<&str>) -> String {
    match ponder {
        Some(p) => format!("bestmove {best} ponder {p}"),
        None => format!("bestmove {best}"),
    }
}

/// The `info` line before `bestmove (none)`: the score of a position
/// without a legal move (mated or stalemate).
pub fn info_no_move(score: Score) -> String {
    format!("info depth 0 score {score}")
}

/// One line of free text for the GUI: `info string` and `part`, its
/// control characters escaped. `part` holds no newline (`Output::info_string`
/// splits a message into its lines).
pub fn info_string(part: &str) -> String {
    format!("info string {}", escape_controls(part))
}

/// One opening position of OpenBench's `genfens`, as OpenBench reads it.
pub fn genfens(fen: &str) -> String {
    info_string(&format!("genfens {fen}"))
}

/// `go perft`'s count below one root move (Stockfish's format).
pub fn perft_move(mv: &str, nodes: u64) -> String {
    format!("{mv}: {nodes}")
}

/// `go perft`'s total, after a blank line (Stockfish's format).
pub fn perft_total(nodes: u64) -> String {
    format!("Nodes searched: {nodes}")
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
/// wins, the mate shown is the PV's. A mate whose PV does not reach it (the
/// walk through the TT stopped early, as in long endgames) is shown only as
/// far as the PV shows it: a decisive `cp` value, as a tablebase win is,
/// without a distance to mate.
fn mate_score_of_pv(info: &Info, pv_ends_in_mate: bool) -> Score {
    let score = info.score;
    if !score.is_mate() {
        return score;
    }
    if !pv_ends_in_mate {
        return if score.0 > 0 {
            Score::TB_WIN
        } else {
            -Score::TB_WIN
        };
    }
    if info.bound != Bound::Exact {
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
    }

    #[test]
    fn bestmove_and_the_fixed_lines() {
        assert_eq!(bestmove("e2e4", None), "bestmove e2e4");
        assert_eq!(bestmove("e2e4", Some("e7e5")), "bestmove e2e4 ponder e7e5");
        assert_eq!(
            info_no_move(Score::mated_in(0)),
            "info depth 0 score mate 0"
        );
        assert_eq!(
            genfens("8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            "info string genfens 8/8/8/8/8/8/8/K1k5 w - - 0 1"
        );
        let reply = uci_reply(&[]);
        assert!(reply[0].starts_with("id name Stockman "));
        assert_eq!(reply[1], "id author the Stockman developers");
        assert_eq!(reply.last().map(String::as_str), Some(UCIOK));
        assert_eq!(reply.len(), DECLARATIONS.len() + 3);
        for (d, line) in DECLARATIONS.iter().zip(&reply[2..]) {
            assert!(line.starts_with(&format!("option name {} type ", d.name)));
        }
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
        // A mate without a PV that reaches it is shown as a decisive cp value.
        let mate = Info {
            score: Score::mate_in(3),
            ..info
        };
        let decisive = format!(" score cp {} wdl 1000 0 0 ", Score::TB_WIN.0);
        assert!(format_info(&mate, &b, true).contains(&decisive));
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
        // A bound whose PV ends in mate keeps the score.
        let lower = Info {
            bound: Bound::Lower,
            ..mate.clone()
        };
        assert!(format_info(&lower, &b, false).contains(" score mate 2 lowerbound "));
        // A PV that does not reach the mate shows no mate distance, for
        // either side.
        let quiet = Info {
            pv: vec![b.parse_uci("d1d7").unwrap()],
            ..mate.clone()
        };
        let won = format!(" score cp {} ", Score::TB_WIN.0);
        assert!(format_info(&quiet, &b, false).contains(&won));
        let mated = Info {
            score: Score::mated_in(4),
            ..quiet
        };
        let lost = format!(" score cp {} ", -Score::TB_WIN.0);
        assert!(format_info(&mated, &b, false).contains(&lost));
        // A PV that mates the side the score says wins keeps the score.
        let other_side = Info {
            pv: mate.pv.clone(),
            ..mated
        };
        assert!(format_info(&other_side, &b, false).contains(" score mate -2 "));
    }
}
