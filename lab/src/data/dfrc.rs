//! Double Fischer random starts for self-play: each side's back rank one of
//! the 960 Chess960 arrangements (`stockman::chess960`'s numbering), drawn
//! independently from the game's generator, with every castling right.

use shakmaty::Chess;
use stockman::board::parse_fen;
use stockman::chess960::{POSITIONS, dfrc_fen};
use stockman::rng::SplitMix64;

/// A random double Fischer random start: each side's arrangement drawn
/// on its own from `rng` (921,600 starts, the standard one among them),
/// for Chess960 castling.
pub fn random_dfrc(rng: &mut SplitMix64) -> Chess {
    let mut draw = || rng.in_range(0, i64::from(POSITIONS) - 1) as u16;
    let (white, black) = (draw(), draw());
    let fen = dfrc_fen(white, black).expect("both numbers are below 960");
    parse_fen(&fen, true)
        .expect("every pair of arrangements is a legal start")
        .0
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, Position, Rank, Role, Square};
    use std::collections::HashSet;

    #[test]
    fn a_dfrc_start_reads_back_from_the_fen_a_text_data_file_holds() {
        let mut rng = SplitMix64::new(5);
        for _ in 0..200 {
            let pos = random_dfrc(&mut rng);
            assert_eq!(pos.castles().castling_rights().count(), 4);
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            let (back, mode) = parse_fen(&fen, false).unwrap();
            assert_eq!(back.board(), pos.board(), "{fen}");
            assert_eq!(
                back.castles().castling_rights(),
                pos.castles().castling_rights(),
                "{fen}"
            );
            let standard_rooks = pos.castles().castling_rights()
                == shakmaty::Bitboard::from_iter([Square::A1, Square::H1, Square::A8, Square::H8]);
            let standard_king = pos.board().king_of(shakmaty::Color::White) == Some(Square::E1)
                && pos.board().king_of(shakmaty::Color::Black) == Some(Square::E8);
            if !(standard_rooks && standard_king) {
                assert_eq!(mode, CastlingMode::Chess960, "{fen}");
            }
        }
    }

    #[test]
    fn random_starts_reach_every_arrangement_for_each_side_independently() {
        let mut rng = SplitMix64::new(11);
        let (mut white, mut black) = (HashSet::new(), HashSet::new());
        let mut same = 0;
        for _ in 0..20_000 {
            let pos = random_dfrc(&mut rng);
            let rank = |r| {
                (0..8)
                    .map(|f| {
                        let sq = Square::from_coords(shakmaty::File::new(f), r);
                        pos.board().role_at(sq).unwrap()
                    })
                    .collect::<Vec<Role>>()
            };
            let (w, b) = (rank(Rank::First), rank(Rank::Eighth));
            same += usize::from(w == b);
            white.insert(w);
            black.insert(b);
        }
        assert_eq!((white.len(), black.len()), (960, 960));
        // Independent draws agree about once in 960 times, not always.
        assert!(same < 200, "{same}");
    }
}
