//! Quiet moves out of danger: where the opponent's lesser pieces attack
//! (pawns; minor pieces; rooks), and what the move picker adds to the key of
//! a move that takes a piece attacked by a lesser one out of their reach.

use crate::eval::bitboards::pawn_attacks_bb;
use crate::search::tunables::{ESCAPE_BONUS_MINOR, ESCAPE_BONUS_QUEEN, ESCAPE_BONUS_ROOK};
use crate::tp;
use shakmaty::{Bitboard, Position, Role, Square, attacks};

/// The squares the side not to move attacks with its pawns, with its
/// minor pieces or pawns, and with its rooks or lesser pieces: where a
/// knight or bishop, a rook and a queen stand attacked by a lesser piece.
pub(super) struct LesserAttacks {
    pawns: Bitboard,
    minors: Bitboard,
    rooks: Bitboard,
}

impl LesserAttacks {
    pub(super) fn of(pos: &shakmaty::Chess) -> LesserAttacks {
        let board = pos.board();
        let them = board.by_color(!pos.turn());
        let occupied = board.occupied();
        let pawns = pawn_attacks_bb(!pos.turn(), board.pawns() & them);
        let mut minors = pawns;
        for sq in board.knights() & them {
            minors |= attacks::knight_attacks(sq);
        }
        for sq in board.bishops() & them {
            minors |= attacks::bishop_attacks(sq, occupied);
        }
        let mut rooks = minors;
        for sq in board.rooks() & them {
            rooks |= attacks::rook_attacks(sq, occupied);
        }
        LesserAttacks {
            pawns,
            minors,
            rooks,
        }
    }

    /// The ordering bonus of a quiet move of `role` from `from` to `to`:
    /// out of a lesser piece's attack to where none reaches it.
    #[inline]
    pub(super) fn escape_bonus(
        &self,
        bonus: EscapeBonus,
        role: Role,
        from: Square,
        to: Square,
    ) -> i32 {
        let escapes = |attacked: Bitboard| attacked.contains(from) && !attacked.contains(to);
        match role {
            Role::Queen if escapes(self.rooks) => bonus.queen,
            Role::Rook if escapes(self.minors) => bonus.rook,
            Role::Knight | Role::Bishop if escapes(self.pawns) => bonus.minor,
            _ => 0,
        }
    }
}

/// What a quiet move gains on its history key for taking a queen, a rook,
/// or a knight or bishop out of a lesser piece's attack (`ESCAPE_BONUS_*`).
#[derive(Copy, Clone)]
pub(super) struct EscapeBonus {
    pub(super) queen: i32,
    pub(super) rook: i32,
    pub(super) minor: i32,
}

impl EscapeBonus {
    #[inline(always)]
    pub(super) fn tuned() -> EscapeBonus {
        EscapeBonus {
            queen: tp!(ESCAPE_BONUS_QUEEN),
            rook: tp!(ESCAPE_BONUS_ROOK),
            minor: tp!(ESCAPE_BONUS_MINOR),
        }
    }

    /// Does any escape gain anything? (Where none does, as by default, the
    /// attacks are never worked out.)
    #[inline(always)]
    pub(super) fn any(self) -> bool {
        self.queen != 0 || self.rook != 0 || self.minor != 0
    }
}
