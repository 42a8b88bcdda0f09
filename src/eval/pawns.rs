//! Pawn structure: doubled, isolated, backward, connected and passed pawns,
//! memoised per thread with the king shelter in a small table keyed by the
//! pawns; and the passer terms that depend on kings and pieces.

use super::bitboards::*;
use super::context::EvalContext;
use super::king_safety::shelter;
use super::tapered::S;
use super::trace::{NoTrace, Tracer, term};
use super::weights::*;
use shakmaty::{Bitboard, Color, Square, attacks};
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
pub fn score_features<T: Tracer>(c: Color, f: &PawnFeatures, t: &mut T) -> S {
    let mut score = term!(t, c, PAWN_DOUBLED * f.doubled.count() as i32)
        + term!(t, c, PAWN_ISOLATED * f.isolated.count() as i32)
        + term!(t, c, PAWN_BACKWARD * f.backward.count() as i32);
    for sq in f.connected {
        score += term!(t, c, PAWN_CONNECTED[relative_rank(c, sq)]);
    }
    for sq in f.passed {
        let r = relative_rank(c, sq);
        score += term!(t, c, PASSED_RANK[r]);
        if f.connected.contains(sq) {
            score += term!(t, c, PASSED_CONNECTED[r]);
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
    /// King shelter (`king_safety::shelter`) by colour index, for the king
    /// squares in `shelter_king`.
    pub shelter: [S; 2],
    shelter_king: [Option<Square>; 2],
}

impl PawnEntry {
    /// Never matches a real position (no pawns on every square).
    const EMPTY: PawnEntry = PawnEntry {
        pawns: [Bitboard::FULL; 2],
        score: S::ZERO,
        passed: [Bitboard::EMPTY; 2],
        attack_span: [Bitboard::EMPTY; 2],
        shelter: [S::ZERO; 2],
        shelter_king: [None; 2],
    };

    /// Computes the entry for `pawns` and the kings on `kings` (both by
    /// colour index) from scratch, telling `t` the weights used.
    pub fn compute<T: Tracer>(pawns: [Bitboard; 2], kings: [Square; 2], t: &mut T) -> PawnEntry {
        let mut entry = PawnEntry {
            pawns,
            ..PawnEntry::EMPTY
        };
        entry.update_shelter(kings, t);
        for c in Color::ALL {
            let (us, them) = (ci(c), ci(!c));
            let f = classify(c, pawns[us], pawns[them]);
            let side = score_features(c, &f, t);
            entry.score += if c.is_white() { side } else { -side };
            entry.passed[us] = f.passed;
            entry.attack_span[us] = fill_forward(c, pawn_attacks_bb(c, pawns[us]));
        }
        entry
    }

    /// Recomputes the shelter of the kings that are not where it was
    /// computed for.
    fn update_shelter<T: Tracer>(&mut self, kings: [Square; 2], t: &mut T) {
        for c in Color::ALL {
            let i = ci(c);
            if self.shelter_king[i] != Some(kings[i]) {
                self.shelter[i] = shelter(c, self.pawns, kings[i], t);
                self.shelter_king[i] = Some(kings[i]);
            }
        }
    }
}

/// Entries per thread (a power of two); each is 80 bytes.
const PAWN_CACHE_BITS: u32 = 12;

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

    fn get(&mut self, pawns: [Bitboard; 2], kings: [Square; 2]) -> PawnEntry {
        let slot = &mut self.entries[(pawn_hash(pawns) >> (64 - PAWN_CACHE_BITS)) as usize];
        if slot.pawns != pawns {
            *slot = PawnEntry::compute(pawns, kings, &mut NoTrace);
        } else {
            slot.update_shelter(kings, &mut NoTrace);
        }
        *slot
    }
}

/// A hash of two sets of pawns (one per colour, in a fixed order), mixed
/// so that its top bits index a table: the pawn cache's, and the search's
/// correction history.
#[inline]
pub fn pawn_hash(pawns: [Bitboard; 2]) -> u64 {
    (pawns[0].0 ^ pawns[1].0.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

thread_local! {
    /// One table per thread: search threads never share or lock it.
    static PAWN_CACHE: RefCell<PawnCache> = RefCell::new(PawnCache::new());
}

/// The pawn entry for `pawns` and `kings` (by colour index), from this
/// thread's cache.
pub fn probe(pawns: [Bitboard; 2], kings: [Square; 2]) -> PawnEntry {
    PAWN_CACHE.with_borrow_mut(|cache| cache.get(pawns, kings))
}

/// Passed-pawn terms that depend on kings and pieces, for colour `c`:
/// king distances to the stop square (endgame) and whether the stop square
/// is blocked or free, weighted by how far the passer has come.
pub fn passers<T: Tracer>(ctx: &EvalContext, c: Color, passed: Bitboard, t: &mut T) -> S {
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
        score += term!(t, c, PASSER_ENEMY_KING_DISTANCE * enemy * w)
            + term!(t, c, PASSER_OWN_KING_DISTANCE * own * w);
        if ctx.occupied.contains(stop) {
            score += term!(t, c, PASSER_BLOCKED * w);
        } else if !ctx.attacked[them].contains(stop) {
            score += term!(t, c, PASSER_FREE_STOP * w);
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::{eval, with_analysis};
    use shakmaty::Square::*;

    fn bb(squares: &[shakmaty::Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    #[test]
    fn classify_finds_each_feature() {
        // White: a2 and h5 isolated; f2 the rear of a doubled pair; d3 and
        // f3 backward (e4 is ahead of them and e5 guards d4 and f4); e4
        // connected (defended by d3 and f3); h5 passed.
        let white = bb(&[A2, D3, E4, F2, F3, H5]);
        let black = bb(&[E5, A7]);
        let f = classify(Color::White, white, black);
        assert_eq!(f.doubled, bb(&[F2]));
        assert_eq!(f.isolated, bb(&[A2, H5]));
        assert_eq!(f.backward, bb(&[D3, F3]));
        assert_eq!(f.connected, bb(&[E4]));
        assert_eq!(f.passed, bb(&[H5]));
        // Black's two pawns are isolated and blocked.
        let g = classify(Color::Black, black, white);
        assert_eq!(g.isolated, black);
        assert_eq!(
            g.passed | g.doubled | g.backward | g.connected,
            Bitboard::EMPTY
        );
    }

    #[test]
    fn passed_pawn_on_sixth_beats_third() {
        assert!(eval("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1"));
        assert!(PASSED_RANK[5].eg > PASSED_RANK[2].eg);
    }

    #[test]
    fn doubled_and_isolated_pawns_are_worse() {
        // Same pawn count, one structure sound.
        let sound = eval("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        assert!(eval("4k3/pp6/8/8/8/1P6/1P6/4K3 w - - 0 1") < sound);
        assert!(eval("4k3/pp6/8/8/8/8/P1P5/4K3 w - - 0 1") < sound);
    }

    #[test]
    fn connected_passers_beat_split_ones() {
        assert!(
            eval("4k3/8/8/2PP4/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/P2P4/8/8/8/4K3 w - - 0 1")
        );
    }

    #[test]
    fn king_distance_to_passer_counts_in_the_endgame() {
        let term = |fen| {
            with_analysis(fen, |ctx, pawn, _| {
                passers(ctx, Color::White, pawn.passed[1], &mut NoTrace)
            })
        };
        // Own king near the passer's path: better than far away.
        let near = term("8/8/3K4/4P3/8/8/8/k7 w - - 0 1");
        let far = term("8/8/8/4P3/8/8/8/k2K4 w - - 0 1");
        assert!(near.eg > far.eg, "{near:?} {far:?}");
        // Enemy king in front of it: worse than far away.
        let blockaded = term("8/4k3/8/4P3/8/8/8/3K4 w - - 0 1");
        let free = term("k7/8/8/4P3/8/8/8/3K4 w - - 0 1");
        assert!(blockaded.eg < free.eg, "{blockaded:?} {free:?}");
    }

    #[test]
    fn blocked_passer_is_worth_less() {
        let term = |fen| {
            with_analysis(fen, |ctx, pawn, _| {
                passers(ctx, Color::White, pawn.passed[1], &mut NoTrace)
            })
        };
        let blocked = term("4k3/4b3/4P3/8/8/8/8/4K3 w - - 0 1");
        let unblocked = term("4k3/b7/4P3/8/8/8/8/4K3 w - - 0 1");
        assert!(blocked.eg < unblocked.eg);
    }

    #[test]
    fn entry_is_white_minus_black() {
        let w = Bitboard::from_square(E4);
        let b = Bitboard::from_square(E5);
        let kings = [E8, E1];
        let e = PawnEntry::compute([b, w], kings, &mut NoTrace);
        assert_eq!(e.score, S::ZERO);
        let e = PawnEntry::compute([Bitboard::EMPTY, w], kings, &mut NoTrace);
        assert!(e.score.eg > 0);
        assert_eq!(e.passed[1], w);
        assert!(e.attack_span[1].contains(D8) && !e.attack_span[1].contains(D4));
    }
}
