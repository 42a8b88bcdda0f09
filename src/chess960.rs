//! The Chess960 start positions by Scharnagl number (0..960, 518 being
//! the standard one) and double Fischer random (DFRC) starts, one number per
//! side, as FENs with Shredder castling rights (rook files: `HAha`).

use shakmaty::Role;

/// The number of Chess960 start positions.
pub const POSITIONS: u16 = 960;
/// Scharnagl's number of the standard start position (RNBQKBNR).
pub const STANDARD: u16 = 518;

/// The squares of the two knights among the five left empty by the bishops
/// and the queen, for each of the ten knight numbers.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank of start position `number`, from the a-file to the h-file;
/// `None` outside 0..960. The bishops first (light-squared, then
/// dark-squared: four files each), the queen on one of the six squares left,
/// the knights on two of the five left (ten ways), then rook, king, rook.
pub fn back_rank(number: u16) -> Option<[Role; 8]> {
    if number >= POSITIONS {
        return None;
    }
    let n = usize::from(number);
    let mut rank: [Option<Role>; 8] = [None; 8];
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    rank[2 * (n / 4 % 4)] = Some(Role::Bishop);
    let n = n / 16;
    put_on_empty(&mut rank, n % 6, Role::Queen);
    let (first, second) = KNIGHTS[n / 6];
    // The second knight's index counts the squares still empty after the first.
    put_on_empty(&mut rank, first, Role::Knight);
    put_on_empty(&mut rank, second - 1, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        put_on_empty(&mut rank, 0, role);
    }
    Some(rank.map(|r| r.expect("all eight squares are filled")))
}

/// Puts `role` on the `index`-th empty square of `rank`.
fn put_on_empty(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    let square = rank
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_none())
        .nth(index)
        .map(|(file, _)| file)
        .expect("the numbering leaves enough empty squares");
    rank[square] = Some(role);
}

/// The FEN of the DFRC start with White's back rank `white` and Black's
/// `black` (Black's mirrored onto the eighth rank), every castling right
/// given by its rook's file. `None` when a number is outside 0..960.
pub fn dfrc_fen(white: u16, black: u16) -> Option<String> {
    let (w, b) = (back_rank(white)?, back_rank(black)?);
    let row = |rank: &[Role; 8], upper: bool| -> String {
        rank.iter()
            .map(|r| {
                let c = r.char();
                if upper { c.to_ascii_uppercase() } else { c }
            })
            .collect()
    };
    let castling = rook_files(&w).to_ascii_uppercase() + &rook_files(&b);
    Some(format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {castling} - 0 1",
        row(&b, false),
        row(&w, true)
    ))
}

/// The FEN of Chess960 start position `number` (both sides alike).
pub fn chess960_fen(number: u16) -> Option<String> {
    dfrc_fen(number, number)
}

/// The files of a back rank's rooks, the king-side one first (Shredder
/// castling letters, lower case).
fn rook_files(rank: &[Role; 8]) -> String {
    let files = b"abcdefgh";
    rank.iter()
        .enumerate()
        .rev()
        .filter(|&(_, &r)| r == Role::Rook)
        .map(|(i, _)| char::from(files[i]))
        .collect()
}

/// Chess960 positions (Shredder castling rights) with castling of every
/// shape, for the tests of what the search does with it: (what it shows, FEN).
pub const CASTLING_POSITIONS: &[(&str, &str)] = &[
    (
        "kings on g1/g8 beside their h-file rooks: castling king-side the king stays",
        "r5kr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R5KR w HAha - 0 1",
    ),
    (
        "the same, Black to move",
        "r5kr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/R5KR b HAha - 0 1",
    ),
    (
        "kings on b1/b8 beside their a-file rooks, both castlings open",
        "rk5r/pp3ppp/2p5/3pp3/3PP3/2P5/PP3PPP/RK5R w HAha - 0 1",
    ),
    (
        "rooks beside the e-file king on d and f: castling moves the king only",
        "3rkr2/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/3RKR2 w FDfd - 0 1",
    ),
    (
        "king on f1 beside its g-file rook",
        "1r3kr1/pp3ppp/8/2ppp3/2PPP3/8/PP3PPP/1R3KR1 w GBgb - 0 1",
    ),
    (
        "the nearer of two king-side rooks holds the right (king b1, rooks c1 and h1)",
        "1k5r/8/8/8/8/8/8/1KR4R w C - 0 1",
    ),
    (
        "no castling: either way crosses c1, which a rook attacks",
        "4k3/8/8/8/8/8/2r5/RK5R w HA - 0 1",
    ),
    (
        "no castling: the rook shields its king from a queen",
        "4k3/8/8/8/8/8/8/qR1K4 w B - 0 1",
    ),
    (
        "no castling: a DFRC game in the middle, rights on both wings, blocked",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ),
    (
        "Black to move between its c- and f-file rooks: the rooks on b1 and g1 leave only c8",
        "2r1kr2/8/8/8/8/8/8/1R2K1R1 b GBfc - 0 1",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, CastlingSide, Chess, Color, Position};
    use std::collections::BTreeSet;

    /// A Chess960 position read by shakmaty.
    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Chess960).unwrap()
    }

    fn letters(number: u16) -> String {
        back_rank(number)
            .unwrap()
            .iter()
            .map(|r| r.upper_char())
            .collect()
    }

    #[test]
    fn scharnagl_numbers_name_the_known_positions() {
        // Numbers from the Chess960 numbering scheme's published table.
        assert_eq!(letters(0), "BBQNNRKR");
        assert_eq!(letters(STANDARD), "RNBQKBNR");
        assert_eq!(letters(959), "RKRNNQBB");
        assert_eq!(letters(1), "BQNBNRKR");
        assert_eq!(back_rank(POSITIONS), None);
        assert_eq!(dfrc_fen(0, POSITIONS), None);
    }

    #[test]
    fn the_960_back_ranks_are_distinct_and_follow_the_rules() {
        let mut seen = BTreeSet::new();
        for n in 0..POSITIONS {
            let rank = back_rank(n).unwrap();
            let at = |role| -> Vec<usize> { (0..8).filter(|&i| rank[i] == role).collect() };
            let (bishops, rooks, king) = (at(Role::Bishop), at(Role::Rook), at(Role::King));
            assert!(bishops[0] % 2 != bishops[1] % 2, "{n}: bishops");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{n}: king");
            assert_eq!(at(Role::Knight).len(), 2);
            assert_eq!(at(Role::Queen).len(), 1);
            seen.insert(rank);
        }
        assert_eq!(seen.len(), usize::from(POSITIONS));
    }

    #[test]
    fn dfrc_starts_are_legal_positions_with_four_castling_rights() {
        for (white, black) in [(0, 959), (STANDARD, 17), (300, 300), (959, 0)] {
            let fen = dfrc_fen(white, black).unwrap();
            let board = position(&fen);
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    assert!(board.castles().has(color, side), "{fen}");
                }
            }
            // Pawn moves and knight jumps only: no castling through pieces.
            assert!(board.legal_moves().iter().all(|m| !m.is_castle()), "{fen}");
        }
        assert_eq!(
            chess960_fen(STANDARD).unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn the_castling_positions_castle_as_described() {
        let mut castles = 0;
        for (what, fen) in CASTLING_POSITIONS {
            let board = position(fen);
            let n = board.legal_moves().iter().filter(|m| m.is_castle()).count();
            assert_eq!(
                n == 0,
                what.starts_with("no castling"),
                "{what}: {n} castles"
            );
            castles += n;
        }
        assert_eq!(castles, 12);
    }
}
