//! `d` through the real binary: the board drawn as Stockfish draws it (rank
//! 8 first in an ASCII grid, the files lettered a to h), then the side to
//! move, the FEN, the key in hex and the squares giving check, every line an
//! `info string`.

mod common;

use common::search_check::*;

/// What `d` printed, without the `info string ` prefix.
fn display(game: &Game) -> Vec<String> {
    let mut e = engine();
    e.send(&game.position_command());
    e.send("d");
    let lines = e.sync();
    lines
        .iter()
        .map(|l| {
            l.strip_prefix("info string ")
                .unwrap_or_else(|| panic!("not an info string: {l}"))
                .to_string()
        })
        .collect()
}

#[test]
fn d_draws_the_board_then_side_fen_key_and_checkers() {
    // After 1. e4 d5 2. Bb5+: black to move, in check from b5.
    let game = Game::start().with_moves(&["e2e4", "d7d5", "f1b5"]);
    let lines = display(&game);
    assert_eq!(lines.len(), 21, "{lines:#?}");
    let border = "+---+---+---+---+---+---+---+---+";
    for rank in 0..8 {
        assert_eq!(lines[2 * rank], border, "{lines:#?}");
    }
    assert_eq!(lines[1], "| r | n | b | q | k | b | n | r | 8");
    assert_eq!(lines[7], "| . | B | . | p | . | . | . | . | 5");
    assert_eq!(lines[15], "| R | N | B | Q | K | . | N | R | 1");
    assert_eq!(lines[16], "+-a-+-b-+-c-+-d-+-e-+-f-+-g-+-h-+");
    assert_eq!(lines[17], "side to move black");
    assert_eq!(lines[18], format!("fen {}", game.fen_string()));
    assert_eq!(lines[19], format!("key {:016x}", key(&game.pos)));
    assert_eq!(lines[20], "checkers b5");
}

#[test]
fn d_shows_no_checkers_and_both_in_a_double_check() {
    let start = display(&Game::start());
    assert_eq!(start[17], "side to move white");
    assert_eq!(start.last().unwrap(), "checkers");
    // Rook e8 and knight f3 both check the king on e1.
    let double = display(&Game::fen("4r1k1/8/8/8/8/5n2/8/4K3 w - - 0 1"));
    assert_eq!(double.last().unwrap(), "checkers f3 e8");
}
