//! Correction history: by how much the search found the static evaluation
//! off in positions like this one, for the side to move. Four tables learn
//! it, keyed by the pawns, by White's other pieces, by Black's, and by the
//! last two moves; the search adds their blend to the static evaluation it
//! prunes with.

use crate::eval::pawn_hash;
use crate::score::{Depth, Score};
use crate::search::continuation::{LineContext, PIECE_SQUARES};
use shakmaty::{Bitboard, Board, Chess, Color, Position};

/// Entries per side to move in each table, indexed by this many bits of a key.
const CORRECTION_BITS: u32 = 14;
const CORRECTION_ENTRIES: usize = 1 << CORRECTION_BITS;
/// Entries hold corrections in 1/GRAIN of a centipawn.
const GRAIN: i32 = 256;
/// Weight of one update out of `WEIGHT_SCALE`: the depth plus one, at most this.
const MAX_UPDATE_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CORRECTION: i32 = 256;
/// The blend, out of `BLEND_SCALE`: the pawn table's share, each colour's
/// non-pawn table's and the continuation table's (every table learns the
/// same difference, so shares summing to the scale give that difference
/// back once they agree).
const PAWN_SHARE: i32 = 2;
const NON_PAWN_SHARE: i32 = 1;
const CONTINUATION_SHARE: i32 = 1;
const BLEND_SCALE: i32 = PAWN_SHARE + 2 * NON_PAWN_SHARE + CONTINUATION_SHARE;
/// A static evaluation this far from equal (centipawns) is taken as decided:
/// the continuation table lends it nothing. Its entries are shared by every
/// position the same two moves reach, and in a bare-king ending a handful of
/// pairs covers the whole tree: their blended correction hid the KQK mate in
/// 4 from MT-SSS* at depth 9 (`tests/mates_and_draws.rs`). The fail-low
/// credit of the prior move stays out of decided positions too.
pub(crate) const DECIDED: i32 = 1000;

/// One table: a correction per side to move and key.
struct Table(Vec<i32>);

impl Table {
    fn new() -> Table {
        Table(vec![0; 2 * CORRECTION_ENTRIES])
    }

    #[inline]
    fn slot(turn: Color, key: u64) -> usize {
        let index = (key >> (u64::BITS - CORRECTION_BITS)) as usize;
        match turn {
            Color::White => index,
            Color::Black => CORRECTION_ENTRIES + index,
        }
    }

    #[inline]
    fn get(&self, turn: Color, key: u64) -> i32 {
        self.0[Self::slot(turn, key)]
    }

    /// Moves the entry towards `diff` (in 1/GRAIN centipawns) by `weight`.
    #[inline]
    fn learn(&mut self, turn: Color, key: u64, diff: i32, weight: i32) {
        learn(&mut self.0[Self::slot(turn, key)], diff, weight);
    }
}

/// Moves a correction `entry` towards `diff` by `weight` (out of `WEIGHT_SCALE`).
#[inline]
fn learn(entry: &mut i32, diff: i32, weight: i32) {
    *entry = (*entry * (WEIGHT_SCALE - weight) + diff * weight) / WEIGHT_SCALE;
}

/// The continuation table: a correction per pair of moves, the one two
/// plies back and the one just played (the side to move follows from them).
struct ContinuationTable(Vec<i32>);

impl ContinuationTable {
    fn new() -> ContinuationTable {
        ContinuationTable(vec![0; PIECE_SQUARES * PIECE_SQUARES])
    }

    /// The entry of the line's last two moves; none at the root's first
    /// two plies or after a null move.
    #[inline]
    fn slot(line: &LineContext) -> Option<usize> {
        match *line {
            [Some(last), Some(before)] => Some(last.after(before)),
            _ => None,
        }
    }

    #[inline]
    fn get(&self, line: &LineContext) -> i32 {
        Self::slot(line).map_or(0, |i| self.0[i])
    }

    #[inline]
    fn learn(&mut self, line: &LineContext, diff: i32, weight: i32) {
        if let Some(i) = Self::slot(line) {
            learn(&mut self.0[i], diff, weight);
        }
    }
}

/// The keys of a position's three tables.
struct Keys {
    turn: Color,
    pawns: u64,
    /// White's pieces other than pawns, then Black's.
    non_pawn: [u64; 2],
}

impl Keys {
    #[inline]
    fn of(pos: &Chess) -> Keys {
        let board = pos.board();
        let pawns = board.pawns();
        Keys {
            turn: pos.turn(),
            pawns: pawn_hash([pawns & board.white(), pawns & board.black()]),
            non_pawn: [
                non_pawn_hash(board, board.white()),
                non_pawn_hash(board, board.black()),
            ],
        }
    }
}

/// A hash of where one colour's (`side`) knights, bishops, rooks, queens and
/// king stand: a multiply per piece type, summed.
#[inline]
fn non_pawn_hash(board: &Board, side: Bitboard) -> u64 {
    let part = |pieces: Bitboard, odd: u64| (pieces & side).0.wrapping_mul(odd);
    let sum = part(board.knights(), 0x9e37_79b9_7f4a_7c15)
        .wrapping_add(part(board.bishops(), 0xbf58_476d_1ce4_e5b9))
        .wrapping_add(part(board.rooks(), 0x94d0_49bb_1331_11eb))
        .wrapping_add(part(board.queens(), 0xd6e8_feb8_6659_fd93))
        .wrapping_add(part(board.kings(), 0xa076_1d64_78bd_642f));
    (sum ^ (sum >> 29)).wrapping_mul(0x2545_f491_4f6c_dd1d)
}

pub struct CorrectionHistory {
    pawns: Table,
    non_pawn: [Table; 2],
    continuation: ContinuationTable,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: Table::new(),
            non_pawn: [Table::new(), Table::new()],
            continuation: ContinuationTable::new(),
        }
    }
}

impl CorrectionHistory {
    /// `raw` (the static evaluation of `pos`, reached by the moves of
    /// `line`) with the learnt correction. Without a pair of moves (the
    /// first two plies, after a null move), or when `raw` is decided, the
    /// continuation share is zero.
    #[inline]
    pub fn corrected(&self, pos: &Chess, raw: Score, line: &LineContext) -> Score {
        let k = Keys::of(pos);
        let blend = PAWN_SHARE * self.pawns.get(k.turn, k.pawns)
            + NON_PAWN_SHARE
                * (self.non_pawn[0].get(k.turn, k.non_pawn[0])
                    + self.non_pawn[1].get(k.turn, k.non_pawn[1]))
            + if raw.0.abs() < DECIDED {
                CONTINUATION_SHARE * self.continuation.get(line)
            } else {
                0
            };
        Score(raw.0 + blend / (BLEND_SCALE * GRAIN))
    }

    /// The search at `depth` found `pos` (reached by `line`) worth
    /// `searched` where the static evaluation said `raw`: move each table's
    /// correction towards the difference.
    pub fn update(
        &mut self,
        pos: &Chess,
        raw: Score,
        searched: Score,
        depth: Depth,
        line: &LineContext,
    ) {
        let diff = (searched.0 - raw.0).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_UPDATE_WEIGHT);
        let k = Keys::of(pos);
        self.pawns.learn(k.turn, k.pawns, diff, weight);
        for (table, key) in self.non_pawn.iter_mut().zip(k.non_pawn) {
            table.learn(k.turn, key, diff, weight);
        }
        self.continuation.learn(line, diff, weight);
    }

    pub fn clear(&mut self) {
        self.pawns.0.fill(0);
        for table in &mut self.non_pawn {
            table.0.fill(0);
        }
        self.continuation.0.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::continuation::PieceTo;

    /// No pair of moves before the position: the continuation share is zero.
    const NO_LINE: LineContext = [None, None];

    /// A move on the board of `fen`, as the continuation tables see it.
    fn piece_to(fen: &str, uci: &str) -> Option<PieceTo> {
        let b = Board::from_fen(fen).unwrap();
        Some(PieceTo::new(b.turn(), b.parse_uci(uci).unwrap()))
    }

    /// White's knight to c3, then Black's king to e8: the last move first.
    fn a_line() -> LineContext {
        [
            piece_to("3k4/8/8/8/8/8/8/4K3 b - - 0 1", "d8e8"),
            piece_to(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "b1c3",
            ),
        ]
    }

    fn corrected(c: &CorrectionHistory, fen: &str, line: &LineContext) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        c.corrected(b.pos(), Score(30), line).0
    }

    #[test]
    fn corrections_follow_the_search_per_side_to_move_and_stay_capped() {
        let fen = "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1";
        let b = Board::from_fen(fen).unwrap();
        let line = a_line();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.corrected(b.pos(), Score(30), &line), Score(30));
        for _ in 0..200 {
            c.update(b.pos(), Score(30), Score(130), 20, &line);
        }
        let after = corrected(&c, fen, &line);
        assert!((120..=130).contains(&after), "{after}");
        // Huge differences are capped.
        for _ in 0..500 {
            c.update(b.pos(), Score(0), Score(5000), 20, &line);
        }
        assert!(c.corrected(b.pos(), Score(0), &line).0 <= MAX_CORRECTION);
        // The other side to move is apart.
        assert_eq!(
            corrected(&c, "4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1", &NO_LINE),
            30
        );
        c.clear();
        assert_eq!(corrected(&c, fen, &line), 30);
    }

    #[test]
    fn each_table_lends_its_share_to_positions_that_share_its_key() {
        let learnt = "4k3/pp6/8/8/8/2N5/PP6/4K3 w - - 0 1";
        let b = Board::from_fen(learnt).unwrap();
        let line = a_line();
        let mut c = CorrectionHistory::default();
        for _ in 0..200 {
            c.update(b.pos(), Score(30), Score(130), 20, &line);
        }
        let gain = |fen, line: &LineContext| corrected(&c, fen, line) - 30;
        // All four tables: the whole difference.
        assert!(
            (96..=100).contains(&gain(learnt, &line)),
            "{}",
            gain(learnt, &line)
        );
        // Reached otherwise: the three tables of the position, four fifths.
        let elsewhere = gain(learnt, &NO_LINE);
        assert!((76..=80).contains(&elsewhere), "{elsewhere}");
        // The same pieces, other pawns: both non-pawn tables, two fifths.
        let other_pawns = gain("4k3/p7/8/8/8/2N5/PP6/4K3 w - - 0 1", &NO_LINE);
        assert!((38..=40).contains(&other_pawns), "{other_pawns}");
        // The same pawns and Black's king, White's knight elsewhere: the
        // pawn table and Black's non-pawn table, three fifths.
        let other_knight = gain("4k3/pp6/8/8/8/5N2/PP6/4K3 w - - 0 1", &NO_LINE);
        assert!((57..=60).contains(&other_knight), "{other_knight}");
        // Nothing in common but the side to move: none.
        let unrelated = "3k4/p7/8/8/8/5N2/P7/3K4 w - - 0 1";
        assert_eq!(gain("3k4/p7/8/8/8/5N2/PP6/4K3 w - - 0 1", &NO_LINE), 0);
        assert_eq!(gain(unrelated, &NO_LINE), 0);
        // Only the same two moves before it: the continuation table, a fifth.
        let by_line = gain(unrelated, &line);
        assert!((18..=20).contains(&by_line), "{by_line}");
        // The same moves in the other order are another pair.
        assert_eq!(gain(unrelated, &[line[1], line[0]]), 0);
        // A decided evaluation gets nothing from the pair.
        let b = Board::from_fen(unrelated).unwrap();
        assert_eq!(c.corrected(b.pos(), Score(DECIDED), &line), Score(DECIDED));
        let lost = -DECIDED - 50;
        assert_eq!(c.corrected(b.pos(), Score(lost), &line), Score(lost));
    }
}
