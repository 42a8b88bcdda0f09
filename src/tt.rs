//! The transposition table: a lock-free hash table shared by all search
//! threads. Each entry stores `key ^ data` beside `data` in two atomics, so a
//! torn write from another thread is seen as a miss, never as a wrong hit.

use crate::score::{Depth, Ply, Score};
use shakmaty::{Move, MoveList, Role};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (the node failed high).
    Lower = 1,
    /// The true value is at most the score (the node failed low).
    Upper = 2,
    /// The score is the true value.
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A move packed into 16 bits: from (6), to (6), promotion role (3).
/// Castling is stored as king-to-rook, as shakmaty represents it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct PackedMove(u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    pub fn pack(m: Move) -> PackedMove {
        let from = m.from().map_or(0, |s| s as u16);
        let to = m.to() as u16;
        let promo = m.promotion().map_or(0, |r| r as u16);
        PackedMove(from | (to << 6) | (promo << 12))
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The legal move this stands for, if it is among `moves`.
    pub fn find_in(self, moves: &MoveList) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        moves.iter().copied().find(|&m| PackedMove::pack(m) == self)
    }

    pub fn promotion(self) -> Option<Role> {
        Role::try_from((self.0 >> 12) as u32 & 7).ok()
    }
}

/// What a probe returns.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    pub mv: PackedMove,
    /// Score adjusted back to be relative to the root at the probing ply.
    pub score: Score,
    pub eval: Score,
    pub depth: Depth,
    pub bound: Bound,
}

impl TtHit {
    /// Can this entry cut off a search at `depth` with the window (alpha, beta)?
    /// `exact_depth` requires the stored depth to equal `depth` (Pure mode:
    /// a deeper result would change the value of a depth-limited search).
    #[inline]
    pub fn cuts(&self, depth: Depth, alpha: Score, beta: Score, exact_depth: bool) -> bool {
        let deep_enough = if exact_depth {
            self.depth == depth
        } else {
            self.depth >= depth
        };
        deep_enough
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.score >= beta,
                Bound::Upper => self.score <= alpha,
            }
    }
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const ENTRIES_PER_BUCKET: usize = 4;
const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();
/// Depth is stored with this offset so quiescence depths (down to -offset) fit a byte.
const DEPTH_OFFSET: i32 = 32;
const GENERATION_MASK: u8 = 0x3f;

// data layout: move 0..16 | score 16..32 | eval 32..48 | depth 48..56 | bound 56..58 | generation 58..64
fn pack_data(mv: PackedMove, score: Score, eval: Score, depth: Depth, bound: Bound, generation: u8) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    (mv.0 as u64)
        | ((score.0 as i16 as u16 as u64) << 16)
        | ((eval.0 as i16 as u16 as u64) << 32)
        | (depth << 48)
        | ((bound as u64) << 56)
        | (((generation & GENERATION_MASK) as u64) << 58)
}

fn data_depth(data: u64) -> Depth {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

fn data_generation(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

/// The shared transposition table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` mebibytes (at least one bucket). Fails cleanly when the
    /// memory cannot be had.
    pub fn new(mb: usize) -> Result<TranspositionTable, String> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (ENTRY_BYTES * ENTRIES_PER_BUCKET)).max(1);
        let count = buckets * ENTRIES_PER_BUCKET;
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
        entries.resize_with(count, Entry::default);
        Ok(TranspositionTable {
            entries,
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        (self.entries.len() * ENTRY_BYTES) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in &self.entries {
            e.key_xor_data.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Entry] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        let start = index * ENTRIES_PER_BUCKET;
        &self.entries[start..start + ENTRIES_PER_BUCKET]
    }

    /// Looks up `key`; mate scores come back relative to the root at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: Ply) -> Option<TtHit> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.key_xor_data.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                let bound = Bound::from_bits(data >> 56)?;
                return Some(TtHit {
                    mv: PackedMove(data as u16),
                    score: Score((data >> 16) as u16 as i16 as i32).from_tt(ply),
                    eval: Score((data >> 32) as u16 as i16 as i32),
                    depth: data_depth(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result. `score` is root-relative at `ply` and is converted
    /// to node-relative. Replaces the same position, an empty slot, or the
    /// entry that is shallowest after an age penalty.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: Ply,
        mv: Option<Move>,
        score: Score,
        eval: Score,
        depth: Depth,
        bound: Bound,
    ) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for e in bucket {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.key_xor_data.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = e;
                break;
            }
            let age = (generation.wrapping_sub(data_generation(data)) & GENERATION_MASK) as i32;
            let worth = data_depth(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let old = victim.data.load(Ordering::Relaxed);
        let same = old != 0 && victim.key_xor_data.load(Ordering::Relaxed) ^ old == key;
        let mut packed = mv.map_or(PackedMove::NONE, PackedMove::pack);
        if same {
            // Keep a deeper result of this search unless the new one is exact.
            if bound != Bound::Exact
                && data_generation(old) == generation
                && data_depth(old) > depth + 2
            {
                return;
            }
            if packed.is_none() {
                packed = PackedMove(old as u16);
            }
        }
        let data = pack_data(packed, score.to_tt(ply), eval, depth, bound, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let generation = self.generation();
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && data_generation(d) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let m = moves[3];
        tt.store(0xdead_beef, 0, Some(m), Score(-42), Score(7), 5, Bound::Lower);
        let hit = tt.probe(0xdead_beef, 0).unwrap();
        assert_eq!(hit.score, Score(-42));
        assert_eq!(hit.eval, Score(7));
        assert_eq!(hit.depth, 5);
        assert_eq!(hit.bound, Bound::Lower);
        assert_eq!(hit.mv.find_in(&moves), Some(m));
        assert!(tt.probe(0xdead_bee0, 0).is_none());
    }

    #[test]
    fn negative_depths_and_mate_scores_survive() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(99, 4, None, Score::mate_in(9), Score(0), -3, Bound::Exact);
        let hit = tt.probe(99, 4).unwrap();
        assert_eq!(hit.depth, -3);
        assert_eq!(hit.score, Score::mate_in(9));
        // The same entry read from a node two plies nearer the root.
        assert_eq!(tt.probe(99, 2).unwrap().score, Score::mate_in(7));
    }

    #[test]
    fn promotions_pack_distinctly() {
        let pos: Chess = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let moves = pos.legal_moves();
        for &m in &moves {
            assert_eq!(PackedMove::pack(m).find_in(&moves), Some(m));
        }
    }

    #[test]
    fn cut_rules() {
        let hit = |bound, depth| TtHit {
            mv: PackedMove::NONE,
            score: Score(50),
            eval: Score(0),
            depth,
            bound,
        };
        assert!(hit(Bound::Lower, 4).cuts(4, Score(0), Score(40), false));
        assert!(!hit(Bound::Lower, 4).cuts(4, Score(0), Score(60), false));
        assert!(hit(Bound::Upper, 4).cuts(4, Score(60), Score(70), false));
        assert!(hit(Bound::Exact, 6).cuts(4, Score(0), Score(10), false));
        assert!(!hit(Bound::Exact, 6).cuts(4, Score(0), Score(10), true));
        assert!(!hit(Bound::Exact, 3).cuts(4, Score(0), Score(10), false));
    }

    #[test]
    fn clear_and_hashfull() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), 0, None, Score(1), Score(1), 1, Bound::Exact);
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn absurd_size_fails_cleanly() {
        assert!(TranspositionTable::new(usize::MAX / 2).is_err());
    }
}
