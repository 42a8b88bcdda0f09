//! Static exchange evaluation: the material outcome of the capture sequence
//! on one square, each side recapturing with its least valuable attacker and
//! free to stop. Used to split captures into winning and losing ones.

use crate::eval::{SEE_VALUE, role_index};
use shakmaty::{Bitboard, Board, Color, Move, Position, Role, Square, attacks};

fn attackers_to(board: &Board, sq: Square, occupied: Bitboard) -> Bitboard {
    let rooks_queens = board.rooks_and_queens() & occupied;
    let bishops_queens = board.bishops_and_queens() & occupied;
    (attacks::rook_attacks(sq, occupied) & rooks_queens)
        | (attacks::bishop_attacks(sq, occupied) & bishops_queens)
        | (attacks::knight_attacks(sq) & board.knights())
        | (attacks::king_attacks(sq) & board.kings())
        | (attacks::pawn_attacks(Color::White, sq) & board.pawns() & board.black())
        | (attacks::pawn_attacks(Color::Black, sq) & board.pawns() & board.white())
}

fn value(role: Role) -> i32 {
    SEE_VALUE[role_index(role)]
}

/// Does `m` win at least `threshold` centipawns of material by exchange?
pub fn see_at_least(pos: &shakmaty::Chess, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } => (from, to),
        // Castling and en passant never lose material on the target square.
        _ => return 0 >= threshold,
    };
    let board = pos.board();
    let captured = m.capture().map_or(0, value);
    let promo_gain = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    let mut balance = captured + promo_gain - threshold;
    if balance < 0 {
        return false;
    }
    // The piece now standing on `to` may be taken next.
    balance -= value(m.promotion().unwrap_or(m.role()));
    if balance >= 0 {
        return true;
    }
    let mut occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let mut attackers = attackers_to(board, to, occupied) & occupied;
    let mut side = !pos.turn();
    loop {
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        // The least valuable attacker of `side` recaptures. A king "captured"
        // in return is worth so much that the side capturing with its king
        // into a defended square always comes out losing, as it must.
        let (role, sq) = Role::ALL
            .into_iter()
            .find_map(|r| (ours & board.by_role(r)).first().map(|s| (r, s)))
            .expect("an attacker exists");
        occupied ^= Bitboard::from_square(sq);
        attackers = attackers_to(board, to, occupied) & occupied;
        side = !side;
        balance = -balance - 1 - value(role);
        if balance >= 0 {
            break;
        }
    }
    // The side to move after the loop lost the exchange.
    side != pos.turn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board as GameBoard;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let b = GameBoard::from_fen(fen).unwrap();
        let m = b.parse_uci(uci).unwrap();
        see_at_least(b.pos(), m, threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes an undefended knight.
        assert!(see("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300));
        // Queen takes a pawn defended by a pawn: loses material.
        assert!(!see("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
        // Rook takes a defended rook: even trade.
        assert!(see("3rk3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 0));
        assert!(!see("3rk3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 1));
        // X-ray: the second rook behind backs up the first.
        assert!(!see("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 0));
        // The king may recapture a queen on an undefended square...
        assert!(!see("3k4/3p4/8/8/8/8/8/3QK3 w - - 0 1", "d1d7", 0));
        // ...but not when a rook x-rays the square through the queen.
        assert!(see("3k4/3p4/8/8/8/8/3Q4/3RK3 w - - 0 1", "d2d7", 100));
        // Knight takes pawn defended by nothing: wins a pawn.
        assert!(see("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 100));
    }

    /// Castling, written as the king taking its own rook, captures nothing:
    /// it neither wins the rook's value nor risks the king's.
    #[test]
    fn castling_wins_and_loses_nothing() {
        let mut castles = 0;
        for (what, fen) in crate::chess960::CASTLING_POSITIONS {
            let b = GameBoard::from_fen_960(fen, true).unwrap();
            for m in b.legal_moves().into_iter().filter(|m| m.is_castle()) {
                assert!(see_at_least(b.pos(), m, 0), "{what}");
                assert!(!see_at_least(b.pos(), m, 1), "{what}");
                castles += 1;
            }
        }
        assert!(castles > 0);
    }
}
