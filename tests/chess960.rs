//! Chess960 and double Fischer random (DFRC) at full strength: the start
//! positions against python-chess's; every back end in self-play from DFRC
//! starts (each move and PV checked on an independent shakmaty board) and,
//! in Pure mode, against the oracle on Chess960 positions sharing one TT;
//! and through the binary the castling notation of `UCI_Chess960` both ways,
//! `position ... moves` with either spelling, games whose castling the
//! engine must read back, and the book in Chess960 mode.

mod common;

use common::engine_process::{EngineProcess, TIMEOUT, bestmove_of};
use common::search_check::{Game, engine, engine_fen, go};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use std::sync::Arc;
use stockman::chess960::{CASTLING_POSITIONS, POSITIONS, STANDARD, chess960_fen, dfrc_fen};
use stockman::rng::SplitMix64;
use stockman::search::{
    Algorithm, Limits, ReusableSearch, SearchMode, SearchParams, oracle, search,
};
use stockman::tt::TranspositionTable;
use stockman::{Board, Score, SearchResult};

const C960: CastlingMode = CastlingMode::Chess960;

/// A Chess960 position read by shakmaty alone, not through the engine.
fn independent(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("test FEN")
        .into_position(C960)
        .expect("legal test position")
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The legal move `text` (king-takes-rook castling) stands for in `pos`,
/// checked by shakmaty and written back the same way; fails the test if not.
fn legal_move(pos: &Chess, text: &str, what: &str) -> Move {
    let uci: UciMove = text
        .parse()
        .unwrap_or_else(|_| panic!("{what}: '{text}' is no UCI move"));
    let m = uci
        .to_move(pos)
        .unwrap_or_else(|_| panic!("{what}: '{text}' is illegal in {}", fen_of(pos)));
    assert_eq!(UciMove::from_move(m, C960).to_string(), text, "{what}");
    m
}

/// `count` DFRC starts chosen by `seed`, each side's back rank drawn alone.
fn dfrc_starts(count: usize, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let mut draw = || (rng.next_u64() % u64::from(POSITIONS)) as u16;
    (0..count)
        .map(|_| dfrc_fen(draw(), draw()).unwrap())
        .collect()
}

#[test]
fn the_960_start_positions_agree_with_python_chess() {
    let lines = common::python_oracle("chess960_starts.py", &[]);
    let theirs: Vec<&str> = lines.lines().collect();
    assert_eq!(theirs.len(), usize::from(POSITIONS));
    for (number, line) in (0..POSITIONS).zip(theirs) {
        assert_eq!(format!("{number} {}", chess960_fen(number).unwrap()), line);
    }
}

/// The starts scripts/match960.py plays are start positions of the 960 (each
/// side alike) or with `--dfrc` of the 960 x 960, distinct, every one with
/// its four castling rights.
#[test]
fn the_match_script_plays_valid_chess960_and_dfrc_starts() {
    let back_ranks: std::collections::BTreeMap<String, u16> = (0..POSITIONS)
        .map(|n| {
            let fen = chess960_fen(n).unwrap();
            (fen.split(['/', ' ']).nth(7).unwrap().to_string(), n)
        })
        .collect();
    for (dfrc, count) in [(false, 960), (true, 300)] {
        let mut args = vec![count.to_string(), "7".to_string()];
        if dfrc {
            args.push("dfrc".into());
        }
        let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        let lines = common::python_oracle("match960_starts.py", &args);
        let fens: std::collections::BTreeSet<&str> = lines.lines().collect();
        assert_eq!(fens.len(), count, "distinct starts");
        let mut different_sides = 0;
        for fen in fens {
            let rows: Vec<&str> = fen.split(['/', ' ']).collect();
            let number = |rank: &str| -> u16 {
                let rank = rank.to_ascii_uppercase();
                *back_ranks
                    .get(&rank)
                    .unwrap_or_else(|| panic!("{fen}: {rank} is no Chess960 back rank"))
            };
            let (white, black) = (number(rows[7]), number(rows[0]));
            assert_eq!(fen, dfrc_fen(white, black).unwrap());
            different_sides += usize::from(white != black);
        }
        assert_eq!(different_sides > 0, dfrc, "{different_sides}");
    }
}

/// A game of searches by `algorithm` at a few hundred nodes a move from
/// `start`, with one searcher's memory (TT, killers, histories) kept from
/// move to move as in a real game; every move and every PV is checked on an
/// independent board. Returns (plies played, castling moves played).
fn self_play(start: &str, algorithm: Algorithm, mode: SearchMode, plies: usize) -> (usize, usize) {
    let mut board = Board::from_fen_960(start, true).unwrap();
    let mut theirs = independent(start);
    let mut memory = ReusableSearch::new(4).unwrap();
    let params = SearchParams {
        algorithm,
        mode,
        ..SearchParams::default()
    };
    let mut castles = 0;
    for ply in 0..plies {
        if board.game_over_by_rule() {
            return (ply, castles);
        }
        let nodes = 60 + (ply as u64 * 97) % 500;
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let what = format!("{algorithm} {mode:?} from {start}, ply {ply}");
        let result: SearchResult =
            memory.run(&board, mode, |s| search(s, &params, &limits, &mut |_| {}));
        let best = result
            .best_move
            .unwrap_or_else(|| panic!("{what}: no move"));
        // (A first iteration cut short by the node limit leaves no PV.)
        assert!(result.pv.first().is_none_or(|&m| m == best), "{what}");
        let mut line = theirs.clone();
        for m in &result.pv {
            // `Board::uci` writes any move in the board's castling mode.
            let played = legal_move(&line, &board.uci(*m), &what);
            line.play_unchecked(played);
        }
        let text = board.uci(best);
        let m = legal_move(&theirs, &text, &what);
        castles += usize::from(m.is_castle());
        theirs.play_unchecked(m);
        board.play(best);
        assert_eq!(board.fen(), fen_of(&theirs), "{what}");
    }
    (plies, castles)
}

/// Every back end plays games at tiny node counts with legal moves only, a
/// few hundred plies each: from DFRC starts (Normal mode, and Pure mode for
/// two), and from the castling positions, where castling is at hand.
#[test]
fn every_back_end_plays_legal_dfrc_games_at_tiny_node_counts() {
    let starts = dfrc_starts(6, 960);
    for algorithm in Algorithm::ALL {
        let (mut plies, mut castles) = (0, 0);
        let mut play = |start: &str, mode, length| {
            let (p, c) = self_play(start, algorithm, mode, length);
            plies += p;
            castles += c;
        };
        for start in &starts {
            play(start, SearchMode::Normal, 60);
        }
        for start in &starts[..2] {
            play(start, SearchMode::Pure, 30);
        }
        for (_, start) in CASTLING_POSITIONS {
            play(start, SearchMode::Normal, 12);
        }
        assert!(plies >= 300, "{algorithm}: {plies} plies");
        assert!(
            castles >= 3,
            "{algorithm}: {castles} castling moves in {plies} plies"
        );
    }
}

/// Pairs of Chess960 positions alike but for which of two rooks on a wing
/// holds the castling right, so the same Polyglot key. With the inner rook,
/// castling swaps it with the king beside it and mates on the file the king
/// left (nothing else gets a rook there); with the outer one castling is
/// blocked. The side to move is the one facing the mate: with the inner rook
/// it must spend its move on stopping it.
const RIGHTS_OF_OTHER_ROOKS: [(&str, &str); 3] = [
    (
        "2rkr3/2p1p2p/8/4N3/8/8/8/RR1K4 b B - 0 1",
        "2rkr3/2p1p2p/8/4N3/8/8/8/RR1K4 b A - 0 1",
    ),
    (
        "4rkr1/p3p1p1/8/4N3/8/8/8/5KRR b G - 0 1",
        "4rkr1/p3p1p1/8/4N3/8/8/8/5KRR b H - 0 1",
    ),
    (
        "rr1k4/8/8/8/4n3/8/2P1P2P/2RKR3 w b - 0 1",
        "rr1k4/8/8/8/4n3/8/2P1P2P/2RKR3 w a - 0 1",
    ),
];

/// The oracle's depth-`depth` value of `board` (plain alpha-beta, no TT).
fn oracle_value(board: &Board, depth: i32) -> Score {
    let mut b = board.clone();
    b.set_root();
    oracle::alphabeta(&mut b, -Score::INFINITE, Score::INFINITE, depth, 0)
}

/// In Pure mode every back end computes the oracle's value of Chess960
/// positions, castling of every shape included, with one TT kept across
/// them all: positions that differ only in which rook may castle must not
/// share its entries.
#[test]
fn pure_back_ends_equal_the_oracle_on_chess960_positions_sharing_a_tt() {
    let mut fens: Vec<&str> = Vec::new();
    for (inner, outer) in RIGHTS_OF_OTHER_ROOKS {
        let value = |fen| oracle_value(&Board::from_fen_960(fen, true).unwrap(), 2);
        assert!(
            value(inner) < value(outer),
            "{inner}: the mate costs a move"
        );
        fens.extend([inner, outer, inner]);
    }
    fens.extend(CASTLING_POSITIONS.iter().map(|(_, fen)| *fen));
    for algorithm in Algorithm::ALL {
        let tt = Arc::new(TranspositionTable::new(16).unwrap());
        let params = SearchParams {
            algorithm,
            mode: SearchMode::Pure,
            ..SearchParams::default()
        };
        for depth in 1..=3 {
            for fen in &fens {
                let board = Board::from_fen_960(fen, true).unwrap();
                let r =
                    common::searching::search_with_tt(&board, &params, &Limits::depth(depth), &tt);
                let expected = oracle_value(&board, depth);
                assert_eq!(r.score, expected, "{algorithm} depth {depth} on {fen}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Through the binary.

/// A fresh engine with `UCI_Chess960` set to `on`.
fn engine_960(on: bool) -> EngineProcess {
    let mut e = engine();
    e.send(&format!("setoption name UCI_Chess960 value {on}"));
    e.sync();
    e
}

/// 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6: White may castle king-side.
const ITALIAN: [&str; 6] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];

/// Castling is written king takes rook (e1h1) with `UCI_Chess960` on and as
/// the king's move (e1g1) with it off, whichever spelling `searchmoves`
/// used and whichever way the FEN wrote the rights; rights that only
/// Chess960 can castle with are written king takes rook either way.
#[test]
fn castling_is_written_king_takes_rook_exactly_when_uci_chess960_is_on() {
    let moves = ITALIAN.join(" ");
    let shredder = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1";
    for (on, written, other) in [(false, "e1g1", "e1h1"), (true, "e1h1", "e1g1")] {
        let mode = CastlingMode::from_chess960(on);
        let mut e = engine_960(on);
        let italian = Game::from_pos(Chess::default(), mode).with_moves(&ITALIAN);
        let shredder_game = Game::fen_mode(shredder, mode);
        for asked in [written, other] {
            e.send(&format!("position startpos moves {moves}"));
            let s = go(&mut e, &italian, &format!("go depth 3 searchmoves {asked}"));
            assert_eq!(s.best.as_deref(), Some(written), "{on} {asked}");
            e.send(&format!("position fen {shredder}"));
            let s = go(
                &mut e,
                &shredder_game,
                &format!("go depth 3 searchmoves {asked}"),
            );
            assert_eq!(s.best.as_deref(), Some(written), "{on} {asked}");
        }
        for (what, fen) in CASTLING_POSITIONS {
            let game = Game::fen_mode(fen, C960);
            for m in game.pos.legal_moves().into_iter().filter(|m| m.is_castle()) {
                let castle = game.uci(m);
                e.send(&format!("position fen {fen}"));
                let s = go(&mut e, &game, &format!("go depth 3 searchmoves {castle}"));
                assert_eq!(s.best.as_ref(), Some(&castle), "{on} {what}");
            }
        }
    }
}

/// `UCI_Chess960` set after `position` applies to that position at once:
/// the engine reads its last `position` command again, the moves included,
/// and writes castling the new way (a GUI may send the option after the
/// position, or switch variants between games without a new `position`).
#[test]
fn uci_chess960_set_after_position_writes_castling_the_new_way_at_once() {
    let moves = ITALIAN.join(" ");
    let mut e = engine_960(false);
    for (on, written) in [(true, "e1h1"), (false, "e1g1"), (true, "e1h1")] {
        if on {
            e.send(&format!("position startpos moves {moves}"));
        }
        e.send(&format!("setoption name UCI_Chess960 value {on}"));
        let game =
            Game::from_pos(Chess::default(), CastlingMode::from_chess960(on)).with_moves(&ITALIAN);
        let s = go(&mut e, &game, "go depth 3 searchmoves e1g1 e1h1");
        assert_eq!(s.best.as_deref(), Some(written), "UCI_Chess960 {on}");
    }
    // A refused move is reported once: the position read again is that of
    // the moves before it.
    e.send(&format!("position startpos moves {moves} e1e3"));
    let refused = e.sync();
    assert!(refused.iter().any(|l| l.contains("e1e3")), "{refused:?}");
    e.send("setoption name UCI_Chess960 value false");
    let reread = e.sync();
    assert!(
        reread.iter().all(|l| !l.contains("e1e3")),
        "the refused move is not read again: {reread:?}"
    );
    let game = Game::from_pos(Chess::default(), CastlingMode::Standard).with_moves(&ITALIAN);
    let s = go(&mut e, &game, "go depth 3 searchmoves e1h1");
    assert_eq!(s.best.as_deref(), Some("e1g1"));
}

/// `position ... moves` reads castling either way in either mode; a
/// Chess960 king off the e-file castles king takes rook only, and its step
/// towards the rook stays a step.
#[test]
fn position_moves_read_both_castling_spellings() {
    let italian = ITALIAN.join(" ");
    let castled = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    for on in [false, true] {
        let mut e = engine_960(on);
        for castle in ["e1g1", "e1h1"] {
            e.send(&format!("position startpos moves {italian} {castle}"));
            assert_eq!(engine_fen(&mut e), castled, "{on} {castle}");
        }
    }
    let mut e = engine_960(true);
    // (start, moves, the position they lead to by shakmaty's reading)
    let king_b1 = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HA - 0 1";
    let king_g1 = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1";
    let rook_f1 = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w F - 0 1";
    for (start, text) in [
        (king_b1, "b1a1"),
        (king_b1, "b1h1"),
        (king_b1, "b1c1"),
        (king_g1, "g1h1 g8a8"),
        (king_g1, "g1a1 g8h8"),
        (rook_f1, "e1f1"),
    ] {
        let mut theirs = independent(start);
        for m in text.split(' ') {
            let m = legal_move(&theirs, m, start);
            theirs.play_unchecked(m);
        }
        e.send(&format!("position fen {start} moves {text}"));
        assert_eq!(engine_fen(&mut e), fen_of(&theirs), "{start} {text}");
    }
    // No castling by the king's destination off the e-file or with a rook
    // off the corner: refused, the position as before the move.
    for (start, text) in [(king_b1, "b1g1"), (king_g1, "g1c1"), (rook_f1, "e1g1")] {
        e.send(&format!("position fen {start} moves {text}"));
        let lines = e.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains(text)),
            "{start} {text}: {lines:?}"
        );
        assert_eq!(
            engine_fen(&mut e),
            fen_of(&independent(start)),
            "{start} {text}"
        );
    }
}

/// DFRC games through the binary at every back end: the whole game sent
/// again before each move (`position fen <start> moves ...`), so the engine
/// reads back its own castling, and each answer checked (a legal bestmove
/// in Chess960 notation, legal PVs) on the test's own board.
#[test]
fn dfrc_games_through_the_binary_at_every_back_end() {
    let mut starts = dfrc_starts(2, 4242);
    starts.extend(
        CASTLING_POSITIONS[..3]
            .iter()
            .map(|(_, fen)| fen.to_string()),
    );
    for algorithm in Algorithm::ALL {
        let mut e = engine_960(true);
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        let (mut plies, mut castles) = (0, 0);
        for start in &starts {
            e.send("ucinewgame");
            let mut game = Game::fen_mode(start, C960);
            let mut moves: Vec<String> = Vec::new();
            while moves.len() < 24 && !game.is_over() {
                let listed = if moves.is_empty() {
                    String::new()
                } else {
                    format!(" moves {}", moves.join(" "))
                };
                e.send(&format!("position fen {start}{listed}"));
                let nodes = 200 + 37 * moves.len();
                let s = go(&mut e, &game, &format!("go nodes {nodes}"));
                let best = s.best.expect("a legal move exists: the game is not over");
                let m = game.parse_move(&best).unwrap();
                castles += usize::from(m.is_castle());
                game.play(m);
                moves.push(best);
                plies += 1;
            }
            assert_eq!(engine_fen_after(&mut e, start, &moves), game.fen_string());
        }
        assert!(plies >= 60, "{algorithm}: {plies}");
        assert!(castles >= 1, "{algorithm}: no castling in {plies} plies");
    }
}

/// The engine's FEN after `position fen <start> moves <moves>`.
fn engine_fen_after(e: &mut EngineProcess, start: &str, moves: &[String]) -> String {
    e.send(&format!("position fen {start} moves {}", moves.join(" ")));
    engine_fen(e)
}

// ---------------------------------------------------------------------------
// The book in Chess960 mode.

/// A Polyglot book file `book.bin` of the given (position, move, weight)
/// records, in a folder removed when the returned guard is dropped.
fn write_book(name: &str, records: &[(&Board, &str, u16)]) -> common::scratch::Scratch {
    let square = |s: &str| -> u16 {
        let b = s.as_bytes();
        u16::from(b[0] - b'a') + 8 * u16::from(b[1] - b'1')
    };
    let mut entries: Vec<(u64, u16, u16)> = records
        .iter()
        .map(|(board, m, weight)| {
            let code = square(&m[2..4]) | (square(&m[0..2]) << 6);
            (stockman::known::book::polyglot_key(board), code, *weight)
        })
        .collect();
    entries.sort();
    let mut bytes = Vec::new();
    for (key, code, weight) in entries {
        bytes.extend(key.to_be_bytes());
        bytes.extend(code.to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    let dir = common::scratch::Scratch::new(&format!("960-{name}"));
    std::fs::write(dir.join("book.bin"), bytes).unwrap();
    dir
}

/// `go` from `position`: the book move if one was played without a
/// search, and the bestmove.
fn book_go(e: &mut EngineProcess, position: &str) -> (Option<String>, String) {
    e.send(position);
    e.send("go depth 3");
    let lines = e.read_until("bestmove", TIMEOUT);
    let book = lines.iter().find_map(|l| {
        let rest = l.strip_prefix("info string book move ")?;
        Some(rest.split(' ').next()?.to_string())
    });
    (book, bestmove_of(&lines))
}

/// In Chess960 mode a standard book still serves the standard start and
/// standard positions, its castling written king takes rook; a DFRC start
/// it does not know is searched (and the book left until a new game); a
/// position whose Polyglot key does not name its castling rook (the right
/// with the inner of two rooks) is never looked up.
#[test]
fn the_book_in_chess960_mode() {
    let castling = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let outer = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w A - 0 1";
    let inner = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w B - 0 1";
    let dir = write_book(
        "book",
        &[
            (&Board::default(), "e2e4", 7),
            (&Board::from_fen(castling).unwrap(), "e1h1", 7),
            (&Board::from_fen_960(outer, true).unwrap(), "e1f1", 7),
        ],
    );
    for on in [false, true] {
        let mut e = engine_960(on);
        e.send("setoption name OwnBook value true");
        e.send("setoption name BookBestMove value true");
        let book = dir.join("book.bin");
        e.send(&format!("setoption name BookFile value {}", book.display()));
        e.sync();
        let castle = if on { "e1h1" } else { "e1g1" };
        let start = chess960_fen(STANDARD).unwrap();
        for (position, expected) in [
            ("position startpos".to_string(), "e2e4"),
            (format!("position fen {start}"), "e2e4"),
            (format!("position fen {castling}"), castle),
            (format!("position fen {outer}"), "e1f1"),
        ] {
            let (book, best) = book_go(&mut e, &position);
            assert_eq!(book.as_deref(), Some(expected), "{on} {position}");
            assert_eq!(best, expected);
        }
        // The inner rook's right: no book move, and the book is left.
        let (book, _) = book_go(&mut e, &format!("position fen {inner}"));
        assert_eq!(book, None, "{on}");
        assert_eq!(book_go(&mut e, "position startpos").0, None, "{on}");
        e.send("ucinewgame");
        assert!(book_go(&mut e, "position startpos").0.is_some(), "{on}");
        // A DFRC start: not in the book, searched; the book is left.
        let dfrc = dfrc_fen(0, 959).unwrap();
        let (book, best) = book_go(&mut e, &format!("position fen {dfrc}"));
        assert_eq!(book, None, "{on}");
        legal_move(&independent(&dfrc), &best, "the search's move");
        assert_eq!(book_go(&mut e, "position startpos").0, None, "{on}");
        e.send("ucinewgame");
        assert!(book_go(&mut e, "position startpos").0.is_some(), "{on}");
    }
}
