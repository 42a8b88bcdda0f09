//! A legal sample position of a table's material (`KQvKR`), made with a
//! fixed-seed generator: what loading probes to check a table file opens.

use crate::board::Board;
use crate::rng::SplitMix64;
use shakmaty::Chess;

/// Tries before giving up on a material (every real one succeeds in a few).
const TRIES: usize = 200;

/// A legal position with exactly the pieces of `material` (white's before
/// the `v`), no castling rights, halfmove clock 0. `None` for a bad name.
pub fn position_of(material: &str) -> Option<Chess> {
    let (white, black) = material.split_once('v')?;
    let mut rng = SplitMix64::new(0x5EED_0022 ^ material.len() as u64);
    for _ in 0..TRIES {
        if let Some(board) = place(white, black, &mut rng) {
            return Some(board.pos().clone());
        }
    }
    None
}

/// One random placement, if it is legal (the side to move drawn last).
fn place(white: &str, black: &str, rng: &mut SplitMix64) -> Option<Board> {
    let squares = scatter(white, black, rng)?;
    let turn = if rng.next_u64().is_multiple_of(2) {
        'w'
    } else {
        'b'
    };
    with_turn(&squares, turn)
}

/// A random placement of `white`'s and `black`'s pieces (pawns off the back
/// ranks) with `turn` (`'w'` or `'b'`) to move, if it is legal.
pub fn random_position(
    white: &str,
    black: &str,
    turn: char,
    rng: &mut SplitMix64,
) -> Option<Board> {
    with_turn(&scatter(white, black, rng)?, turn)
}

/// The pieces dropped one by one on random free squares.
fn scatter(white: &str, black: &str, rng: &mut SplitMix64) -> Option<[Option<char>; 64]> {
    let mut squares: [Option<char>; 64] = [None; 64];
    let pieces = white
        .chars()
        .map(|c| c.to_ascii_uppercase())
        .chain(black.chars().map(|c| c.to_ascii_lowercase()));
    for piece in pieces {
        let pawn = piece.eq_ignore_ascii_case(&'p');
        let free: Vec<usize> = (0..64)
            .filter(|&sq| squares[sq].is_none() && (!pawn || (8..56).contains(&sq)))
            .collect();
        if free.is_empty() {
            return None;
        }
        squares[free[(rng.next_u64() % free.len() as u64) as usize]] = Some(piece);
    }
    Some(squares)
}

fn with_turn(squares: &[Option<char>; 64], turn: char) -> Option<Board> {
    Board::from_fen(&format!("{} {turn} - - 0 1", placement(squares))).ok()
}

/// The piece-placement field of a FEN (rank 8 first).
fn placement(squares: &[Option<char>; 64]) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out += &empty.to_string();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn every_small_material_has_a_legal_sample() {
        for m in ["KvK", "KQvK", "KPvKP", "KQRvKB", "KPPPvKPP"] {
            let pos = position_of(m).unwrap_or_else(|| panic!("{m}"));
            assert_eq!(pos.board().occupied().count(), m.len() - 1, "{m}");
        }
        assert!(position_of("KQK").is_none());
    }
}
