//! The king-bucket layouts `train-net --king-buckets` names. Every one but
//! `none` is mirrored (a king on files e-h sees the board a↔h), so a layout
//! is given on files a-d; like published engines' layouts, each is finest
//! where kings spend the game, on the first ranks, and coarser up the board.

use stockman::nnue::KingBuckets;

/// The names `--king-buckets` takes, in the order `--help` lists them.
pub const NAMES: [&str; 5] = ["none", "mirror", "4", "8", "16"];

/// The layout named `name` (one of `NAMES`).
pub fn king_layout(name: &str) -> Result<KingBuckets, String> {
    let half = match name.trim().to_ascii_lowercase().as_str() {
        "none" => return Ok(KingBuckets::NONE),
        "mirror" => [0; 32],
        "4" => FOUR,
        "8" => EIGHT,
        "16" => SIXTEEN,
        other => {
            return Err(format!(
                "unknown king-bucket layout '{other}' (one of {})",
                NAMES.join(", ")
            ));
        }
    };
    KingBuckets::mirrored_half(half)
}

/// By rank: 1, 2, 3-4, 5-8.
#[rustfmt::skip]
const FOUR: [u8; 32] = [
    0, 0, 0, 0, // rank 1: files a, b, c, d
    1, 1, 1, 1, // rank 2
    2, 2, 2, 2, // rank 3
    2, 2, 2, 2, // rank 4
    3, 3, 3, 3, // rank 5
    3, 3, 3, 3, // rank 6
    3, 3, 3, 3, // rank 7
    3, 3, 3, 3, // rank 8
];

/// The first two ranks split into the corner (files a-b) and the centre
/// (c-d); then ranks 3, 4, 5-6 and 7-8.
#[rustfmt::skip]
const EIGHT: [u8; 32] = [
    0, 0, 1, 1,
    2, 2, 3, 3,
    4, 4, 4, 4,
    5, 5, 5, 5,
    6, 6, 6, 6,
    6, 6, 6, 6,
    7, 7, 7, 7,
    7, 7, 7, 7,
];

/// Every square of the first two ranks; pairs of files on ranks 3 and 4;
/// then one bucket per rank.
#[rustfmt::skip]
const SIXTEEN: [u8; 32] = [
     0,  1,  2,  3,
     4,  5,  6,  7,
     8,  8,  9,  9,
    10, 10, 11, 11,
    12, 12, 12, 12,
    13, 13, 13, 13,
    14, 14, 14, 14,
    15, 15, 15, 15,
];

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Square};

    #[test]
    fn every_name_is_a_layout_of_its_size() {
        let counts: Vec<(usize, bool)> = NAMES
            .iter()
            .map(|n| {
                let l = king_layout(n).unwrap();
                (l.count(), l.mirrored())
            })
            .collect();
        assert_eq!(
            counts,
            [(1, false), (1, true), (4, true), (8, true), (16, true)]
        );
        assert!(king_layout("5").unwrap_err().contains("one of none"));
        assert_eq!(
            king_layout(" Mirror ").unwrap(),
            king_layout("mirror").unwrap()
        );
    }

    #[test]
    fn every_bucket_is_used_and_castled_kings_share_one() {
        for name in NAMES {
            let layout = king_layout(name).unwrap();
            for bucket in 0..layout.count() {
                assert!(
                    layout.map().contains(&(bucket as u8)),
                    "{name}: bucket {bucket} unused"
                );
            }
        }
        // A king castled short (g1) is in the same bucket as on b1 by the
        // mirror; on e1 it is in the same one as on d1.
        let eight = king_layout("8").unwrap();
        let bucket = |sq| eight.view(Color::White, sq).bucket();
        assert_eq!(bucket(Square::G1), bucket(Square::B1));
        assert_eq!(bucket(Square::E1), bucket(Square::D1));
        assert_ne!(bucket(Square::E1), bucket(Square::G1));
        assert_eq!(eight.view(Color::Black, Square::G8).bucket(), 0);
    }
}
