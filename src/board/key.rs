//! The position key: Polyglot's Zobrist key (shakmaty's numbers), built from
//! scratch or updated by a move, plus a number for each Chess960 castling
//! right whose rook stands off the a- and h-files, which Polyglot cannot name.

use super::EP_MODE;
use crate::rng::{GOLDEN_GAMMA, mix};
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Castles, CastlingSide, Chess, Color, Move, Position, Role};

/// The number a castling right adds for its rook's file, by colour and file.
/// Polyglot's key says only which side a right is on (king or queen side),
/// so a queen-side right of the a-file rook and one of the b-file rook (the
/// other rook on a1, or any Chess960 start) would share a key. Zero for the
/// a- and h-files: a standard position keeps its Polyglot key, and so does a
/// Chess960 one whose rights lie with rooks in the corners.
const ROOK_FILE_KEYS: [[u64; 8]; 2] = rook_file_keys();

const fn rook_file_keys() -> [[u64; 8]; 2] {
    let mut keys = [[0; 8]; 2];
    let mut i = 0;
    while i < 16 {
        let (color, file) = (i / 8, i % 8);
        if file != 0 && file != 7 {
            // SplitMix64's stream from a fixed seed.
            keys[color][file] =
                mix(0x0960_CA57_1E00_u64.wrapping_add((i as u64 + 1).wrapping_mul(GOLDEN_GAMMA)));
        }
        i += 1;
    }
    keys
}

/// The key of a position, computed from scratch.
pub fn full_key(pos: &Chess) -> u64 {
    let z: Zobrist64 = pos.zobrist_hash(EP_MODE);
    z.0 ^ rook_file_part(pos.castles())
}

/// What the castling rights add to the key: Polyglot's number for each right
/// and the rook-file number of each right off the corners.
#[inline]
fn castling_part(castles: &Castles) -> u64 {
    let mut k = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    k ^ rook_file_part(castles)
}

/// The rook-file numbers of the castling rights.
#[inline]
fn rook_file_part(castles: &Castles) -> u64 {
    let mut k = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if let Some(rook) = castles.rook(color, side) {
                k ^= ROOK_FILE_KEYS[color as usize][usize::from(rook.file())];
            }
        }
    }
    k
}

/// The key of `after`, the position reached by playing the legal move `m`
/// from `pos` (whose key is `key`), updated incrementally: the moved,
/// captured and promoted pieces, castling rights, the en passant file and the
/// side to move. Callers have played the move already; `after` is only read.
pub fn next_key(pos: &Chess, after: &Chess, key: u64, m: Move) -> u64 {
    let turn = pos.turn();
    let mut k = Zobrist64(key);
    k ^= Zobrist64::zobrist_for_white_turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= Zobrist64::zobrist_for_piece(from, role.of(turn));
            k ^= Zobrist64::zobrist_for_piece(to, promotion.unwrap_or(role).of(turn));
            if let Some(c) = capture {
                k ^= Zobrist64::zobrist_for_piece(to, c.of(!turn));
            }
        }
        Move::EnPassant { from, to } => {
            k ^= Zobrist64::zobrist_for_piece(from, Role::Pawn.of(turn));
            k ^= Zobrist64::zobrist_for_piece(to, Role::Pawn.of(turn));
            let captured = shakmaty::Square::from_coords(to.file(), from.rank());
            k ^= Zobrist64::zobrist_for_piece(captured, Role::Pawn.of(!turn));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            k ^= Zobrist64::zobrist_for_piece(king, Role::King.of(turn));
            k ^= Zobrist64::zobrist_for_piece(rook, Role::Rook.of(turn));
            k ^= Zobrist64::zobrist_for_piece(side.king_to(turn), Role::King.of(turn));
            k ^= Zobrist64::zobrist_for_piece(side.rook_to(turn), Role::Rook.of(turn));
        }
        Move::Put { .. } => unreachable!("no drops in standard chess"),
    }
    // Castling rights and en passant depend on the resulting position; the
    // rights change only when a king or rook square is touched, and an en
    // passant square exists only after a double pawn push.
    let before = pos.castles().castling_rights();
    let touched = before.contains(m.from().expect("standard moves have a from square"))
        || before.contains(m.to())
        || matches!(m, Move::Castle { .. })
        || m.role() == Role::King;
    let old_ep = pos.ep_square(EP_MODE);
    let double_push = m.role() == Role::Pawn
        && m.from()
            .is_some_and(|f| shakmaty::Square::distance(f, m.to()) == 2);
    if touched || old_ep.is_some() || double_push {
        if touched {
            k.0 ^= castling_part(pos.castles()) ^ castling_part(after.castles());
        }
        if let Some(sq) = old_ep {
            k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
        }
        if double_push && let Some(sq) = after.ep_square(EP_MODE) {
            k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
        }
    }
    k.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::chess960::{POSITIONS, dfrc_fen};
    use crate::rng::SplitMix64;

    /// Plays a seeded random game from `board` and checks, after every move,
    /// the incremental key against the key from scratch and against the key
    /// of a board read back from the FEN (in the board's castling mode).
    /// Returns the castling moves played and the moves that dropped rights.
    fn random_walk(mut board: Board, seed: u64, plies: usize) -> (usize, usize) {
        let chess960 = board.castling_mode().is_chess960();
        let mut rng = SplitMix64::new(seed);
        let (mut castles, mut drops) = (0, 0);
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.next_u64() as usize % moves.len()];
            let rights = board.pos().castles().castling_rights();
            board.play(m);
            castles += usize::from(m.is_castle());
            drops += usize::from(board.pos().castles().castling_rights() != rights);
            let context = || format!("after {m:?} in {}", board.fen());
            assert_eq!(board.key(), full_key(board.pos()), "{}", context());
            let read = Board::from_fen_960(&board.fen(), chess960).unwrap();
            assert_eq!(read.key(), board.key(), "{}", context());
        }
        (castles, drops)
    }

    #[test]
    fn incremental_key_matches_full_key() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ];
        for (i, fen) in fens.iter().enumerate() {
            for seed in 0..40 {
                random_walk(Board::from_fen(fen).unwrap(), seed * 31 + i as u64, 200);
            }
        }
    }

    /// Random games from random DFRC starts, their rooks and kings thinned
    /// out first by random play with the pawns: castling of every shape
    /// (king or rook not moving, king on the b- or g-file, rook beside the
    /// king) and rights dropped by king and rook moves and captures.
    #[test]
    fn incremental_key_matches_full_key_in_dfrc_games() {
        let mut rng = SplitMix64::new(960);
        let (mut castles, mut drops) = (0, 0);
        for game in 0..300 {
            let white = (rng.next_u64() % u64::from(POSITIONS)) as u16;
            let black = (rng.next_u64() % u64::from(POSITIONS)) as u16;
            let board = Board::from_fen_960(&dfrc_fen(white, black).unwrap(), true).unwrap();
            let (c, d) = random_walk(board, game, 160);
            castles += c;
            drops += d;
        }
        assert!(castles > 50, "the games must castle: {castles}");
        assert!(drops > 500, "the games must drop rights: {drops}");
    }

    #[test]
    fn polyglot_start_key() {
        // The Polyglot key of the start position, from the Polyglot book format.
        assert_eq!(Board::default().key(), 0x463b96181691fc9c);
        // The same position read as Chess960 (rooks in the corners).
        let start = dfrc_fen(crate::chess960::STANDARD, crate::chess960::STANDARD).unwrap();
        assert_eq!(
            Board::from_fen_960(&start, true).unwrap().key(),
            0x463b96181691fc9c
        );
    }

    /// Two positions alike but for which rook holds the queen-side right:
    /// different moves (only the b-file rook can castle), different keys.
    #[test]
    fn rights_of_different_rooks_have_different_keys() {
        let a = Board::from_fen_960("4k3/8/8/8/8/8/8/RR2K3 w A - 0 1", true).unwrap();
        let b = Board::from_fen_960("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", true).unwrap();
        assert_ne!(a.legal_moves(), b.legal_moves());
        assert_ne!(a.key(), b.key());
        assert_eq!(a.key(), full_key(a.pos()));
        assert_eq!(b.key(), full_key(b.pos()));
    }

    /// Every subset of a DFRC start's four rights gives its own key.
    #[test]
    fn positions_differing_only_in_castling_rights_have_different_keys() {
        for (white, black) in [(0, 959), (17, 300), (518, 519), (959, 959)] {
            let fen = dfrc_fen(white, black).unwrap();
            let fields: Vec<&str> = fen.split(' ').collect();
            let letters: Vec<char> = fields[2].chars().collect();
            let mut keys = std::collections::BTreeSet::new();
            for subset in 0..16u32 {
                let rights: String = (0..4)
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| letters[i])
                    .collect();
                let rights = if rights.is_empty() {
                    "-".into()
                } else {
                    rights
                };
                let text = format!("{} w {rights} - 0 1", fields[0]);
                let board = Board::from_fen_960(&text, true).unwrap();
                assert_eq!(
                    board.pos().castles().castling_rights().count(),
                    subset.count_ones() as usize
                );
                keys.insert(board.key());
            }
            assert_eq!(keys.len(), 16, "{fen}");
        }
    }
}
