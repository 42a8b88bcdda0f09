//! Bitboard helpers the terms share: colour-relative ranks, whole-set pawn
//! attacks and forward fills, and per-square masks built at compile time.

use shakmaty::{Bitboard, Color, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Array index of a colour (Black 0, White 1, as shakmaty numbers them).
#[inline]
pub const fn ci(c: Color) -> usize {
    c as usize
}

/// The rank of `sq` counted from `c`'s back rank (0..7).
#[inline]
pub const fn relative_rank(c: Color, sq: Square) -> usize {
    match c {
        Color::White => sq.rank().to_usize(),
        Color::Black => 7 - sq.rank().to_usize(),
    }
}

/// All squares attacked by the pawns `pawns` of colour `c`.
#[inline]
pub const fn pawn_attacks_bb(c: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match c {
        Color::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    })
}

/// `bb` moved one rank toward `c`'s opponent.
#[inline]
pub const fn forward(c: Color, bb: Bitboard) -> Bitboard {
    Bitboard(match c {
        Color::White => bb.0 << 8,
        Color::Black => bb.0 >> 8,
    })
}

/// `bb` together with every square in front of it (from `c`'s side).
#[inline]
pub const fn fill_forward(c: Color, bb: Bitboard) -> Bitboard {
    let mut x = bb.0;
    match c {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
        }
        Color::Black => {
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
        }
    }
    Bitboard(x)
}

/// The files beside `file` (one or two of them).
pub static ADJACENT_FILES: [Bitboard; 8] = {
    let mut t = [Bitboard(0); 8];
    let mut f = 0;
    while f < 8 {
        let mut m = 0;
        if f > 0 {
            m |= FILE_A << (f - 1);
        }
        if f < 7 {
            m |= FILE_A << (f + 1);
        }
        t[f] = Bitboard(m);
        f += 1;
    }
    t
};

/// Squares on the ranks strictly in front of a square, from `c`'s side:
/// `FORWARD_RANKS[ci(c)][sq]`.
pub static FORWARD_RANKS: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let rank = sq / 8;
        // Black (index 0) looks toward rank 1, White (index 1) toward rank 8.
        t[0][sq] = Bitboard((1u64 << (8 * rank)) - 1);
        t[1][sq] = Bitboard(if rank == 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        });
        sq += 1;
    }
    t
};

/// Squares in front of a square on its own file, from `c`'s side.
pub static FORWARD_FILE: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            t[c][sq] = Bitboard(FORWARD_RANKS[c][sq].0 & (FILE_A << (sq % 8)));
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Squares in front of a square on its own and the adjacent files: a pawn
/// is passed when no enemy pawn stands there.
pub static PASSED_SPAN: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard(0); 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let files = (FILE_A << (sq % 8)) | ADJACENT_FILES[sq % 8].0;
            t[c][sq] = Bitboard(FORWARD_RANKS[c][sq].0 & files);
            sq += 1;
        }
        c += 1;
    }
    t
};

/// The squares of `c`'s relative rank `rank` (0..7).
#[inline]
pub const fn relative_rank_bb(c: Color, rank: usize) -> Bitboard {
    let r = match c {
        Color::White => rank,
        Color::Black => 7 - rank,
    };
    Bitboard(0xff << (8 * r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::attacks;

    #[test]
    fn pawn_attack_sets_match_per_square_attacks() {
        for c in Color::ALL {
            for sq in Square::ALL {
                let one = Bitboard::from_square(sq);
                assert_eq!(pawn_attacks_bb(c, one), attacks::pawn_attacks(c, sq));
            }
        }
    }

    #[test]
    fn spans_and_fills() {
        let e4 = Square::E4;
        assert!(PASSED_SPAN[ci(Color::White)][e4 as usize].contains(Square::D7));
        assert!(PASSED_SPAN[ci(Color::White)][e4 as usize].contains(Square::F5));
        assert!(!PASSED_SPAN[ci(Color::White)][e4 as usize].contains(Square::E4));
        assert!(PASSED_SPAN[ci(Color::Black)][e4 as usize].contains(Square::D3));
        assert!(!PASSED_SPAN[ci(Color::Black)][e4 as usize].contains(Square::C3));
        assert_eq!(FORWARD_FILE[ci(Color::White)][e4 as usize].count(), 4);
        assert_eq!(FORWARD_FILE[ci(Color::Black)][e4 as usize].count(), 3);
        assert_eq!(
            FORWARD_RANKS[ci(Color::White)][Square::H8 as usize].count(),
            0
        );
        assert_eq!(
            fill_forward(Color::Black, Bitboard::from_square(e4)).count(),
            4
        );
        assert_eq!(ADJACENT_FILES[0].count(), 8);
        assert_eq!(ADJACENT_FILES[3].count(), 16);
        assert_eq!(relative_rank(Color::Black, Square::E7), 1);
        assert!(relative_rank_bb(Color::Black, 6).contains(Square::A2));
    }
}
