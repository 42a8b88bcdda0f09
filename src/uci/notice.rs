//! The wording of every `info string` message the engine writes: one
//! `Notice` per message, carrying its data. The session, the searches and
//! the long commands only choose which notice to send (`Output::notice`).

use crate::score::Score;
use crate::search::Algorithm;
use crate::uci::options::Options;
use shakmaty::{Bitboard, Chess, Color, File, Position, Rank, Square};
use std::fmt;

/// One `info string` message. Error texts made elsewhere (a FEN the board
/// refused, a file that could not be read) come in as `&str` and are
/// written as they are, inside the words the notice adds.
#[derive(Clone, Copy, Debug)]
pub enum Notice<'a> {
    /// Text spelled where it was made, written as it is: an input line or
    /// an option value refused by `uci::command`/`uci::options`, a `go`
    /// warning, the tablebase and book reports of `known`, a line of
    /// `bench`, a search helper's failure.
    Relayed(&'a str),

    // The session (`crate::session::engine`).
    /// `ponderhit` with no pondering search.
    PonderhitIgnored,
    /// `d`: the board as Stockfish draws it, rank 8 first, files a to h
    /// under it (an empty square is a dot: a line has single blanks only).
    Diagram { pos: &'a Chess },
    /// `d`: whose move it is.
    SideToMove { side: Color },
    /// `d`: the position's FEN.
    Fen { fen: &'a str },
    /// `d`: the position's Zobrist key.
    Key { key: u64 },
    /// `d`: the squares of the pieces giving check (none: nothing after the word).
    Checkers { checkers: Bitboard },
    /// `eval`: the one the search would use first, then both.
    StaticEvaluation {
        used: Score,
        network: Score,
        classical: Score,
    },
    /// `EvalFile` set to the built-in network.
    EvalFileBuiltIn,
    /// `EvalFile` read.
    EvalFileRead { file: &'a str },
    /// `EvalFile` could not be read: the option keeps `previous`.
    EvalFileNotChanged { error: &'a str, previous: &'a str },
    /// `Clear Hash` during a search.
    ClearHashIgnored,
    /// After a `setoption` with `debug on`.
    OptionsNow { options: &'a Options },
    /// The `Hash` size asked for could not be had.
    HashFallback { error: &'a str, mb: usize },
    /// A `position` whose FEN was refused.
    PositionUnchanged { error: &'a str },
    /// A `position` move list with an illegal move after `applied` moves.
    MoveRefused { error: &'a str, applied: usize },
    /// `go depth` below 1.
    DepthBelowOne { depth: i64 },
    /// A `searchmoves` move that is not legal here.
    SearchmoveIgnored { error: &'a str },
    /// `go` while a search runs.
    GoIgnored,
    /// A long command (`perft`, `bench`) stopped for a `go`.
    StoppedForGo { what: &'a str },
    /// The algorithm of the search starting.
    Algorithm { algorithm: Algorithm },
    /// `OwnBook`'s move, played without a search.
    BookMove { mv: &'a str, weight: u16 },
    /// A long command refused while `other` runs.
    Busy { what: &'a str, other: &'a str },
    /// `go perft` with a depth outside `1..=max`.
    PerftDepthOutside { depth: u32, max: u32 },
    /// A `genfens` request that could not be served.
    GenfensError { error: &'a str },
    /// `bench` with a depth outside `1..=max`.
    BenchDepthOutside { depth: i64, max: i64 },

    // The long commands (`crate::session::background`) and the searches
    // (`crate::session::search_job`).
    /// A worker thread (`perft`, `bench`, `search`) the system would not start.
    ThreadNotStarted { what: &'a str, error: &'a str },
    /// `go perft` stopped before its count was done.
    PerftStopped,
    /// `go perft`'s time and speed, after its total.
    PerftTime { ms: u128, nps: u128 },
    /// `bench` could not run.
    BenchFailed { error: &'a str },
    /// A long command's thread panicked.
    InternalError { what: &'a str },
    /// The main search thread panicked: the best move found so far is played.
    SearchPanicked { message: &'a str },
}

impl fmt::Display for Notice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Notice::Relayed(text) => f.write_str(text),
            Notice::PonderhitIgnored => f.write_str("ponderhit ignored: not pondering"),
            Notice::Diagram { pos } => diagram(f, pos),
            Notice::SideToMove { side } => {
                write!(f, "side to move {}", side.fold_wb("white", "black"))
            }
            Notice::Fen { fen } => write!(f, "fen {fen}"),
            Notice::Key { key } => write!(f, "key {key:016x}"),
            Notice::Checkers { checkers } => {
                f.write_str("checkers")?;
                checkers.into_iter().try_for_each(|sq| write!(f, " {sq}"))
            }
            Notice::StaticEvaluation {
                used,
                network,
                classical,
            } => write!(
                f,
                "static evaluation {used} (side to move; network {network}, classical {classical})"
            ),
            Notice::EvalFileBuiltIn => f.write_str("EvalFile: the built-in network"),
            Notice::EvalFileRead { file } => write!(f, "EvalFile: network read from {file}"),
            Notice::EvalFileNotChanged { error, previous } => {
                write!(f, "EvalFile not changed ({error}); still {previous}")
            }
            Notice::ClearHashIgnored => f.write_str("Clear Hash ignored while searching"),
            Notice::OptionsNow { options } => write!(f, "options now {options:?}"),
            Notice::HashFallback { error, mb } => write!(f, "{error}; using {mb} MB"),
            Notice::PositionUnchanged { error } => write!(f, "{error}; position unchanged"),
            Notice::MoveRefused { error, applied } => write!(
                f,
                "{error} at move {} of the list; using the position before it ({applied} moves applied)",
                applied + 1
            ),
            Notice::DepthBelowOne { depth } => {
                write!(f, "depth {depth} is below 1; searching depth 1")
            }
            Notice::SearchmoveIgnored { error } => write!(f, "searchmoves: {error}; ignored"),
            Notice::GoIgnored => {
                f.write_str("go ignored: a search is already running (send stop first)")
            }
            Notice::StoppedForGo { what } => write!(f, "{what} stopped: a search was asked for"),
            Notice::Algorithm { algorithm } => write!(f, "algorithm {algorithm}"),
            Notice::BookMove { mv, weight } => write!(f, "book move {mv} (weight {weight})"),
            Notice::Busy { what, other } => {
                write!(f, "{what} ignored: {other} is running (send stop first)")
            }
            Notice::PerftDepthOutside { depth, max } => {
                write!(f, "perft: depth {depth} is outside 1..={max}")
            }
            Notice::GenfensError { error } => write!(f, "bad genfens request: {error}"),
            Notice::BenchDepthOutside { depth, max } => {
                write!(f, "bench: depth {depth} is outside 1..={max}")
            }
            Notice::ThreadNotStarted { what, error } => {
                write!(f, "cannot start the {what} thread: {error}")
            }
            Notice::PerftStopped => f.write_str("perft stopped"),
            Notice::PerftTime { ms, nps } => write!(f, "Time: {ms} ms, {nps} nps"),
            Notice::BenchFailed { error } => write!(f, "bench: {error}"),
            Notice::InternalError { what } => write!(f, "internal error in {what}"),
            Notice::SearchPanicked { message } => write!(
                f,
                "internal error in the search ({message}); playing the best move found so far"
            ),
        }
    }
}

/// The grid line between two ranks.
const RANK_BORDER: &str = "+---+---+---+---+---+---+---+---+";

/// The board of `d`, one line per rank and border (split into `info
/// string` lines by `Output::notice`). The last border carries the file
/// letters, each under its file: a line of its own would need runs of
/// blanks to line them up.
fn diagram(f: &mut fmt::Formatter<'_>, pos: &Chess) -> fmt::Result {
    let board = pos.board();
    writeln!(f, "{RANK_BORDER}")?;
    for rank in Rank::ALL.into_iter().rev() {
        for file in File::ALL {
            let piece = board.piece_at(Square::from_coords(file, rank));
            write!(f, "| {} ", piece.map_or('.', |p| p.char()))?;
        }
        writeln!(f, "| {}", rank.char())?;
        if rank != Rank::First {
            writeln!(f, "{RANK_BORDER}")?;
        }
    }
    File::ALL
        .into_iter()
        .try_for_each(|file| write!(f, "+-{}-", file.char()))?;
    f.write_str("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_read_as_before() {
        let cases = [
            (
                Notice::DepthBelowOne { depth: -3 },
                "depth -3 is below 1; searching depth 1",
            ),
            (Notice::Key { key: 0xabc }, "key 0000000000000abc"),
            (
                Notice::MoveRefused {
                    error: "illegal move e2e5",
                    applied: 2,
                },
                "illegal move e2e5 at move 3 of the list; using the position before it (2 moves applied)",
            ),
            (
                Notice::EvalFileNotChanged {
                    error: "no such file",
                    previous: "<built-in>",
                },
                "EvalFile not changed (no such file); still <built-in>",
            ),
            (
                Notice::Busy {
                    what: "bench",
                    other: "a search",
                },
                "bench ignored: a search is running (send stop first)",
            ),
            (
                Notice::ThreadNotStarted {
                    what: "search",
                    error: "out of threads",
                },
                "cannot start the search thread: out of threads",
            ),
            (
                Notice::Algorithm {
                    algorithm: Algorithm::MTDf,
                },
                "algorithm MTDf",
            ),
            (
                Notice::BenchDepthOutside { depth: 0, max: 56 },
                "bench: depth 0 is outside 1..=56",
            ),
            (Notice::Relayed("as it is"), "as it is"),
        ];
        for (notice, text) in cases {
            assert_eq!(notice.to_string(), text);
        }
    }

    #[test]
    fn the_diagram_draws_rank_8_first_and_letters_the_files() {
        let pos: Chess = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let text = Notice::Diagram { pos: &pos }.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], RANK_BORDER);
        assert_eq!(lines[1], "| . | . | . | . | k | . | . | . | 8");
        assert_eq!(lines[15], "| R | . | . | . | K | . | . | . | 1");
        assert_eq!(lines[16], "+-a-+-b-+-c-+-d-+-e-+-f-+-g-+-h-+");
        let checkers = Bitboard::from(Square::E1) | Bitboard::from(Square::H4);
        assert_eq!(Notice::Checkers { checkers }.to_string(), "checkers e1 h4");
        let none = Bitboard::EMPTY;
        assert_eq!(Notice::Checkers { checkers: none }.to_string(), "checkers");
        let side = Color::Black;
        assert_eq!(
            Notice::SideToMove { side }.to_string(),
            "side to move black"
        );
    }
}
