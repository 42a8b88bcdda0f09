//! A Polyglot opening book (`.bin`): 16-byte big-endian records (key, move,
//! weight, learn) sorted by key. Reading and checking the file, the
//! Polyglot key of a position, and the book's moves for a position.

use crate::board::Board;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    CastlingSide, Chess, Color, EnPassantMode, File, Move, Position, Role, Square, attacks,
};
use std::path::Path;

/// Bytes of one record.
const RECORD: usize = 16;
/// The largest book read into memory (the biggest public books are a few
/// hundred megabytes).
const MAX_BYTES: u64 = 1 << 30;

/// One record of the book.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub key: u64,
    /// Polyglot's move: to (bits 0-5), from (6-11), promotion (12-14).
    pub raw_move: u16,
    pub weight: u16,
}

/// A book read and checked.
#[derive(Clone, Debug)]
pub struct Book {
    entries: Vec<BookEntry>,
}

/// A book move of a position, with its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WeightedMove {
    pub mv: Move,
    pub weight: u16,
}

impl Book {
    /// Reads a book; a file that is missing, not a regular file, of a size
    /// that is no whole number of records, empty, or not sorted is refused
    /// with the reason.
    pub fn load(path: &Path) -> Result<Book, String> {
        let shown = path.display();
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("{shown} is not a regular file"));
        }
        if meta.len() > MAX_BYTES {
            return Err(format!("{shown} is larger than {MAX_BYTES} bytes"));
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        Book::from_bytes(&bytes).map_err(|e| format!("{shown}: {e}"))
    }

    /// Parses and checks the bytes of a book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.is_empty() {
            return Err("empty book".to_string());
        }
        if !bytes.len().is_multiple_of(RECORD) {
            return Err(format!(
                "truncated or not a Polyglot book ({} bytes, not a multiple of {RECORD})",
                bytes.len()
            ));
        }
        let entries: Vec<BookEntry> = bytes.chunks_exact(RECORD).map(parse_record).collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(format!(
                "corrupt: records not sorted by key (record {} of {})",
                i + 2,
                entries.len()
            ));
        }
        Ok(Book { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal book moves of the board's position, in the book's order
    /// (records whose move is not legal there are left out); none for a
    /// position its Polyglot key does not name (`key_names_castling`).
    pub fn moves(&self, board: &Board) -> Vec<WeightedMove> {
        if !key_names_castling(board.pos()) {
            return Vec::new();
        }
        let key = polyglot_key(board);
        let start = self.entries.partition_point(|e| e.key < key);
        let legal = board.legal_moves();
        self.entries[start..]
            .iter()
            .take_while(|e| e.key == key)
            .filter_map(|e| {
                let mv = decode_move(e.raw_move, &legal)?;
                Some(WeightedMove {
                    mv,
                    weight: e.weight,
                })
            })
            .collect()
    }
}

fn parse_record(r: &[u8]) -> BookEntry {
    let mut key = [0u8; 8];
    key.copy_from_slice(&r[0..8]);
    BookEntry {
        key: u64::from_be_bytes(key),
        raw_move: u16::from_be_bytes([r[8], r[9]]),
        weight: u16::from_be_bytes([r[10], r[11]]),
    }
}

/// The Polyglot key of the board's position (shakmaty's Zobrist keys use
/// Polyglot's random numbers; Polyglot counts en passant only when a pawn
/// stands ready to take).
pub fn polyglot_key(board: &Board) -> u64 {
    let z: Zobrist64 = board.pos().zobrist_hash(EnPassantMode::PseudoLegal);
    z.0
}

/// Does the Polyglot key name this position's castling rights? It says
/// which sides may castle, not with which rook: a Chess960 right held by a
/// rook with another of its colour further out on the wing (X-FEN writes
/// its file, not K or Q) shares its key with the position where the outer
/// rook holds it, which castles otherwise. Every standard position, and a
/// Chess960 one whose rights lie with the outer rooks, is named.
fn key_names_castling(pos: &Chess) -> bool {
    let castles = pos.castles();
    let board = pos.board();
    Color::ALL.into_iter().all(|color| {
        let rooks = board.rooks() & board.by_color(color);
        CastlingSide::ALL.into_iter().all(|side| {
            castles.rook(color, side).is_none_or(|rook| {
                let edge = match side {
                    CastlingSide::KingSide => File::H,
                    CastlingSide::QueenSide => File::A,
                };
                let corner = Square::from_coords(edge, rook.rank());
                let beyond = attacks::between(rook, corner).with(corner).without(rook);
                (beyond & rooks).is_empty()
            })
        })
    })
}

/// The legal move a Polyglot move stands for. Castling is written king
/// takes own rook (e1h1), which is also how shakmaty names a castle's
/// destination; a book that writes e1g1 is understood too.
fn decode_move(raw: u16, legal: &[Move]) -> Option<Move> {
    let to = Square::new(u32::from(raw & 0x3f));
    let from = Square::new(u32::from((raw >> 6) & 0x3f));
    let promotion = match (raw >> 12) & 0x7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    let exact = legal
        .iter()
        .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == promotion);
    exact
        .or_else(|| {
            legal.iter().find(|m| match m {
                Move::Castle { king, rook } => {
                    *king == from && castle_king_target(*king, *rook) == to
                }
                _ => false,
            })
        })
        .copied()
}

/// Where the king lands when it castles with `rook` (g- or c-file).
fn castle_king_target(king: Square, rook: Square) -> Square {
    let file = if rook > king { 6 } else { 2 };
    Square::new(u32::from(king.rank()) * 8 + file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: u64, raw_move: u16, weight: u16) -> Vec<u8> {
        let mut r = key.to_be_bytes().to_vec();
        r.extend(raw_move.to_be_bytes());
        r.extend(weight.to_be_bytes());
        r.extend(0u32.to_be_bytes());
        r
    }

    /// Polyglot's move code of from → to (no promotion).
    fn code(from: Square, to: Square) -> u16 {
        (u32::from(from) << 6 | u32::from(to)) as u16
    }

    #[test]
    fn the_start_position_has_polyglots_documented_key() {
        assert_eq!(polyglot_key(&Board::default()), 0x463b96181691fc9c);
        let mut b = Board::default();
        b.play_uci("e2e4").unwrap();
        assert_eq!(polyglot_key(&b), 0x823c9b50fd114196);
    }

    #[test]
    fn castling_is_read_in_both_spellings() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let key = polyglot_key(&b);
        let mut bytes = record(key, code(Square::E1, Square::H1), 5);
        bytes.extend(record(key, code(Square::E1, Square::C1), 3));
        let book = Book::from_bytes(&bytes).unwrap();
        let moves: Vec<String> = book.moves(&b).iter().map(|m| b.uci(m.mv)).collect();
        assert_eq!(moves, ["e1g1", "e1c1"]);
    }

    #[test]
    fn broken_books_are_refused() {
        assert!(Book::from_bytes(&[]).is_err());
        let mut bytes = record(2, 1, 1);
        bytes.extend(record(1, 1, 1));
        assert!(Book::from_bytes(&bytes).unwrap_err().contains("not sorted"));
        assert!(
            Book::from_bytes(&bytes[..20])
                .unwrap_err()
                .contains("truncated")
        );
    }

    /// A book of one record per (position, move) pair, each of weight 1.
    fn book_of(records: &[(&Board, &str)]) -> Book {
        let mut entries: Vec<(u64, u16)> = records
            .iter()
            .map(|(b, m)| {
                let (from, to) = (&m[0..2], &m[2..4]);
                let square = |s: &str| s.parse::<Square>().unwrap();
                (polyglot_key(b), code(square(from), square(to)))
            })
            .collect();
        entries.sort();
        let bytes: Vec<u8> = entries.iter().flat_map(|&(k, m)| record(k, m, 1)).collect();
        Book::from_bytes(&bytes).unwrap()
    }

    fn book_moves(book: &Book, b: &Board) -> Vec<String> {
        book.moves(b).iter().map(|m| b.uci(m.mv)).collect()
    }

    /// In Chess960 mode the standard start and a standard position are
    /// what a standard book knows: found, castling written king takes rook.
    #[test]
    fn chess960_mode_reads_a_standard_book() {
        let start = crate::chess960::chess960_fen(crate::chess960::STANDARD).unwrap();
        let start960 = Board::from_fen_960(&start, true).unwrap();
        let castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let castling960 = Board::from_fen_960(castling, true).unwrap();
        let book = book_of(&[
            (&Board::default(), "e2e4"),
            (&Board::from_fen(castling).unwrap(), "e1h1"),
        ]);
        assert_eq!(book_moves(&book, &start960), ["e2e4"]);
        assert_eq!(book_moves(&book, &castling960), ["e1h1"]);
    }

    /// Polyglot's key says which sides may castle, not with which rook. A
    /// Chess960 right held by the inner of two rooks on a wing (the b1 rook,
    /// the a1 rook beside it) shares its key with the position where the
    /// outer rook holds it, which castles otherwise: the book is not
    /// consulted there. A DFRC start, one rook on each wing, is named by
    /// its key: a Chess960 book in Polyglot's format is read.
    #[test]
    fn a_key_that_does_not_name_the_castling_rook_finds_nothing() {
        let outer = Board::from_fen_960("4k3/8/8/8/8/8/8/RR2K3 w A - 0 1", true).unwrap();
        let inner = Board::from_fen_960("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", true).unwrap();
        assert_eq!(polyglot_key(&outer), polyglot_key(&inner));
        let dfrc = crate::chess960::dfrc_fen(0, 959).unwrap();
        let dfrc = Board::from_fen_960(&dfrc, true).unwrap();
        let book = book_of(&[(&outer, "e1d2"), (&dfrc, "d1c3")]);
        assert_eq!(book_moves(&book, &outer), ["e1d2"]);
        assert_eq!(book_moves(&book, &inner), Vec::<String>::new());
        assert_eq!(book_moves(&book, &dfrc), ["d1c3"]);
    }
}
