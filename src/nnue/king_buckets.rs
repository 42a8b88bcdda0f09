//! King buckets: which of a network's input weight sets a side's view uses,
//! chosen by that side's own king square, and whether the view is mirrored
//! left to right (files a↔h) when that king stands on files e-h.

use super::INPUTS;
use shakmaty::{Board, Color, Piece, Square};

/// The most input weight sets (king buckets) a network may have: one per
/// square of a mirrored half board.
pub const MAX_KING_BUCKETS: usize = 32;

/// A king-bucket layout: each square's bucket, in the side's own view
/// (White's board as it is, Black's flipped top to bottom; a1 = 0, h8 = 63),
/// and whether a king on files e-h mirrors the view (then only files a-d
/// choose a bucket, and each square on e-h holds its mirror's bucket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    map: [u8; 64],
    count: u8,
    mirrored: bool,
}

impl KingBuckets {
    /// One weight set, no mirror: the network without king buckets.
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; 64],
        count: 1,
        mirrored: false,
    };

    /// A layout of `count` buckets from each square's bucket (own view);
    /// `mirrored`: a king on files e-h mirrors the view, and each e-h
    /// square must then hold the bucket of its mirror on a-d.
    pub fn new(map: [u8; 64], count: usize, mirrored: bool) -> Result<KingBuckets, String> {
        if !(1..=MAX_KING_BUCKETS).contains(&count) {
            return Err(format!(
                "{count} king buckets; a network has 1 to {MAX_KING_BUCKETS}"
            ));
        }
        if let Some(sq) = (0..64).find(|&sq| usize::from(map[sq]) >= count) {
            return Err(format!(
                "king bucket {} on square {} of a layout of {count}",
                map[sq],
                Square::new(sq as u32)
            ));
        }
        if mirrored && let Some(sq) = (0..64).find(|&sq| map[sq] != map[sq ^ 7]) {
            return Err(format!(
                "a mirrored king-bucket layout gives {} and its mirror {} different buckets",
                Square::new(sq as u32),
                Square::new(sq as u32 ^ 7)
            ));
        }
        Ok(KingBuckets {
            map,
            count: count as u8,
            mirrored,
        })
    }

    /// A mirrored layout from the buckets of files a-d, rank by rank from
    /// the first (a1 b1 c1 d1, a2 ...); as many buckets as it names.
    pub fn mirrored_half(half: [u8; 32]) -> Result<KingBuckets, String> {
        let map = std::array::from_fn(|sq| {
            let (rank, file) = (sq / 8, sq % 8);
            half[rank * 4 + file.min(7 - file)]
        });
        let count = usize::from(half.iter().copied().max().unwrap_or(0)) + 1;
        KingBuckets::new(map, count, true)
    }

    /// The number of input weight sets.
    pub const fn count(&self) -> usize {
        self.count as usize
    }

    /// Whether a king on files e-h mirrors its side's view.
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// Each square's bucket, in the side's own view.
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// The network without king buckets (one set, no mirror): the first
    /// two file formats.
    pub const fn is_none(&self) -> bool {
        self.count == 1 && !self.mirrored
    }

    /// How each side (index: `Color as usize`) sees `board`: its king's
    /// weight set and mirror. (A board without a king, which no game
    /// reaches, is seen as if it stood on a1.)
    #[inline(always)]
    pub fn views(&self, board: &Board) -> [View; 2] {
        if self.is_none() {
            // The same views wherever the kings are.
            return PLAIN_VIEWS;
        }
        [Color::Black, Color::White].map(|side| {
            let king = board.king_of(side).unwrap_or(Square::A1);
            self.view(side, king)
        })
    }

    /// How `perspective` sees the board with its king on `king`.
    #[inline(always)]
    pub const fn view(&self, perspective: Color, king: Square) -> View {
        let vertical = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let own = king as u8 ^ vertical;
        let horizontal = if self.mirrored && (own & 7) >= 4 {
            7
        } else {
            0
        };
        let bucket = self.map[(own & 63) as usize];
        View {
            bucket,
            flip: vertical | horizontal,
            perspective,
        }
    }
}

/// Both sides' views (index: `Color as usize`) in a network without king
/// buckets, wherever the kings stand.
pub const PLAIN_VIEWS: [View; 2] = [
    KingBuckets::NONE.view(Color::Black, Square::A1),
    KingBuckets::NONE.view(Color::White, Square::A1),
];

/// One side's view of the board: its weight set and how squares turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The king bucket: which input weight set.
    bucket: u8,
    /// XORed into a square: 56 flips Black's board top to bottom, 7 mirrors
    /// files a↔h.
    flip: u8,
    perspective: Color,
}

impl View {
    /// The input of `piece` on `square` within the view's weight set (below
    /// `INPUTS`): own pieces first, then the other side's, six roles of 64
    /// squares each.
    #[inline(always)]
    pub fn feature(self, piece: Piece, square: Square) -> usize {
        let side = usize::from(piece.color != self.perspective);
        side * 384 + (piece.role as usize - 1) * 64 + usize::from((square as u8 ^ self.flip) & 63)
    }

    /// The input row of `piece` on `square` among all the sets' rows.
    pub fn row(self, piece: Piece, square: Square) -> usize {
        self.bucket() * INPUTS + self.feature(piece, square)
    }

    /// The king bucket (the weight set).
    #[inline(always)]
    pub fn bucket(self) -> usize {
        usize::from(self.bucket)
    }

    /// Whether this view mirrors files a↔h.
    pub fn mirrors_files(self) -> bool {
        self.flip & 7 != 0
    }

    /// An index among the views of one side: bucket and mirror.
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.bucket() * 2 + usize::from(self.mirrors_files())
    }
}

#[cfg(test)]
pub(crate) fn examples() -> Vec<KingBuckets> {
    let mut by_rank = [3u8; 32];
    by_rank[..4].fill(0);
    by_rank[4..8].fill(1);
    by_rank[8..16].fill(2);
    let every_square: [u8; 32] = std::array::from_fn(|i| i as u8);
    let halves = std::array::from_fn(|sq| u8::from(sq % 8 >= 4));
    let ranks = std::array::from_fn(|sq| (sq / 8) as u8);
    vec![
        KingBuckets::mirrored_half([0; 32]).unwrap(),
        KingBuckets::mirrored_half(by_rank).unwrap(),
        KingBuckets::mirrored_half(every_square).unwrap(),
        KingBuckets::new(halves, 2, false).unwrap(),
        KingBuckets::new(ranks, 8, false).unwrap(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::feature;
    use shakmaty::Role;

    fn piece(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    #[test]
    fn without_buckets_a_view_is_the_plain_feature() {
        for perspective in [Color::White, Color::Black] {
            let view = KingBuckets::NONE.view(perspective, Square::G1);
            for sq in Square::ALL {
                for color in [Color::White, Color::Black] {
                    for role in Role::ALL {
                        let p = piece(color, role);
                        assert_eq!(view.row(p, sq), feature(perspective, p, sq));
                    }
                }
            }
        }
    }

    /// Four buckets by rank of the own king (1, 2, 3-4, 5-8), mirrored.
    fn by_rank() -> KingBuckets {
        examples()[1]
    }

    #[test]
    fn a_mirrored_layout_mirrors_the_view_of_a_king_on_files_e_to_h() {
        let layout = by_rank();
        assert_eq!(layout.count(), 4);
        let pawn = piece(Color::White, Role::Pawn);
        // White's king on g1: rank 1, mirrored; a pawn on b2 is seen on g2.
        let view = layout.view(Color::White, Square::G1);
        assert_eq!((view.bucket(), view.mirrors_files()), (0, true));
        assert_eq!(view.row(pawn, Square::B2), Square::G2 as usize);
        // Black's king on c7 is on its own second rank, not mirrored; the
        // white pawn on b2 is Black's opponent's pawn on b7 of its view.
        let view = layout.view(Color::Black, Square::C7);
        assert_eq!((view.bucket(), view.mirrors_files()), (1, false));
        assert_eq!(
            view.row(pawn, Square::B2),
            INPUTS + 384 + Square::B7 as usize
        );
        // Black's king on e3: its own sixth rank, mirrored.
        let view = layout.view(Color::Black, Square::E3);
        assert_eq!((view.bucket(), view.mirrors_files()), (3, true));
        assert_eq!(view.row(pawn, Square::H1), 3 * INPUTS + 384 + 56);
        // Each e-h square holds its mirror's bucket.
        assert_eq!(layout.map()[Square::H4 as usize], 2);
        assert_ne!(view.slot(), layout.view(Color::Black, Square::D3).slot());
    }

    #[test]
    fn bad_layouts_are_refused() {
        assert!(KingBuckets::new([0; 64], 0, false).is_err());
        assert!(KingBuckets::new([0; 64], MAX_KING_BUCKETS + 1, false).is_err());
        let mut map = [0u8; 64];
        map[5] = 2;
        assert!(KingBuckets::new(map, 2, false).is_err());
        assert!(KingBuckets::new(map, 3, false).is_ok());
        // h1 in bucket 2, a1 in 0: not a mirror image.
        assert!(KingBuckets::new(map, 3, true).is_err());
        let all: [u8; 32] = std::array::from_fn(|i| i as u8);
        assert_eq!(KingBuckets::mirrored_half(all).unwrap().count(), 32);
        assert!(KingBuckets::NONE.is_none() && !by_rank().is_none());
    }
}
