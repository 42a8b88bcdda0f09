//! Double Fischer random starts for self-play: each side's back rank one of
//! the 960 Chess960 arrangements (Scharnagl's numbering, 518 the standard
//! one), drawn independently, with every castling right (Chess960 castling).

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Rank, Role, Setup, Square,
};
use stockman::rng::SplitMix64;

/// Chess960 has this many back ranks.
pub const CHESS960_ARRANGEMENTS: u16 = 960;
/// The number of the standard arrangement, RNBQKBNR.
pub const STANDARD_ARRANGEMENT: u16 = 518;

/// Where the two knights go among the five squares left after the bishops
/// and the queen (Scharnagl's table, in order).
const KNIGHT_PLACES: [(usize, usize); 10] = [
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

/// The back rank of Chess960 arrangement `n` (0..960), files a to h:
/// the light-squared bishop on b, d, f or h (n mod 4), the dark-squared one
/// on a, c, e or g (next base-4 digit), the queen on one of the six files
/// left (base 6), the knights on one of ten pairs of the five left, and
/// rook, king, rook on the last three, in that order.
pub fn chess960_back_rank(n: u16) -> Result<[Role; 8], String> {
    if n >= CHESS960_ARRANGEMENTS {
        return Err(format!(
            "Chess960 arrangement {n} is not in 0..{CHESS960_ARRANGEMENTS}"
        ));
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = usize::from(n);
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    rank[2 * ((n / 4) % 4)] = Some(Role::Bishop);
    let rest = n / 16;
    put_in_empty(&mut rank, rest % 6, Role::Queen);
    let (first, second) = KNIGHT_PLACES[rest / 6];
    // The second knight first: placing the first would shift its index.
    put_in_empty(&mut rank, second, Role::Knight);
    put_in_empty(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        put_in_empty(&mut rank, 0, role);
    }
    Ok(rank.map(|r| r.expect("all eight files are filled")))
}

/// Puts `role` on the `index`-th empty file (from a) of `rank`.
fn put_in_empty(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    let file = rank
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_none())
        .nth(index)
        .map(|(f, _)| f)
        .expect("an empty file for each piece");
    rank[file] = Some(role);
}

/// The start with White's back rank Chess960 arrangement `white` and
/// Black's arrangement `black` on the eighth rank (the same files as White
/// would have them), pawns in front, White to move, every rook's castling
/// right, for Chess960 castling.
pub fn dfrc_position(white: u16, black: u16) -> Result<Chess, String> {
    let mut board = Board::empty();
    let mut rooks = Bitboard::EMPTY;
    for (color, number) in [(Color::White, white), (Color::Black, black)] {
        let back = color.backrank();
        let pawns = color.fold_wb(Rank::Second, Rank::Seventh);
        for (file, role) in chess960_back_rank(number)?.into_iter().enumerate() {
            let file = shakmaty::File::new(file as u32);
            let square = Square::from_coords(file, back);
            board.set_piece_at(square, Piece { color, role });
            if role == Role::Rook {
                rooks.add(square);
            }
            let pawn = Piece {
                color,
                role: Role::Pawn,
            };
            board.set_piece_at(Square::from_coords(file, pawns), pawn);
        }
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.castling_rights = rooks;
    Chess::from_setup(setup, CastlingMode::Chess960)
        .map_err(|e| format!("DFRC start {white}/{black}: {e}"))
}

/// A random double Fischer random start: each side's arrangement drawn
/// on its own from `rng` (921,600 starts, the standard one among them).
pub fn random_dfrc(rng: &mut SplitMix64) -> Chess {
    let mut draw = || rng.in_range(0, i64::from(CHESS960_ARRANGEMENTS) - 1) as u16;
    let (white, black) = (draw(), draw());
    dfrc_position(white, black).expect("every pair of arrangements is a legal start")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{EnPassantMode, Position};
    use std::collections::HashSet;
    use stockman::board::parse_fen;

    fn letters(rank: [Role; 8]) -> String {
        rank.iter().map(|r| r.upper_char()).collect()
    }

    #[test]
    fn the_960_arrangements_are_all_different_and_all_legal() {
        let mut seen = HashSet::new();
        for n in 0..CHESS960_ARRANGEMENTS {
            let rank = chess960_back_rank(n).unwrap();
            let files = |role| (0..8).filter(move |&f| rank[f] == role);
            let bishops: Vec<usize> = files(Role::Bishop).collect();
            assert_eq!(bishops.len(), 2, "{n}");
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: same colour");
            let rooks: Vec<usize> = files(Role::Rook).collect();
            let king: Vec<usize> = files(Role::King).collect();
            assert_eq!((rooks.len(), king.len()), (2, 1), "{n}");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{n}");
            assert_eq!(files(Role::Queen).count(), 1, "{n}");
            assert_eq!(files(Role::Knight).count(), 2, "{n}");
            assert!(seen.insert(rank), "{n} repeats {}", letters(rank));
        }
        assert_eq!(seen.len(), 960);
        assert_eq!(
            letters(chess960_back_rank(STANDARD_ARRANGEMENT).unwrap()),
            "RNBQKBNR"
        );
        // Scharnagl's first arrangement, and the last.
        assert_eq!(letters(chess960_back_rank(0).unwrap()), "BBQNNRKR");
        assert_eq!(letters(chess960_back_rank(959).unwrap()), "RKRNNQBB");
        assert!(chess960_back_rank(960).is_err());
    }

    #[test]
    fn a_dfrc_start_has_both_sides_arrangements_and_every_castling_right() {
        let pos = dfrc_position(0, 959).unwrap();
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        assert_eq!(
            fen,
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
        assert_eq!(pos.castles().castling_rights().count(), 4);
        let standard = dfrc_position(STANDARD_ARRANGEMENT, STANDARD_ARRANGEMENT).unwrap();
        assert_eq!(standard.board(), Chess::default().board());
        // The FEN a text data file holds reads back as the same position.
        let (back, mode) = parse_fen(&fen, false).unwrap();
        assert_eq!(mode, CastlingMode::Chess960);
        assert_eq!(back.board(), pos.board());
        assert_eq!(
            back.castles().castling_rights(),
            pos.castles().castling_rights()
        );
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
