//! The legal captures and queen promotions of a position not in check,
//! generated without the quiet moves that quiescence and ProbCut would throw
//! away; in the order `legal_moves` lists them, so searches are unchanged.

use shakmaty::{Bitboard, Chess, Color, File, Move, MoveList, Position, Role, Square, attacks};

/// Is this move part of the quiescence search (captures and queen promotions)?
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// Legal captures (en passant and capturing promotions included) and quiet
/// queen promotions: `legal_moves` filtered by `is_tactical`, in its order.
/// The side to move must not be in check (evasions need every move).
pub fn tactical_moves(pos: &Chess) -> MoveList {
    debug_assert!(
        !pos.is_check(),
        "tactical_moves is for positions not in check"
    );
    let mut moves = MoveList::new();
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return moves;
    };
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let pinned = pinned_pieces(pos, king);
    let push = |moves: &mut MoveList, m: Move| {
        if let Move::Normal { from, to, .. } = m
            && pinned.contains(from)
            && !attacks::aligned(from, to, king)
        {
            return;
        }
        moves.push(m);
    };

    // En passant first, as `legal_moves` does; shakmaty checks its legality.
    for m in pos.en_passant_moves() {
        moves.push(m);
    }

    let pawns = board.pawns() & board.by_color(us);
    let last_rank = Bitboard::from_rank(us.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First));
    // Captures towards the a-file, then towards the h-file; in each, by
    // target square, promotions after the others. The offset is the step
    // from a pawn to the square it captures on.
    let (west, east) = match us {
        Color::White => (7, 9),
        Color::Black => (-9, -7),
    };
    for (offset, edge) in [(west, File::A), (east, File::H)] {
        let targets = (pawns & !Bitboard::from_file(edge)).shift(offset) & theirs;
        for promoting in [false, true] {
            for to in targets & if promoting { last_rank } else { !last_rank } {
                let from = to
                    .offset(-offset)
                    .expect("a capture's target came from a pawn's square");
                let capture = board.role_at(to);
                let roles: &[Option<Role>] = if promoting {
                    &[
                        Some(Role::Queen),
                        Some(Role::Rook),
                        Some(Role::Bishop),
                        Some(Role::Knight),
                    ]
                } else {
                    &[None]
                };
                for &promotion in roles {
                    push(
                        &mut moves,
                        Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture,
                            to,
                            promotion,
                        },
                    );
                }
            }
        }
    }
    // Quiet pushes to the last rank: only the queen promotion is tactical.
    let forward = |b: Bitboard| match us {
        Color::White => b.shift(8),
        Color::Black => b.shift(-8),
    };
    for to in forward(pawns) & !occupied & last_rank {
        let from = match us {
            Color::White => to.offset(-8),
            Color::Black => to.offset(8),
        }
        .expect("a pawn came from the square behind its push");
        push(
            &mut moves,
            Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(Role::Queen),
            },
        );
    }

    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & board.by_color(us) {
            let piece = shakmaty::Piece { color: us, role };
            for to in attacks::attacks(from, piece, occupied) & theirs {
                push(
                    &mut moves,
                    Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    },
                );
            }
        }
    }

    for to in attacks::king_attacks(king) & theirs {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    debug_assert!(moves.iter().all(|&m| is_tactical(m)));
    moves
}

/// Our pieces that stand alone between our king and an enemy slider.
fn pinned_pieces(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let them = board.by_color(!pos.turn());
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers & them {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    pinned & board.by_color(pos.turn())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    /// Compares with `legal_moves` filtered, move for move and in order, at
    /// every position not in check up to `depth` plies from `board`.
    fn compare(board: &mut Board, depth: u32, seen: &mut u64) {
        let moves = board.legal_moves();
        if !board.in_check() {
            let mut expected = moves.clone();
            expected.retain(|m| is_tactical(*m));
            let got = tactical_moves(board.pos());
            assert_eq!(got.as_slice(), expected.as_slice(), "{}", board.fen());
            *seen += got.len() as u64;
        }
        if depth == 0 {
            return;
        }
        for m in moves {
            board.play(m);
            compare(board, depth - 1, seen);
            board.undo();
        }
    }

    #[test]
    fn same_moves_in_the_same_order_as_filtering_legal_moves() {
        // Pins, en passant (legal and not), promotions with and without
        // capture, castling positions, both colours to move.
        let mut seen = 0;
        for (fen, depth) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                2,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                2,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                2,
            ),
            ("4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1", 2),
            ("1r2k2r/2P3P1/8/8/8/8/1p4p1/R3K2R b KQk - 0 1", 2),
        ] {
            let mut board = Board::from_fen(fen).unwrap();
            compare(&mut board, depth, &mut seen);
        }
        assert!(seen > 10_000, "the positions must have captures: {seen}");
    }

    /// Chess960 castling, written as the king taking its own rook, is no
    /// capture: never tactical, and the generator agrees with filtering the
    /// legal moves two plies deep from every castling shape.
    #[test]
    fn chess960_castling_is_not_tactical() {
        let mut seen = 0;
        for (what, fen) in crate::chess960::CASTLING_POSITIONS {
            let mut board = Board::from_fen_960(fen, true).unwrap();
            for m in board.legal_moves() {
                assert!(!is_tactical(m) || !m.is_castle(), "{what}");
            }
            compare(&mut board, 2, &mut seen);
        }
        assert!(seen > 1_000, "the positions must have captures: {seen}");
    }
}
