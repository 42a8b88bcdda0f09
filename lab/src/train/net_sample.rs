//! One training position for the network trainer: its pieces as White sees
//! them, the kings' squares (which pick each side's king bucket), the side to
//! move and the label; the inputs each side sees through a layout; and the
//! position mirrored left to right.

use shakmaty::{Board, Color, Piece, Role, Square};
use stockman::nnue::{KingBuckets, View, feature, output_bucket};

/// Pieces on a board, at most.
const MAX_PIECES: usize = 32;

/// One training position: the inputs as White sees them (`nnue::feature`),
/// the kings' squares, the side to move and its expected result.
#[derive(Clone)]
pub struct Sample {
    white: [u16; MAX_PIECES],
    count: u8,
    /// Each side's king square (index: `Color as usize`); a1 for a board
    /// without one, as the engine sees it.
    kings: [u8; 2],
    white_to_move: bool,
    label: f32,
}

impl Sample {
    pub fn new(board: &Board, turn: Color, white_result: f32) -> Result<Sample, String> {
        let mut white = [0u16; MAX_PIECES];
        let mut count = 0;
        for (square, piece) in board {
            if count == MAX_PIECES {
                return Err("more than 32 pieces".to_string());
            }
            white[count] = feature(Color::White, piece, square) as u16;
            count += 1;
        }
        let king = |side| board.king_of(side).unwrap_or(Square::A1) as u8;
        // The label is White's result; the network speaks for the side to move.
        let label = if turn == Color::White {
            white_result
        } else {
            1.0 - white_result
        };
        Ok(Sample {
            white,
            count: count as u8,
            kings: [king(Color::Black), king(Color::White)],
            white_to_move: turn == Color::White,
            label,
        })
    }

    /// The side to move's expected result.
    #[inline(always)]
    pub fn label(&self) -> f32 {
        self.label
    }

    /// The same position with files a and h swapped, which has the same
    /// value by the rules' symmetry, or `None` where it may not: a king and
    /// one of its rooks on their starting squares may still castle, and
    /// castling is not symmetric (the inputs do not say whether it may).
    pub fn file_mirrored(&self) -> Option<Sample> {
        if self.may_castle() {
            return None;
        }
        let mut mirror = self.clone();
        for f in &mut mirror.white[..mirror.count as usize] {
            // Squares are the low six bits of a feature, files the low three.
            *f ^= 7;
        }
        for king in &mut mirror.kings {
            *king ^= 7;
        }
        Some(mirror)
    }

    /// Whether a king and a rook of its colour stand on their starting squares.
    fn may_castle(&self) -> bool {
        let pieces = &self.white[..self.count as usize];
        let on = |color, role, square| {
            pieces.contains(&(feature(Color::White, Piece { color, role }, square) as u16))
        };
        [
            (Color::White, Square::E1, Square::A1, Square::H1),
            (Color::Black, Square::E8, Square::A8, Square::H8),
        ]
        .into_iter()
        .any(|(color, king, a, h)| {
            on(color, Role::King, king) && (on(color, Role::Rook, a) || on(color, Role::Rook, h))
        })
    }

    /// The output layer of this position in a network of `buckets`.
    #[inline(always)]
    pub fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.count as usize, buckets)
    }

    /// How the side to move (`half` 0) or the other side (1) sees the
    /// position through `kings`: its weight set and mirror.
    #[inline(always)]
    pub fn view(&self, half: usize, kings: &KingBuckets) -> View {
        let side = if self.white_to_move == (half == 0) {
            Color::White
        } else {
            Color::Black
        };
        kings.view(side, Square::new(u32::from(self.kings[side as usize])))
    }

    /// The inputs `view` sees, each below `INPUTS`, within its weight set.
    #[inline(always)]
    pub fn inputs(&self, view: View) -> impl Iterator<Item = usize> + '_ {
        self.white[..self.count as usize].iter().map(move |&f| {
            let f = usize::from(f);
            // White's own pieces come first in White's view.
            let color = if f < 384 { Color::White } else { Color::Black };
            let role = Role::ALL[(f % 384) / 64];
            let square = Square::new((f % 64) as u32);
            view.feature(Piece { color, role }, square)
        })
    }
}

#[cfg(test)]
pub(crate) fn sample(fen: &str, result: f32) -> Sample {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    Sample::new(pos.board(), pos.turn(), result).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::king_layouts::{NAMES, king_layout};
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    #[test]
    fn a_file_mirror_is_the_mirrored_position_unless_castling_may_be_possible() {
        let sorted = |s: &Sample| {
            let mut f = s.white[..s.count as usize].to_vec();
            f.sort_unstable();
            (f, s.kings, s.white_to_move, s.label)
        };
        let mirrored = sample("8/5k2/8/3p4/8/2N5/1K5R/8 b - - 0 1", 0.25)
            .file_mirrored()
            .unwrap();
        let expected = sample("8/2k5/8/4p3/8/5N2/R5K1/8 b - - 0 1", 0.25);
        assert_eq!(sorted(&mirrored), sorted(&expected));
        // A king and a rook at home: castling may be possible; the king at
        // home without a rook at home, or the rook without the king: not.
        for (fen, mirrors) in [
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
            ("r3k3/8/8/8/8/8/8/4K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/R2K4 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4K1R1 w - - 0 1", true),
        ] {
            assert_eq!(sample(fen, 0.5).file_mirrored().is_some(), mirrors, "{fen}");
        }
    }

    /// The trainer's inputs are the engine's rows, for every layout, both
    /// sides, either side to move.
    #[test]
    fn inputs_are_the_engine_rows_of_each_view() {
        for fen in [
            "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
            "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
            "8/5k2/8/3p4/8/2N5/1K5R/8 b - - 0 1",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let s = sample(fen, 0.5);
            for name in NAMES {
                let layout = king_layout(name).unwrap();
                for (half, side) in [(0, pos.turn()), (1, !pos.turn())] {
                    let view = s.view(half, &layout);
                    let king = pos.board().king_of(side).unwrap();
                    assert_eq!(view, layout.view(side, king), "{name}, {fen}");
                    let mut ours: Vec<usize> = s.inputs(view).collect();
                    let mut engine: Vec<usize> = pos
                        .board()
                        .iter()
                        .map(|(sq, piece)| view.feature(piece, sq))
                        .collect();
                    ours.sort_unstable();
                    engine.sort_unstable();
                    assert_eq!(ours, engine, "{name}, {fen}");
                    if layout.is_none() {
                        // Without king buckets: the engine's plain features.
                        let mut plain: Vec<usize> = pos
                            .board()
                            .iter()
                            .map(|(sq, piece)| feature(side, piece, sq))
                            .collect();
                        plain.sort_unstable();
                        assert_eq!(ours, plain, "{fen}");
                    }
                }
            }
        }
    }
}
