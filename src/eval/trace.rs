//! The evaluation's trace, for the tuner: which tunable weights a position's
//! terms used and how often (White minus Black), the king-danger units, the
//! phase and the endgame scale. The terms are generic over a `Tracer`: the
//! engine's `NoTrace` does nothing and compiles away; the tuner's `Recorder`
//! counts. `term!` and `unit!` give a weight's value and its trace entry
//! from one mention of the weight, so the two cannot drift apart.

use super::bitboards::ci;
use super::registry::Layout;
use super::scaling::{self, Scale};
use super::tapered::{S, s, taper};
use super::weights::{
    KING_DANGER_DIVISOR, KING_DANGER_MAX, KING_NO_QUEEN_PERCENT, SCALE_NORMAL, W, registry,
};
use shakmaty::{Chess, Color, Position};
use std::sync::LazyLock;

/// What the terms report besides their value.
pub trait Tracer {
    /// Does this tracer record anything? (Work done only for the trace, and
    /// the bypass of the pawn cache, depend on it.)
    const ON: bool;
    /// `n` times element `i` of weight `w` went into colour `c`'s score.
    fn add(&mut self, c: Color, w: W, i: usize, n: i32);
    /// `n` times element `i` of the unit weight `w` went into the danger
    /// units against `king`'s king.
    fn units(&mut self, king: Color, w: W, i: usize, n: i32);
    /// The danger against `king`'s king was applied: `percent` of its units
    /// count, after the no-queen cut when `no_queen`.
    fn danger(&mut self, king: Color, percent: i32, no_queen: bool);
}

/// The engine's tracer: records nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn add(&mut self, _: Color, _: W, _: usize, _: i32) {}
    #[inline(always)]
    fn units(&mut self, _: Color, _: W, _: usize, _: i32) {}
    #[inline(always)]
    fn danger(&mut self, _: Color, _: i32, _: bool) {}
}

/// `traced!(method, t, c, WEIGHT)`, `WEIGHT[i]` or `WEIGHT * n`: the value,
/// after telling the tracer `t` (with `t.method`) which weight it was.
macro_rules! traced {
    ($method:ident, $t:expr, $c:expr, $name:ident [$i:expr]) => {{
        let i = $i;
        $t.$method($c, $crate::eval::weights::W::$name, i, 1);
        $name[i]
    }};
    ($method:ident, $t:expr, $c:expr, $name:ident * $n:expr) => {{
        let n = $n;
        $t.$method($c, $crate::eval::weights::W::$name, 0, n);
        $name * n
    }};
    ($method:ident, $t:expr, $c:expr, $name:ident) => {{
        $t.$method($c, $crate::eval::weights::W::$name, 0, 1);
        $name
    }};
}

/// A weight in colour `c`'s score: `term!(t, c, BISHOP_PAIR)`,
/// `term!(t, c, MOBILITY_ROOK[n])`, `term!(t, c, PAWN_DOUBLED * n)`.
macro_rules! term {
    ($t:expr, $c:expr, $($weight:tt)+) => {
        $crate::eval::trace::traced!(add, $t, $c, $($weight)+)
    };
}

/// Danger units against colour `c`'s king, written like `term!`.
macro_rules! unit {
    ($t:expr, $c:expr, $($weight:tt)+) => {
        $crate::eval::trace::traced!(units, $t, $c, $($weight)+)
    };
}
pub(crate) use {term, traced, unit};

/// The slot numbering of the compiled-in registry.
pub static LAYOUT: LazyLock<Layout> = LazyLock::new(|| Layout::new(&registry()));

/// The slot of `TEMPO`, which `PositionTrace` keeps out of `linear`.
pub fn tempo_slot() -> usize {
    LAYOUT.slot(W::TEMPO as usize, 0)
}

/// +1 for White, -1 for Black.
#[inline]
fn sign(c: Color) -> i32 {
    if c.is_white() { 1 } else { -1 }
}

/// The tuner's tracer: dense counts by slot while a position is evaluated.
pub struct Recorder {
    linear: Vec<i32>,
    /// By colour index of the king attacked.
    units: [Vec<i32>; 2],
    danger: [Option<(i32, bool)>; 2],
}

impl Default for Recorder {
    fn default() -> Self {
        let n = LAYOUT.len();
        Recorder {
            linear: vec![0; n],
            units: [vec![0; n], vec![0; n]],
            danger: [None; 2],
        }
    }
}

impl Tracer for Recorder {
    const ON: bool = true;
    fn add(&mut self, c: Color, w: W, i: usize, n: i32) {
        self.linear[LAYOUT.slot(w as usize, i)] += sign(c) * n;
    }
    fn units(&mut self, king: Color, w: W, i: usize, n: i32) {
        self.units[ci(king)][LAYOUT.slot(w as usize, i)] += n;
    }
    fn danger(&mut self, king: Color, percent: i32, no_queen: bool) {
        self.danger[ci(king)] = Some((percent, no_queen));
    }
}

/// The non-zero entries of a dense count vector, as (slot, count).
fn sparse(dense: &[i32]) -> Vec<(usize, i32)> {
    dense
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(slot, &n)| (slot, n))
        .collect()
}

/// The danger against one king: its units as (slot, count) and how they
/// are scaled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DangerTrace {
    pub units: Vec<(usize, i32)>,
    /// Percent of the units that count (by the number of attackers).
    pub percent: i32,
    /// The attacker has no queen: `KING_NO_QUEEN_PERCENT` of the units count.
    pub no_queen: bool,
}

impl DangerTrace {
    /// The middlegame penalty (positive) for unit weights `values`, in the
    /// evaluation's integer arithmetic.
    pub fn penalty(&self, values: &[S]) -> i32 {
        let mut units: i32 = self.units.iter().map(|&(k, n)| values[k].mg * n).sum();
        if self.no_queen {
            units = units * KING_NO_QUEEN_PERCENT / 100;
        }
        let scaled = units * self.percent / 100;
        (scaled * scaled / KING_DANGER_DIVISOR).min(KING_DANGER_MAX)
    }
}

/// Everything the tuner needs to evaluate a position for any weights: the
/// evaluation from White's point of view before the clamp is
/// `scale(taper(Σ linear + danger)) ± taper(TEMPO)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionTrace {
    /// (slot, count) of the pair weights, White minus Black; `TEMPO` is not
    /// among them.
    pub linear: Vec<(usize, i32)>,
    /// By colour index of the king attacked; `None` when no danger applies.
    pub danger: [Option<DangerTrace>; 2],
    pub phase: i32,
    /// The endgame scale of the default weights (kept for any weights).
    pub scale: Scale,
    /// +1 when White is to move, -1 for Black.
    pub stm: i32,
}

impl PositionTrace {
    /// The evaluation for White with the weights `values` (by slot), before
    /// the clamp, in exactly the evaluation's integer arithmetic.
    pub fn evaluate_int(&self, values: &[S]) -> i32 {
        let mut score = S::ZERO;
        for &(k, n) in &self.linear {
            score += values[k] * n;
        }
        for (c, d) in self.danger.iter().enumerate() {
            if let Some(d) = d {
                let side = if c == ci(Color::White) { 1 } else { -1 };
                score -= s(d.penalty(values) * side, 0);
            }
        }
        let white = match self.scale {
            Scale::Endgame(f) => taper(s(score.mg, score.eg * f / SCALE_NORMAL), self.phase),
            Scale::Whole(f) => taper(score, self.phase) * f / SCALE_NORMAL,
        };
        white + self.stm * taper(values[tempo_slot()], self.phase)
    }
}

/// The trace of the evaluation of `pos`.
pub fn trace(pos: &Chess) -> PositionTrace {
    let b = pos.board();
    let mut rec = Recorder::default();
    let (score, phase, passed) = super::terms(b, &mut rec);
    let danger = [0, 1].map(|c| {
        rec.danger[c].map(|(percent, no_queen)| DangerTrace {
            units: sparse(&rec.units[c]),
            percent,
            no_queen,
        })
    });
    PositionTrace {
        linear: sparse(&rec.linear),
        danger,
        phase,
        scale: scaling::scale(b, score.eg, &passed),
        stm: sign(pos.turn()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::evaluate;
    use crate::eval::tapered::MAX_PHASE;
    use crate::eval::tests::{bench_fens, playout_fens};
    use crate::eval::weights::EVAL_LIMIT;

    fn defaults() -> Vec<S> {
        Layout::values(&registry())
    }

    /// The trace with the default weights is the evaluation, to the
    /// centipawn, before the clamp (none of these positions reaches it).
    #[test]
    fn trace_reproduces_the_evaluation() {
        let values = defaults();
        let mut dangers = 0;
        let mut scaled = 0;
        let fens: Vec<String> = bench_fens().into_iter().chain(playout_fens(80)).collect();
        assert!(fens.len() > 2000);
        for fen in &fens {
            let board = Board::from_fen(fen).unwrap();
            let t = trace(board.pos());
            let v = evaluate(&board).0;
            assert!(v.abs() < EVAL_LIMIT);
            assert_eq!(t.evaluate_int(&values), v * t.stm, "{fen}: {t:?}");
            dangers += t.danger.iter().flatten().count();
            scaled += usize::from(t.scale != Scale::Endgame(SCALE_NORMAL));
        }
        // The test covers the non-linear parts too.
        assert!(dangers > 50 && scaled > 50, "{dangers} {scaled}");
    }

    #[test]
    fn every_weight_appears_in_some_trace() {
        let reg = registry();
        let mut used = vec![false; LAYOUT.len()];
        for fen in bench_fens().into_iter().chain(playout_fens(80)) {
            let t = trace(Board::from_fen(&fen).unwrap().pos());
            for &(k, _) in t
                .linear
                .iter()
                .chain(t.danger.iter().flatten().flat_map(|d| &d.units))
            {
                used[k] = true;
            }
        }
        used[tempo_slot()] = true;
        for (w, info) in reg.iter().enumerate() {
            assert!(
                LAYOUT.slots(w).any(|k| used[k]),
                "{} never appears in a trace",
                info.name
            );
        }
    }

    #[test]
    fn start_position_trace_is_balanced() {
        let t = trace(Board::default().pos());
        assert!(t.linear.is_empty(), "{:?}", t.linear);
        assert_eq!(t.danger, [None, None]);
        assert_eq!((t.phase, t.stm), (MAX_PHASE, 1));
        assert_eq!(
            t.evaluate_int(&defaults()),
            taper(super::super::weights::TEMPO, MAX_PHASE)
        );
    }
}
