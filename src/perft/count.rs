//! Counting legal moves without generating them: the bulk count at perft's
//! last ply. Same rules as shakmaty's `legal_moves` (including Chess960
//! castling and en passant discoveries), but popcounts instead of a list.

use shakmaty::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, ray, rook_attacks,
};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, EnPassantMode, Position, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_3: u64 = 0xff << 16;
const RANK_6: u64 = 0xff << 40;
const BACKRANKS: u64 = Bitboard::BACKRANKS.0;

/// Number of legal moves in `pos`; always equal to `pos.legal_moves().len()`.
#[inline]
pub fn count_legal(pos: &Chess) -> u64 {
    let board = pos.board();
    let turn = pos.turn();
    let Some(king) = board.king_of(turn) else {
        // A `Chess` position always has a king; stay total anyway.
        return pos.legal_moves().len() as u64;
    };
    let us = board.by_color(turn);
    let occ = board.occupied();
    let checkers = board.attacks_to(king, !turn, occ);
    let mut n: u64 = 0;

    // King steps: the destination must be safe with the king lifted off the
    // board, so that it cannot hide behind itself from a slider.
    let lifted = occ ^ king;
    for to in king_attacks(king) & !us {
        if board.attacks_to(to, !turn, lifted).is_empty() {
            n += 1;
        }
    }

    // En passant, checked exactly: replay the capture on the occupancy and
    // look for any attack on the king (covers pins along the rank, checks
    // by the pushed pawn and interpositions).
    if let Some(ep) = pos.ep_square(EnPassantMode::Always) {
        for from in board.pawns() & us & pawn_attacks(!turn, ep) {
            let captured = Square::from_coords(ep.file(), from.rank());
            let after = occ.toggled(from).toggled(captured).with(ep);
            if board
                .attacks_to(king, !turn, after)
                .without(captured)
                .is_empty()
            {
                n += 1;
            }
        }
    }

    if checkers.more_than_one() {
        return n;
    }
    let target = match checkers.single_square() {
        Some(c) => between(king, c).with(c),
        None => !us,
    };
    let pinned = pinned(pos, king) & us;

    // Pinned knights never move; free ones go to any target square.
    for sq in board.knights() & us & !pinned {
        n += (knight_attacks(sq) & target).count() as u64;
    }
    // Sliders (a queen counts as a bishop plus a rook: disjoint sets). A
    // pinned slider stays on the line through its king.
    for sq in board.bishops_and_queens() & us {
        let mut to = bishop_attacks(sq, occ) & target;
        if pinned.contains(sq) {
            to &= ray(king, sq);
        }
        n += to.count() as u64;
    }
    for sq in board.rooks_and_queens() & us {
        let mut to = rook_attacks(sq, occ) & target;
        if pinned.contains(sq) {
            to &= ray(king, sq);
        }
        n += to.count() as u64;
    }

    n += count_pawns(pos, turn, king, target.0, pinned);

    if checkers.is_empty() {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if can_castle(pos, turn, king, side) {
                n += 1;
            }
        }
    }
    n
}

/// Pieces (of either colour) that alone stand between the king and an
/// enemy slider aimed at it.
#[inline]
fn pinned(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let them = board.by_color(!pos.turn());
    let snipers = ((rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens()))
        & them;
    let occ = board.occupied();
    let mut blockers = Bitboard(0);
    for sniper in snipers {
        let b = between(king, sniper) & occ;
        if !b.more_than_one() {
            blockers |= b;
        }
    }
    blockers
}

/// Pawn pushes and captures (promotions count four times; en passant is
/// counted elsewhere).
#[inline]
fn count_pawns(pos: &Chess, turn: Color, king: Square, target: u64, pinned: Bitboard) -> u64 {
    let board = pos.board();
    let pawns = (board.pawns() & board.by_color(turn)).0;
    let them = board.by_color(!turn).0;
    let empty = !board.occupied().0;
    let free = pawns & !pinned.0;
    let (push1, push2, left, right) = match turn {
        Color::White => {
            let p1 = (free << 8) & empty;
            let p2 = ((p1 & RANK_3) << 8) & empty;
            (
                p1,
                p2,
                ((free & !FILE_A) << 7) & them,
                ((free & !FILE_H) << 9) & them,
            )
        }
        Color::Black => {
            let p1 = (free >> 8) & empty;
            let p2 = ((p1 & RANK_6) >> 8) & empty;
            (
                p1,
                p2,
                ((free & !FILE_A) >> 9) & them,
                ((free & !FILE_H) >> 7) & them,
            )
        }
    };
    let mut n = 0;
    for set in [push1 & target, left & target, right & target] {
        n += u64::from((set & !BACKRANKS).count_ones())
            + 4 * u64::from((set & BACKRANKS).count_ones());
    }
    n += u64::from((push2 & target).count_ones());

    // Pinned pawns (rare): one at a time, along the pin line.
    for sq in Bitboard(pawns) & pinned {
        let line = ray(king, sq).0 & target;
        let step = match turn {
            Color::White => 8,
            Color::Black => -8,
        };
        let mut to = pawn_attacks(turn, sq).0 & them;
        let one = Bitboard::from_square(sq).shift(step).0 & empty;
        to |= one;
        if sq.rank() == turn.relative_rank(shakmaty::Rank::Second) {
            to |= Bitboard(one).shift(step).0 & empty;
        }
        to &= line;
        n += u64::from((to & !BACKRANKS).count_ones())
            + 4 * u64::from((to & BACKRANKS).count_ones());
    }
    n
}

/// Castling on `side`, as shakmaty decides it: the rook still has its right,
/// the path is empty, the king does not pass through or land on an attacked
/// square (with king and rook already moved for the landing square, which
/// matters in Chess960 when the rook shielded the king).
#[inline]
fn can_castle(pos: &Chess, turn: Color, king: Square, side: CastlingSide) -> bool {
    let castles = pos.castles();
    let Some(rook) = castles.rook(turn, side) else {
        return false;
    };
    let board = pos.board();
    let occ = board.occupied();
    if castles.path(turn, side).intersects(occ) {
        return false;
    }
    let king_to = side.king_to(turn);
    if board
        .attacks_to(king_to, !turn, occ ^ king ^ rook ^ side.rook_to(turn))
        .any()
    {
        return false;
    }
    let lifted = occ ^ king;
    !between(king, king_to)
        .with(king)
        .into_iter()
        .any(|sq| board.attacks_to(sq, !turn, lifted).any())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn walk(fen: &str, mode: CastlingMode, seed: u64, plies: usize) {
        let mut pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
        let mut s = seed;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            assert_eq!(
                count_legal(&pos),
                moves.len() as u64,
                "{}",
                Fen::from_position(&pos, EnPassantMode::Always)
            );
            if moves.is_empty() {
                break;
            }
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play_unchecked(moves[(s >> 33) as usize % moves.len()]);
        }
    }

    /// The counter agrees with shakmaty's generator along many random games.
    #[test]
    fn count_matches_legal_moves_on_random_walks() {
        let fens = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                CastlingMode::Standard,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                CastlingMode::Chess960,
            ),
            (
                "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
                CastlingMode::Chess960,
            ),
            (
                "1r2k1r1/8/8/8/8/8/8/R1K3R1 w AGbg - 0 1",
                CastlingMode::Chess960,
            ),
        ];
        for (i, (fen, mode)) in fens.iter().enumerate() {
            for seed in 0..150 {
                walk(fen, *mode, seed * 7919 + i as u64, 300);
            }
        }
    }

    #[test]
    fn tricky_positions() {
        for fen in [
            // En passant that would expose the king along the rank.
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            // En passant as the answer to a check by the pushed pawn.
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            // Double check: king moves only.
            "4k3/8/8/8/8/8/4r3/r3K3 w - - 0 1",
            // Castling through an attacked square is illegal.
            "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1",
            // Chess960: the rook shields the king on its destination file.
            "4k3/8/8/8/8/8/8/qR1K4 w B - 0 1",
            // Promotions, pushes and captures, pinned pawn that may capture the pinner.
            "4k3/1P6/8/8/8/8/6b1/4K2B w - - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1",
        ] {
            let mode = if fen.contains(" B ") {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            assert_eq!(count_legal(&pos), pos.legal_moves().len() as u64, "{fen}");
        }
    }
}
