//! Does a move give check? `gives_check` works it out for one move from
//! attack sets, without playing it; `CheckSquares` holds what every move of
//! one position shares (where each piece would check the enemy king, which
//! pieces may uncover a check), so a node asking for many moves pays once.

use shakmaty::{Bitboard, Chess, Move, Piece, Position, Role, Square, attacks};

/// Does the legal move `m` give check? Worked out from attack sets without
/// playing the move (a direct check by the moved or promoted piece, or a
/// slider of ours uncovered on the enemy king); castling and en passant,
/// rare and with more to move, are played on a copy.
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut after = pos.clone();
        after.play_unchecked(m);
        return after.is_check();
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() ^ from) | to;
    let piece = Piece {
        color: us,
        role: promotion.unwrap_or(role),
    };
    if attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    let ours = board.by_color(us) & !Bitboard::from_square(from);
    let lines = (attacks::rook_attacks(king, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens());
    (lines & ours).any()
}

/// The squares from which each of our pieces would check the enemy king in
/// one position, and the squares a discovered check can start from.
///
/// A plain move (no promotion, castling or en passant) of a piece to `to`
/// checks directly exactly when `to` is one of its role's squares here: the
/// square it leaves could only matter if it lay between `to` and the king,
/// and a slider on such a line would have been giving check already. It
/// uncovers a check only if it leaves the first square met on a line from
/// the king; those few moves, and the rare kinds, go to `gives_check`.
#[derive(Copy, Clone, Debug)]
pub struct CheckSquares {
    pawn: Bitboard,
    knight: Bitboard,
    bishop: Bitboard,
    rook: Bitboard,
    /// The first occupied square on each line from the enemy king.
    line_ends: Bitboard,
}

impl CheckSquares {
    /// The check squares of `pos` for the side to move (no squares at all
    /// when the enemy has no king).
    pub fn new(pos: &Chess) -> CheckSquares {
        let board = pos.board();
        let them = !pos.turn();
        let Some(king) = board.king_of(them) else {
            return CheckSquares {
                pawn: Bitboard::EMPTY,
                knight: Bitboard::EMPTY,
                bishop: Bitboard::EMPTY,
                rook: Bitboard::EMPTY,
                line_ends: Bitboard::EMPTY,
            };
        };
        let occupied = board.occupied();
        let bishop = attacks::bishop_attacks(king, occupied);
        let rook = attacks::rook_attacks(king, occupied);
        CheckSquares {
            // Our pawn checks from where their pawn on the king's square would capture.
            pawn: attacks::pawn_attacks(them, king),
            knight: attacks::knight_attacks(king),
            bishop,
            rook,
            line_ends: bishop | rook,
        }
    }

    /// Does the legal move `m` of this position give check? The same answer
    /// as `gives_check`, mostly without its attack generation.
    #[inline]
    pub fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        let Move::Normal {
            role,
            from,
            to,
            promotion: None,
            ..
        } = m
        else {
            return gives_check(pos, m);
        };
        if self.direct(role, to) {
            return true;
        }
        self.line_ends.contains(from) && gives_check(pos, m)
    }

    #[inline]
    fn direct(&self, role: Role, to: Square) -> bool {
        let squares = match role {
            Role::Pawn => self.pawn,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.bishop | self.rook,
            Role::King => Bitboard::EMPTY,
        };
        squares.contains(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// Positions with promotions, castling (both kinds), en passant,
    /// discovered and double checks, pins and a king on an open line.
    const FENS: [&str; 10] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
        "3k4/8/8/8/8/8/1B6/R3K2R w KQ - 0 1",
        "8/8/8/8/8/8/8/R1K3k1 w - - 0 1",
        // A pawn capturing onto the last rank through the square it leaves.
        "4n3/5P2/6k1/8/8/8/8/K7 w - - 0 1",
        // Sliders behind pieces of both sides on the king's lines.
        "3r4/1b6/8/3N4/2k1P1RQ/8/1K6/8 w - - 0 1",
    ];

    /// Every legal move of each position and of each position one move on,
    /// against the position after the move.
    fn each_move(mut check: impl FnMut(&str, &Chess, Move, bool)) {
        for fen in FENS {
            let board = Board::from_fen(fen).unwrap();
            for m in board.legal_moves() {
                let mut child = board.clone();
                child.play(m);
                for n in std::iter::once(None).chain(child.legal_moves().into_iter().map(Some)) {
                    let (pos, mv) = match n {
                        None => (board.pos(), m),
                        Some(n) => (child.pos(), n),
                    };
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    check(fen, pos, mv, after.is_check());
                }
            }
        }
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let king_uncovers = Board::from_fen("8/8/8/8/8/8/8/R1K3k1 w - - 0 1").unwrap();
        let kd2 = king_uncovers.parse_uci("c1d2").unwrap();
        assert!(gives_check(king_uncovers.pos(), kd2));
        let mut checks = 0;
        each_move(|fen, pos, m, checked| {
            assert_eq!(gives_check(pos, m), checked, "{m} in or after {fen}");
            checks += usize::from(checked);
        });
        assert!(checks > 100, "the positions must contain checks: {checks}");
    }

    #[test]
    fn check_squares_agree_with_playing_the_move() {
        let mut kinds = [0; 3];
        each_move(|fen, pos, m, checked| {
            let squares = CheckSquares::new(pos);
            assert_eq!(
                squares.gives_check(pos, m),
                checked,
                "{m} in or after {fen}"
            );
            if checked {
                let discovered = !matches!(m, Move::Normal { role, to, promotion: None, .. }
                    if squares.direct(role, to));
                kinds[usize::from(discovered)] += 1;
                kinds[2] += usize::from(m.is_promotion());
            }
        });
        let [direct, discovered, promoting] = kinds;
        assert!(direct > 100 && discovered > 5 && promoting > 0, "{kinds:?}");
    }
}
