//! Static evaluation (placeholder: material only until the PST lands).

use crate::board::Board;
use crate::score::Score;
use shakmaty::Position;

/// The static evaluation of `board` from the side to move's point of view.
pub fn evaluate(board: &Board) -> Score {
    let b = board.pos().board();
    let us = board.turn();
    let value = |c| {
        let m = b.material_side(c);
        100 * m.pawn as i32
            + 320 * m.knight as i32
            + 330 * m.bishop as i32
            + 500 * m.rook as i32
            + 900 * m.queen as i32
    };
    Score(value(us) - value(!us))
}
