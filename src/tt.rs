//! The transposition table: a lock-free hash table shared by all search
//! threads. Each entry stores `key ^ data` beside `data` in two atomics, so a
//! torn write from another thread is seen as a miss, never as a wrong hit.

use crate::score::{Depth, Ply, Score};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, MoveList, Role, Square};
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
    /// What a fail-soft search result `best` of the window (alpha, beta)
    /// says about the node's value.
    pub fn of_result(best: Score, alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

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
        PackedMove::of_squares(m.from(), m.to(), m.promotion())
    }

    /// The packed form of a move with these squares and promotion (what
    /// `pack` reads from a `Move`).
    #[inline]
    pub fn of_squares(from: Option<Square>, to: Square, promotion: Option<Role>) -> PackedMove {
        let from = from.map_or(0, |s| s as u16);
        let promo = promotion.map_or(0, |r| r as u16);
        PackedMove(from | ((to as u16) << 6) | (promo << 12))
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The legal move this stands for in `pos`, if there is one: found and
    /// checked without generating every legal move.
    pub fn to_legal(self, pos: &Chess) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from((self.0 >> 6) & 63));
        let promotion = match self.0 >> 12 {
            0 => None,
            role => Some(Role::try_from(u32::from(role)).ok()?),
        };
        UciMove::Normal {
            from,
            to,
            promotion,
        }
        .to_move(pos)
        .ok()
        // e1c1 also reads as castling, which packs as e1a1: not this move.
        .filter(|&m| PackedMove::pack(m) == self)
    }

    /// The legal move this stands for, if it is among `moves`.
    pub fn find_in(self, moves: &MoveList) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        moves.iter().copied().find(|&m| PackedMove::pack(m) == self)
    }
}

/// How an entry keeps what is known of a position's value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum BoundStorage {
    /// One score with a flag saying whether it is exact, a lower or an upper bound.
    Single,
    /// A lower and an upper bound side by side (for the same depth), so a
    /// pass that fails the other way does not erase the first bound. The
    /// default: in Normal mode it saves 3.5 % of NegaScout's nodes and 6-15 %
    /// of the MT drivers' (docs/tt-bounds.md).
    #[default]
    Dual,
}

/// What a probe returns: the value lies in `lower..=upper` at `depth`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: PackedMove,
    pub depth: Depth,
    /// Bounds adjusted back to be relative to the root at the probing ply.
    pub lower: Score,
    pub upper: Score,
}

impl TtHit {
    /// The score that cuts off a search at `depth` with the window
    /// (alpha, beta), if the entry allows it. `exact_depth` requires the
    /// stored depth to equal `depth` (Pure mode: a deeper result would change
    /// the value of a depth-limited search).
    #[inline]
    pub fn cut(&self, depth: Depth, alpha: Score, beta: Score, exact_depth: bool) -> Option<Score> {
        let deep_enough = if exact_depth {
            self.depth == depth
        } else {
            self.depth >= depth
        };
        if !deep_enough {
            None
        } else if self.lower == self.upper || self.lower >= beta {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }

    /// The kind of bound a single-bound entry would carry.
    pub fn bound(&self) -> Bound {
        if self.lower == self.upper {
            Bound::Exact
        } else if self.upper >= Score::INFINITE {
            Bound::Lower
        } else {
            Bound::Upper
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

/// The entries one key may occupy: one cache line, aligned to it, so a probe
/// touches a single line (a `Vec<Entry>` from the allocator starts 16 bytes
/// into a line, and then every bucket straddled two).
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Entry; ENTRIES_PER_BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == ENTRIES_PER_BUCKET * ENTRY_BYTES);
/// Depth is stored with this offset so quiescence depths (down to -offset) fit a byte.
const DEPTH_OFFSET: i32 = 32;
const GENERATION_MASK: u8 = 0x3f;

// data layout: move 0..16 | a 16..32 | b 32..48 | depth 48..56 | bound 56..58 | generation 58..64
// Single storage: a = score, bound = its kind. Dual storage: a = lower, b = upper.
fn pack_data(
    mv: PackedMove,
    a: Score,
    b: Score,
    depth: Depth,
    bound: Bound,
    generation: u8,
) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    (mv.0 as u64)
        | ((a.0 as i16 as u16 as u64) << 16)
        | ((b.0 as i16 as u16 as u64) << 32)
        | (depth << 48)
        | ((bound as u64) << 56)
        | (((generation & GENERATION_MASK) as u64) << 58)
}

fn data_a(data: u64) -> Score {
    Score((data >> 16) as u16 as i16 as i32)
}

fn data_b(data: u64) -> Score {
    Score((data >> 32) as u16 as i16 as i32)
}

fn data_depth(data: u64) -> Depth {
    ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET
}

fn data_generation(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
    storage: BoundStorage,
}

impl TranspositionTable {
    /// A table of `mb` mebibytes (at least one bucket). Fails cleanly when the
    /// memory cannot be had.
    pub fn new(mb: usize) -> Result<TranspositionTable, String> {
        TranspositionTable::with_storage(mb, BoundStorage::default())
    }

    /// A table whose entries keep bounds as `storage` says.
    pub fn with_storage(mb: usize, storage: BoundStorage) -> Result<TranspositionTable, String> {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        if let Some(available) = available_memory_bytes()
            && bytes > available / 10 * 9
        {
            return Err(format!(
                "cannot allocate {mb} MB for the hash table: only {} MB of memory are available",
                available >> 20
            ));
        }
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
        // Before the first write, while no page of it has been touched.
        advise_huge_pages(
            buckets.as_ptr().cast(),
            count * std::mem::size_of::<Bucket>(),
        );
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            storage,
        })
    }

    pub fn storage(&self) -> BoundStorage {
        self.storage
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in self.buckets.iter().flat_map(|b| &b.0) {
            e.key_xor_data.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// `clear` for a table its owner alone holds: every bucket written
    /// whole as plain memory, which compiles to one block fill, where
    /// `clear` stores each entry's two words atomically, one at a time (a
    /// `ReusableSearch` clears its table this way between searches).
    pub fn clear_owned(&mut self) {
        self.buckets.fill_with(Bucket::default);
        *self.generation.get_mut() = 0;
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
    fn bucket(&self, key: u64) -> &[Entry; ENTRIES_PER_BUCKET] {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index].0
    }

    /// Asks the CPU to start loading `key`'s bucket: called as soon as a
    /// child's key is known, the line is in cache by the time it is probed.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line: *const [Entry; ENTRIES_PER_BUCKET] = self.bucket(key);
            // SAFETY: a prefetch is only a hint; it never faults or changes
            // memory, and the pointer is into the live table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; mate scores come back relative to the root at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: Ply) -> Option<TtHit> {
        let data = self.find(key)?;
        let bound = Bound::from_bits(data >> 56)?;
        let (lower, upper) = match self.storage {
            BoundStorage::Dual => (data_a(data), data_b(data)),
            BoundStorage::Single => {
                let s = data_a(data);
                match bound {
                    Bound::Exact => (s, s),
                    Bound::Lower => (s, Score::INFINITE),
                    Bound::Upper => (-Score::INFINITE, s),
                }
            }
        };
        Some(TtHit {
            mv: PackedMove(data as u16),
            depth: data_depth(data),
            lower: lower.from_tt(ply),
            upper: upper.from_tt(ply),
        })
    }

    #[inline]
    fn find(&self, key: u64) -> Option<u64> {
        self.bucket(key).iter().find_map(|e| {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.key_xor_data.load(Ordering::Relaxed);
            (check ^ data == key && data != 0).then_some(data)
        })
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
        let score = score.to_tt(ply);
        let (a, b) = match self.storage {
            BoundStorage::Single => (score, Score::ZERO),
            BoundStorage::Dual => {
                // Keep the other bound when it was found at the same depth.
                let same_depth = same && data_depth(old) == depth;
                let (old_lower, old_upper) = if same_depth {
                    (data_a(old), data_b(old))
                } else {
                    (-Score::INFINITE, Score::INFINITE)
                };
                let (lower, upper) = match bound {
                    Bound::Exact => (score, score),
                    Bound::Lower => (score, old_upper.max(score)),
                    Bound::Upper => (old_lower.min(score), score),
                };
                (lower, upper)
            }
        };
        let data = pack_data(packed, a, b, depth, bound, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample_buckets = self.buckets.len().min(1000 / ENTRIES_PER_BUCKET);
        let sample = sample_buckets * ENTRIES_PER_BUCKET;
        let generation = self.generation();
        let used = self.buckets[..sample_buckets]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && data_generation(d) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Asks Linux to back `len` bytes from `start` with transparent huge pages
/// where it can (the system default here is "only when asked"). Probes land
/// anywhere in the table; with 4 KB pages nearly every one also missed the
/// TLB. Only a hint: nothing changes if it is refused.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *const u8, len: usize) {
    const PAGE: usize = 4096;
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    // madvise wants a page-aligned start: round it up, the length down.
    let first = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + len) / PAGE * PAGE;
    if end > first {
        // SAFETY: the range lies inside an allocation this table owns, and
        // MADV_HUGEPAGE changes no contents, only how pages are backed.
        unsafe {
            madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

/// Memory the system can still give without swapping (Linux: MemAvailable).
/// Memory is overcommitted, so an allocation far beyond it would "succeed"
/// and then get the process killed when the table is filled.
fn available_memory_bytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    const BOTH: [BoundStorage; 2] = [BoundStorage::Single, BoundStorage::Dual];

    /// `to_legal` agrees with `find_in` over every legal move and every
    /// other packed value: castling (both modes, and Chess960 castling of
    /// every shape: king or rook staying put, castling refused through an
    /// attacked square), en passant, promotions, pins and checks included.
    #[test]
    fn to_legal_is_find_in_without_generation() {
        use shakmaty::CastlingMode;
        use shakmaty::fen::Fen;
        let fens = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - g3 0 1",
                CastlingMode::Standard,
            ),
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            ("4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", CastlingMode::Standard),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                CastlingMode::Chess960,
            ),
            (
                "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
                CastlingMode::Chess960,
            ),
        ];
        let chess960 = crate::chess960::CASTLING_POSITIONS
            .iter()
            .map(|&(_, fen)| (fen, CastlingMode::Chess960));
        let mut castles = 0;
        for (fen, mode) in fens.into_iter().chain(chess960) {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            let moves = pos.legal_moves();
            for &m in &moves {
                assert_eq!(PackedMove::pack(m).to_legal(&pos), Some(m), "{fen} {m:?}");
                castles += usize::from(m.is_castle());
            }
            for raw in 0..=u16::MAX {
                let p = PackedMove(raw);
                assert_eq!(p.to_legal(&pos), p.find_in(&moves), "{fen} {raw}");
            }
        }
        assert!(castles >= 16, "the positions must castle: {castles}");
    }

    #[test]
    fn store_and_probe_round_trip() {
        for storage in BOTH {
            let tt = TranspositionTable::with_storage(1, storage).unwrap();
            let pos = Chess::default();
            let moves = pos.legal_moves();
            let m = moves[3];
            tt.store(0xdead_beef, 0, Some(m), Score(-42), 5, Bound::Lower);
            let hit = tt.probe(0xdead_beef, 0).unwrap();
            assert_eq!((hit.lower, hit.upper), (Score(-42), Score::INFINITE));
            assert_eq!(hit.depth, 5);
            assert_eq!(hit.bound(), Bound::Lower);
            assert_eq!(hit.mv.find_in(&moves), Some(m));
            assert!(tt.probe(0xdead_bee0, 0).is_none());
        }
    }

    #[test]
    fn the_missing_bound_stays_infinite_at_every_ply() {
        // A one-sided entry's other side is no bound at all: read back at
        // another ply it must not turn into a mate-distance bound, which
        // would cut an open window (the first MT-SSS* pass at +infinity).
        for storage in BOTH {
            let tt = TranspositionTable::with_storage(1, storage).unwrap();
            tt.store(11, 3, None, Score(1296), 1, Bound::Lower);
            tt.store(12, 3, None, Score(-40), 1, Bound::Upper);
            for ply in [0, 2, 7] {
                let hit = tt.probe(11, ply).unwrap();
                assert_eq!((hit.lower, hit.upper), (Score(1296), Score::INFINITE));
                assert_eq!(hit.bound(), Bound::Lower);
                let open = (Score::INFINITE - 1, Score::INFINITE);
                assert_eq!(
                    hit.cut(1, open.0, open.1, false),
                    None,
                    "{storage:?} ply {ply}"
                );
                let hit = tt.probe(12, ply).unwrap();
                assert_eq!((hit.lower, hit.upper), (-Score::INFINITE, Score(-40)));
                let open = (-Score::INFINITE, -Score::INFINITE + 1);
                assert_eq!(
                    hit.cut(1, open.0, open.1, false),
                    None,
                    "{storage:?} ply {ply}"
                );
            }
        }
    }

    #[test]
    fn dual_storage_keeps_both_bounds_of_one_depth() {
        let tt = TranspositionTable::with_storage(1, BoundStorage::Dual).unwrap();
        tt.store(7, 0, None, Score(30), 4, Bound::Lower);
        tt.store(7, 0, None, Score(60), 4, Bound::Upper);
        let hit = tt.probe(7, 0).unwrap();
        assert_eq!((hit.lower, hit.upper), (Score(30), Score(60)));
        // A bound from another depth starts afresh.
        tt.store(7, 0, None, Score(50), 5, Bound::Upper);
        let hit = tt.probe(7, 0).unwrap();
        assert_eq!((hit.lower, hit.upper), (-Score::INFINITE, Score(50)));
        // Single storage forgets the first bound.
        let single = TranspositionTable::with_storage(1, BoundStorage::Single).unwrap();
        single.store(7, 0, None, Score(30), 4, Bound::Lower);
        single.store(7, 0, None, Score(60), 4, Bound::Upper);
        let hit = single.probe(7, 0).unwrap();
        assert_eq!((hit.lower, hit.upper), (-Score::INFINITE, Score(60)));
    }

    #[test]
    fn negative_depths_and_mate_scores_survive() {
        for storage in BOTH {
            let tt = TranspositionTable::with_storage(1, storage).unwrap();
            tt.store(99, 4, None, Score::mate_in(9), -3, Bound::Exact);
            let hit = tt.probe(99, 4).unwrap();
            assert_eq!(hit.depth, -3);
            assert_eq!(hit.lower, Score::mate_in(9));
            assert_eq!(hit.upper, Score::mate_in(9));
            // The same entry read from a node two plies nearer the root.
            assert_eq!(tt.probe(99, 2).unwrap().lower, Score::mate_in(7));
        }
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
        let hit = |lower, upper, depth| TtHit {
            mv: PackedMove::NONE,
            depth,
            lower,
            upper,
        };
        let inf = Score::INFINITE;
        let s = Score(50);
        assert_eq!(hit(s, inf, 4).cut(4, Score(0), Score(40), false), Some(s));
        assert_eq!(hit(s, inf, 4).cut(4, Score(0), Score(60), false), None);
        assert_eq!(hit(-inf, s, 4).cut(4, Score(60), Score(70), false), Some(s));
        assert_eq!(hit(s, s, 6).cut(4, Score(0), Score(10), false), Some(s));
        assert_eq!(hit(s, s, 6).cut(4, Score(0), Score(10), true), None);
        assert_eq!(hit(s, s, 3).cut(4, Score(0), Score(10), false), None);
        // Dual bounds cut on either side.
        assert_eq!(
            hit(Score(10), Score(20), 4).cut(4, Score(25), Score(26), false),
            Some(Score(20))
        );
        assert_eq!(
            hit(Score(10), Score(20), 4).cut(4, Score(5), Score(6), false),
            Some(Score(10))
        );
        assert_eq!(
            hit(Score(10), Score(20), 4).cut(4, Score(14), Score(15), false),
            None
        );
    }

    #[test]
    fn clear_and_hashfull() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                0,
                None,
                Score(1),
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }

    /// Both ways of clearing leave the table a new one would be: no key
    /// found, nothing counted full, the generation back at its start.
    #[test]
    fn an_owned_clear_empties_the_table_as_a_shared_one_does() {
        let keys: Vec<u64> = (1..20_000u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let fill = |tt: &TranspositionTable| {
            for _ in 0..3 {
                tt.new_search();
            }
            for &k in &keys {
                tt.store(k, 0, None, Score(7), 3, Bound::Lower);
            }
            assert!(keys.iter().any(|&k| tt.probe(k, 0).is_some()));
            assert!(tt.hashfull() > 200 && tt.generation() != 0);
        };
        let mut owned = TranspositionTable::new(1).unwrap();
        fill(&owned);
        owned.clear_owned();
        let shared = TranspositionTable::new(1).unwrap();
        fill(&shared);
        shared.clear();
        for tt in [&owned, &shared] {
            assert!(keys.iter().all(|&k| tt.probe(k, 0).is_none()));
            assert_eq!((tt.hashfull(), tt.generation()), (0, 0));
            assert!(tt.buckets.iter().flat_map(|b| &b.0).all(|e| {
                e.key_xor_data.load(Ordering::Relaxed) == 0 && e.data.load(Ordering::Relaxed) == 0
            }));
        }
    }

    #[test]
    fn absurd_size_fails_cleanly() {
        assert!(TranspositionTable::new(usize::MAX / 2).is_err());
        // More than the machine has (the UCI maximum is 64 GB).
        if let Some(available) = available_memory_bytes() {
            assert!(TranspositionTable::new((available >> 20) + 1024).is_err());
        }
    }
}
