//! The legal captures and queen promotions of a position not in check,
//! generated without the quiet moves that quiescence and ProbCut would throw
//! away; in the order `legal_moves` lists them, so searches are unchanged.

use shakmaty::{
    Bitboard, Board, Chess, Color, File, Move, MoveList, Position, Role, Square, attacks,
};

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
    let Some(king) = pos.board().king_of(pos.turn()) else {
        return moves;
    };
    let board = pos.board();
    let us = pos.turn();
    let g = Generator {
        board,
        us,
        king,
        pinned: pinned_pieces(pos, king),
        theirs: board.by_color(!us),
        occupied: board.occupied(),
        pawns: board.pawns() & board.by_color(us),
        last_rank: Bitboard::from_rank(us.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First)),
    };
    // En passant first, as `legal_moves` does; shakmaty checks its legality.
    for m in pos.en_passant_moves() {
        moves.push(m);
    }
    g.pawn_captures(&mut moves);
    g.queen_pushes(&mut moves);
    g.piece_captures(&mut moves);
    g.king_captures(&mut moves);
    debug_assert!(moves.iter().all(|&m| is_tactical(m)));
    moves
}

/// What the steps of `tactical_moves` share: the board, the side to move,
/// its king, its pinned pieces and pawns, the enemy pieces, the occupied
/// squares and the promotion rank.
struct Generator<'a> {
    board: &'a Board,
    us: Color,
    king: Square,
    pinned: Bitboard,
    theirs: Bitboard,
    occupied: Bitboard,
    pawns: Bitboard,
    last_rank: Bitboard,
}

impl Generator<'_> {
    /// Adds `m` unless it moves a pinned piece off the line to its king.
    #[inline]
    fn push(&self, moves: &mut MoveList, m: Move) {
        if let Move::Normal { from, to, .. } = m
            && self.pinned.contains(from)
            && !attacks::aligned(from, to, self.king)
        {
            return;
        }
        moves.push(m);
    }

    /// Pawn captures towards the a-file, then towards the h-file; in each,
    /// by target square, promotions (all four pieces) after the others.
    #[inline]
    fn pawn_captures(&self, moves: &mut MoveList) {
        let (board, theirs, last_rank) = (self.board, self.theirs, self.last_rank);
        // The step from a pawn to the square it captures on.
        let (west, east) = match self.us {
            Color::White => (7, 9),
            Color::Black => (-9, -7),
        };
        for (offset, edge) in [(west, File::A), (east, File::H)] {
            let targets = (self.pawns & !Bitboard::from_file(edge)).shift(offset) & theirs;
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
                        self.push(
                            moves,
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
    }

    /// Quiet pushes to the last rank: only the queen promotion is tactical.
    #[inline]
    fn queen_pushes(&self, moves: &mut MoveList) {
        let (step, back) = match self.us {
            Color::White => (8, -8),
            Color::Black => (-8, 8),
        };
        for to in self.pawns.shift(step) & !self.occupied & self.last_rank {
            let from = to
                .offset(back)
                .expect("a pawn came from the square behind its push");
            self.push(
                moves,
                Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: None,
                    to,
                    promotion: Some(Role::Queen),
                },
            );
        }
    }

    /// Knight, bishop, rook and queen captures, in that order of roles.
    #[inline]
    fn piece_captures(&self, moves: &mut MoveList) {
        let (board, theirs, occupied) = (self.board, self.theirs, self.occupied);
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_role(role) & board.by_color(self.us) {
                let piece = shakmaty::Piece {
                    color: self.us,
                    role,
                };
                for to in attacks::attacks(from, piece, occupied) & theirs {
                    self.push(
                        moves,
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
    }

    /// King captures of pieces no enemy piece defends.
    #[inline]
    fn king_captures(&self, moves: &mut MoveList) {
        let board = self.board;
        for to in attacks::king_attacks(self.king) & self.theirs {
            if board.attacks_to(to, !self.us, self.occupied).is_empty() {
                moves.push(Move::Normal {
                    role: Role::King,
                    from: self.king,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
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
