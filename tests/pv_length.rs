//! The principal variations a search shows through the real binary are
//! whole: every completed iteration at depth d shows a line of at least d
//! legal moves unless the game ends on it sooner (mate, stalemate, a draw
//! by rule, or a repetition, which the search scores as a draw), for every
//! back end, the null-window ones (MTDf, SSS, DUAL) included; a mate score's
//! line ends in mate.

mod common;

use common::search_check::*;

/// Depth of the searches (each a fraction of a second).
const DEPTH: u32 = 10;

const ALGORITHMS: &[&str] = &["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"];

/// Positions whose lines were cut short (to 2 or 3 plies at depth 12 by
/// some back ends): the start after 1. e4, a quiet middlegame, a pawn
/// ending, a sharp middlegame, and a mate in 3.
fn games() -> Vec<Game> {
    vec![
        Game::start().with_moves(&["e2e4"]),
        Game::fen("r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14"),
        Game::fen("8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54"),
        Game::fen("r2qr1k1/pb1nbppp/1pn1p3/2ppP3/3P4/2PB1NN1/PP3PPP/R1BQR1K1 w - - 4 12"),
        Game::fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1"),
    ]
}

/// The game after `info`'s line, and whether it ends there: over by rule,
/// or at a position seen before (a repetition).
fn ends_the_game(game: &Game, info: &Info) -> (Game, bool) {
    let mut g = game.clone();
    for text in &info.pv {
        let m = g.parse_move(text).expect("checked legal by check_pv");
        g.play(m);
    }
    let last = *g.keys.last().unwrap();
    let repeated = g.keys.iter().filter(|&&k| k == last).count() >= 2;
    let over = g.is_over() || repeated;
    (g, over)
}

fn check_lengths(algorithm: &str, game: &Game, search: &Search) {
    let exact = search
        .infos
        .iter()
        .filter(|i| !i.line.contains(" lowerbound") && !i.line.contains(" upperbound"));
    for info in exact {
        let depth = info.depth.expect("a depth") as usize;
        let (end, over) = ends_the_game(game, info);
        assert!(
            info.pv.len() >= depth || over,
            "{algorithm}, {}: {} plies at depth {depth}: {}",
            game.fen_string(),
            info.pv.len(),
            info.line
        );
        if let Some(Score::Mate(_)) = info.score {
            assert!(
                shakmaty::Position::is_checkmate(&end.pos),
                "{algorithm}: a mate score's line ends in mate: {}",
                info.line
            );
        }
    }
}

#[test]
fn every_back_end_shows_a_line_as_long_as_the_search_is_deep() {
    for algorithm in ALGORITHMS {
        let mut e = engine();
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        for game in games() {
            e.send("ucinewgame");
            set_position(&mut e, &game);
            let search = go(&mut e, &game, &format!("go depth {DEPTH}"));
            assert_eq!(search.max_depth(), DEPTH, "{algorithm}");
            check_lengths(algorithm, &game, &search);
        }
    }
}
