//! Pawn structure: doubled, isolated, backward, connected and passed pawns,
//! memoised per thread in a small table keyed by the pawn bitboards; and the
//! passed-pawn terms that depend on kings and pieces, computed every time.

use super::bitboards::*;
use super::context::EvalContext;
use super::params::*;
use super::tapered::S;
use shakmaty::{Bitboard, Color, attacks};
use std::cell::RefCell;

/// One side's pawns sorted by feature (a pawn may have several).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PawnFeatures {
    /// An own pawn stands in front on the same file.
    pub doubled: Bitboard,
    /// No own pawns on the adjacent files.
    pub isolated: Bitboard,
    /// Not isolated, behind all own pawns of the adjacent files, and an
    /// enemy pawn attacks the stop square.
    pub backward: Bitboard,
    /// Defended by an own pawn or beside one on the same rank.
    pub connected: Bitboard,
    /// No enemy pawn in front on the same or adjacent files, and not the
    /// rear pawn of a doubled pair.
    pub passed: Bitboard,
}

/// Sorts the pawns `ours` of colour `c` by feature, against `theirs`.
pub fn classify(c: Color, ours: Bitboard, theirs: Bitboard) -> PawnFeatures {
    let us = ci(c);
    let their_attacks = pawn_attacks_bb(!c, theirs);
    let mut f = PawnFeatures::default();
    for sq in ours {
        let i = sq as usize;
        let beside = ADJACENT_FILES[sq.file() as usize] & ours;
        let doubled = ours.intersects(FORWARD_FILE[us][i]);
        let supported = (attacks::pawn_attacks(!c, sq) & ours).any();
        let phalanx = beside.intersects(Bitboard::from_rank(sq.rank()));
        if doubled {
            f.doubled.add(sq);
        }
        if beside.is_empty() {
            f.isolated.add(sq);
        } else if (beside & !FORWARD_RANKS[us][i]).is_empty()
            && their_attacks.intersects(forward(c, Bitboard::from_square(sq)))
        {
            f.backward.add(sq);
        }
        if supported || phalanx {
            f.connected.add(sq);
        }
        if !doubled && !theirs.intersects(PASSED_SPAN[us][i]) {
            f.passed.add(sq);
        }
    }
    f
}

/// The structure score of one side's features (positive is good for it).
pub fn score_features(c: Color, f: &PawnFeatures) -> S {
    let mut score = PAWN_DOUBLED * f.doubled.count() as i32
        + PAWN_ISOLATED * f.isolated.count() as i32
        + PAWN_BACKWARD * f.backward.count() as i32;
    for sq in f.connected {
        score += PAWN_CONNECTED[relative_rank(c, sq)];
    }
    for sq in f.passed {
        let r = relative_rank(c, sq);
        score += PASSED_RANK[r];
        if f.connected.contains(sq) {
            score += PASSED_CONNECTED[r];
        }
    }
    score
}

/// What the pawn structure alone determines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PawnEntry {
    /// The pawns, by colour index: the exact key.
    pawns: [Bitboard; 2],
    /// Structure score, White minus Black.
    pub score: S,
    pub passed: [Bitboard; 2],
    /// Squares a side's pawns attack now or could after advancing.
    pub attack_span: [Bitboard; 2],
}

impl PawnEntry {
    /// Never matches a real position (no pawns on every square).
    const EMPTY: PawnEntry = PawnEntry {
        pawns: [Bitboard::FULL; 2],
        score: S::ZERO,
        passed: [Bitboard::EMPTY; 2],
        attack_span: [Bitboard::EMPTY; 2],
    };

    /// Computes the entry for `pawns` (by colour index) from scratch.
    pub fn compute(pawns: [Bitboard; 2]) -> PawnEntry {
        let mut entry = PawnEntry {
            pawns,
            ..PawnEntry::EMPTY
        };
        for c in Color::ALL {
            let (us, them) = (ci(c), ci(!c));
            let f = classify(c, pawns[us], pawns[them]);
            let side = score_features(c, &f);
            entry.score += if c.is_white() { side } else { -side };
            entry.passed[us] = f.passed;
            entry.attack_span[us] = fill_forward(c, pawn_attacks_bb(c, pawns[us]));
        }
        entry
    }
}

/// Entries per thread (a power of two); each is 56 bytes.
const PAWN_CACHE_BITS: u32 = 13;

/// A direct-mapped table of pawn entries. The key is the pawns themselves,
/// so a hit is always exact and the evaluation never depends on the cache.
struct PawnCache {
    entries: Box<[PawnEntry]>,
}

impl PawnCache {
    fn new() -> PawnCache {
        PawnCache {
            entries: vec![PawnEntry::EMPTY; 1 << PAWN_CACHE_BITS].into_boxed_slice(),
        }
    }

    fn get(&mut self, pawns: [Bitboard; 2]) -> PawnEntry {
        let hash = (pawns[0].0 ^ pawns[1].0.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.entries[(hash >> (64 - PAWN_CACHE_BITS)) as usize];
        if slot.pawns != pawns {
            *slot = PawnEntry::compute(pawns);
        }
        *slot
    }
}

thread_local! {
    /// One table per thread: search threads never share or lock it.
    static PAWN_CACHE: RefCell<PawnCache> = RefCell::new(PawnCache::new());
}

/// The pawn entry for `pawns` (by colour index), from this thread's cache.
pub fn probe(pawns: [Bitboard; 2]) -> PawnEntry {
    PAWN_CACHE.with_borrow_mut(|cache| cache.get(pawns))
}

/// Passed-pawn terms that depend on kings and pieces, for colour `c`:
/// king distances to the stop square (endgame) and whether the stop square
/// is blocked or free, weighted by how far the passer has come.
pub fn passers(ctx: &EvalContext, c: Color, passed: Bitboard) -> S {
    let (us, them) = (ci(c), ci(!c));
    let mut score = S::ZERO;
    for sq in passed {
        let w = relative_rank(c, sq) as i32 - PASSER_WEIGHT_BASE_RANK;
        let Some(stop) = forward(c, Bitboard::from_square(sq)).first() else {
            continue;
        };
        if w <= 0 {
            continue;
        }
        let enemy = (stop.distance(ctx.king[them]) as i32).min(PASSER_KING_DISTANCE_CAP);
        let own = (stop.distance(ctx.king[us]) as i32).min(PASSER_KING_DISTANCE_CAP);
        score += (PASSER_ENEMY_KING_DISTANCE * enemy + PASSER_OWN_KING_DISTANCE * own) * w;
        if ctx.occupied.contains(stop) {
            score += PASSER_BLOCKED * w;
        } else if !ctx.attacked[them].contains(stop) {
            score += PASSER_FREE_STOP * w;
        }
    }
    score
}
