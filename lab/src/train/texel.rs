//! Texel's method: the mean squared error between each position's game
//! result and sigmoid(K · eval / 400), with the evaluation computed from the
//! traced coefficients; fitting K; and Adam on the weights (full batch, the
//! king-danger units kept non-negative), rounded to integers at the end;
//! optionally with an L2 penalty pulling the weights towards where they
//! started.

use crate::data::dataset::{Dataset, Sample};
use crate::win_probability::sigmoid;
use rayon::prelude::*;
use stockman::eval::registry::{Kind, Layout};
use stockman::eval::tapered::MAX_PHASE;
use stockman::eval::tapered::{S, s};
use stockman::eval::weights::SCALE_NORMAL;
use stockman::eval::weights::{KING_DANGER_DIVISOR, KING_DANGER_MAX, KING_NO_QUEEN_PERCENT};

/// Samples per parallel task.
const CHUNK: usize = 4096;

/// Weights as the tuner moves them: (mg, eg) by slot; a unit weight uses
/// the first half only.
pub type Weights = Vec<[f64; 2]>;

pub fn to_weights(values: &[S]) -> Weights {
    values.iter().map(|v| [v.mg as f64, v.eg as f64]).collect()
}

/// Rounded to the nearest integers.
pub fn to_values(w: &[[f64; 2]]) -> Vec<S> {
    w.iter()
        .map(|[mg, eg]| s(mg.round() as i32, eg.round() as i32))
        .collect()
}

/// How a sample's halves enter its evaluation: middlegame and endgame
/// factors (phase and scale) and the tempo factors (phase and side).
struct Factors {
    mg: f64,
    eg: f64,
    tempo: [f64; 2],
}

impl Factors {
    #[inline]
    fn of(s: &Sample) -> Factors {
        let ph = s.phase as f64 / MAX_PHASE as f64;
        let scale = s.scale as f64 / SCALE_NORMAL as f64;
        let stm = s.stm as f64;
        Factors {
            mg: if s.scale_whole { ph * scale } else { ph },
            eg: (1.0 - ph) * scale,
            tempo: [stm * ph, stm * (1.0 - ph)],
        }
    }
}

/// The king danger against one king: the middlegame penalty and its
/// derivative by the units (0 once it is capped).
#[inline]
fn danger(units: f64, percent: u8, no_queen: bool) -> (f64, f64) {
    let mut q = percent as f64 / 100.0;
    if no_queen {
        q *= KING_NO_QUEEN_PERCENT as f64 / 100.0;
    }
    let scaled = units * q;
    let penalty = scaled * scaled / KING_DANGER_DIVISOR as f64;
    if penalty >= KING_DANGER_MAX as f64 {
        (KING_DANGER_MAX as f64, 0.0)
    } else {
        (penalty, 2.0 * scaled * q / KING_DANGER_DIVISOR as f64)
    }
}

/// What the model needs beside the data: the tempo slot.
#[derive(Copy, Clone, Debug)]
pub struct Model {
    pub tempo: usize,
}

impl Model {
    pub fn new() -> Model {
        Model {
            tempo: stockman::eval::trace::tempo_slot(),
        }
    }

    /// The evaluation of sample `s` for White with weights `w`.
    pub fn evaluate(&self, ds: &Dataset, s: &Sample, w: &[[f64; 2]]) -> f64 {
        let f = Factors::of(s);
        let (linear, units) = ds.parts(s);
        let (mut mg, mut eg) = (0.0, 0.0);
        for c in linear {
            let v = w[c.slot as usize];
            mg += c.count as f64 * v[0];
            eg += c.count as f64 * v[1];
        }
        for (king, units) in units.iter().enumerate() {
            if s.danger_percent[king] > 0 {
                let u: f64 = units
                    .iter()
                    .map(|c| c.count as f64 * w[c.slot as usize][0])
                    .sum();
                let side = if king == 1 { -1.0 } else { 1.0 };
                mg += side * danger(u, s.danger_percent[king], s.no_queen[king]).0;
            }
        }
        let t = w[self.tempo];
        mg * f.mg + eg * f.eg + f.tempo[0] * t[0] + f.tempo[1] * t[1]
    }

    /// Adds the derivative of the evaluation of `s` by every weight, times
    /// `d`, to `g`.
    fn add_gradient(&self, ds: &Dataset, s: &Sample, w: &[[f64; 2]], d: f64, g: &mut [[f64; 2]]) {
        let f = Factors::of(s);
        let (linear, units) = ds.parts(s);
        for c in linear {
            let n = c.count as f64 * d;
            let slot = &mut g[c.slot as usize];
            slot[0] += n * f.mg;
            slot[1] += n * f.eg;
        }
        for (king, units) in units.iter().enumerate() {
            if s.danger_percent[king] > 0 {
                let u: f64 = units
                    .iter()
                    .map(|c| c.count as f64 * w[c.slot as usize][0])
                    .sum();
                let slope = danger(u, s.danger_percent[king], s.no_queen[king]).1;
                let side = if king == 1 { -1.0 } else { 1.0 };
                for c in units.iter() {
                    g[c.slot as usize][0] += d * f.mg * side * slope * c.count as f64;
                }
            }
        }
        g[self.tempo][0] += d * f.tempo[0];
        g[self.tempo][1] += d * f.tempo[1];
    }

    /// The evaluation of every sample.
    pub fn evaluations(&self, ds: &Dataset, w: &[[f64; 2]]) -> Vec<f64> {
        ds.samples
            .par_iter()
            .map(|s| self.evaluate(ds, s, w))
            .collect()
    }

    /// The mean squared error for weights `w` and scale `k`.
    pub fn error(&self, ds: &Dataset, w: &[[f64; 2]], k: f64) -> f64 {
        let sum: f64 = ds
            .samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|s| (s.result as f64 - sigmoid(k, self.evaluate(ds, s, w))).powi(2))
                    .sum::<f64>()
            })
            .sum();
        sum / ds.len().max(1) as f64
    }

    /// The gradient of the mean squared error by every weight, and the error.
    pub fn gradient(&self, ds: &Dataset, w: &[[f64; 2]], k: f64) -> (Weights, f64) {
        let zero = || (vec![[0.0; 2]; w.len()], 0.0);
        let c = k * std::f64::consts::LN_10 / 400.0;
        let (mut g, sum) = ds
            .samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let (mut g, mut sum) = zero();
                for s in chunk {
                    let p = sigmoid(k, self.evaluate(ds, s, w));
                    let r = s.result as f64;
                    sum += (r - p).powi(2);
                    // d/de (r - p)² = -2 (r - p) p (1 - p) K ln10 / 400
                    let d = -2.0 * (r - p) * p * (1.0 - p) * c;
                    self.add_gradient(ds, s, w, d, &mut g);
                }
                (g, sum)
            })
            .reduce(zero, |(mut a, x), (b, y)| {
                for (a, b) in a.iter_mut().zip(&b) {
                    a[0] += b[0];
                    a[1] += b[1];
                }
                (a, x + y)
            });
        let n = ds.len().max(1) as f64;
        for v in &mut g {
            v[0] /= n;
            v[1] /= n;
        }
        (g, sum / n)
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

/// The mean squared error of the results against sigmoid(K·e) for fixed
/// evaluations `evals`.
fn error_for_k(ds: &Dataset, evals: &[f64], k: f64) -> f64 {
    let sum: f64 = ds
        .samples
        .par_iter()
        .zip(evals.par_iter())
        .map(|(s, &e)| (s.result as f64 - sigmoid(k, e)).powi(2))
        .sum();
    sum / ds.len().max(1) as f64
}

/// The K that minimises the error for weights `w`, and that error: a scan
/// over 0.05..5 in steps of 0.05, then golden-section search around the best.
pub fn fit_k(model: &Model, ds: &Dataset, w: &[[f64; 2]]) -> (f64, f64) {
    let evals = model.evaluations(ds, w);
    let err = |k: f64| error_for_k(ds, &evals, k);
    let mut best = (0.05, err(0.05));
    for i in 2..=100 {
        let k = i as f64 * 0.05;
        let e = err(k);
        if e < best.1 {
            best = (k, e);
        }
    }
    let (mut lo, mut hi) = ((best.0 - 0.05).max(1e-3), best.0 + 0.05);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    (k, err(k))
}

/// Adam (Kingma and Ba 2015) over all (slot, half) components.
pub struct Adam {
    m: Weights,
    v: Weights,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    pub fn new(len: usize) -> Adam {
        Adam {
            m: vec![[0.0; 2]; len],
            v: vec![[0.0; 2]; len],
            t: 0,
        }
    }

    /// One step of size `rate` (centipawns) against the gradient `g`; unit
    /// weights (by `layout`) are kept at zero or above.
    pub fn step(&mut self, w: &mut [[f64; 2]], g: &[[f64; 2]], rate: f64, layout: &Layout) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for (slot, ((w, g), (m, v))) in w
            .iter_mut()
            .zip(g)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
            .enumerate()
        {
            for h in 0..2 {
                m[h] = Self::BETA1 * m[h] + (1.0 - Self::BETA1) * g[h];
                v[h] = Self::BETA2 * v[h] + (1.0 - Self::BETA2) * g[h] * g[h];
                w[h] -= rate * (m[h] / c1) / ((v[h] / c2).sqrt() + Self::EPSILON);
            }
            if layout.kind(slot) == Kind::Units {
                w[0] = w[0].max(0.0);
                w[1] = 0.0;
            }
        }
    }
}

/// How a tuning run goes.
#[derive(Copy, Clone, Debug)]
pub struct Schedule {
    pub epochs: usize,
    /// Adam's step size at the start; it decays exponentially to a tenth.
    pub rate: f64,
}

impl Schedule {
    /// The step size of epoch `e` (0-based).
    pub fn rate_at(&self, e: usize) -> f64 {
        self.rate * 0.1f64.powf(e as f64 / self.epochs.max(1) as f64)
    }
}

/// How many samples use each slot (`TEMPO`: all of them).
pub fn occurrences(model: &Model, ds: &Dataset, slots: usize) -> Vec<u64> {
    let mut n = vec![0u64; slots];
    for s in &ds.samples {
        let (linear, units) = ds.parts(s);
        for c in linear.iter().chain(units[0]).chain(units[1]) {
            n[c.slot as usize] += 1;
        }
    }
    n[model.tempo] = ds.len() as u64;
    n
}

/// The unit of the L2 penalty: a weight `PENALTY_UNIT` centipawns away
/// from its start costs `lambda` (one half of it, mg or eg).
pub const PENALTY_UNIT: f64 = 100.0;

/// An L2 penalty towards the starting weights: `lambda` times the sum over
/// the tuned (not frozen) components of ((w - w0) / 100)². A sum rather than
/// a mean, so that a component's pull does not shrink as terms are added:
/// against the error's curvature for a weight used by a fraction f of the
/// positions (about 3e-6 f per cp² at K ≈ 1), lambda = 0.001 holds back
/// weights used by under a tenth of the positions and correlated groups
/// (mobility against material) and barely touches common ones; 0.01 also
/// pulls the common ones a good part of the way back.
#[derive(Clone, Debug)]
pub struct Penalty<'a> {
    pub lambda: f64,
    pub start: &'a [[f64; 2]],
    pub frozen: &'a [bool],
}

impl Penalty<'_> {
    /// The penalty for weights `w`.
    pub fn value(&self, w: &[[f64; 2]]) -> f64 {
        if self.lambda == 0.0 {
            return 0.0;
        }
        let sum: f64 = w
            .iter()
            .zip(self.start)
            .zip(self.frozen)
            .filter(|(_, f)| !**f)
            .map(|((w, w0), _)| {
                let a = (w[0] - w0[0]) / PENALTY_UNIT;
                let b = (w[1] - w0[1]) / PENALTY_UNIT;
                a * a + b * b
            })
            .sum();
        self.lambda * sum
    }

    /// Adds the penalty's gradient to `g` (frozen slots are left alone).
    pub fn add_gradient(&self, w: &[[f64; 2]], g: &mut [[f64; 2]]) {
        if self.lambda == 0.0 {
            return;
        }
        let c = 2.0 * self.lambda / (PENALTY_UNIT * PENALTY_UNIT);
        for (((g, w), w0), &f) in g.iter_mut().zip(w).zip(self.start).zip(self.frozen) {
            if !f {
                g[0] += c * (w[0] - w0[0]);
                g[1] += c * (w[1] - w0[1]);
            }
        }
    }
}

/// Runs `schedule` from weights `w` at scale `k`, leaving the slots marked
/// in `frozen` as they are and adding an L2 penalty of `lambda` towards the
/// starting weights (see [`Penalty`]; 0: none); `report(epoch, error,
/// objective, weights)` is called after every epoch (1-based) with the mean
/// squared error and the penalised objective before that epoch's step.
#[allow(clippy::too_many_arguments)]
pub fn optimise(
    model: &Model,
    ds: &Dataset,
    layout: &Layout,
    w: &mut Weights,
    k: f64,
    schedule: Schedule,
    frozen: &[bool],
    lambda: f64,
    report: &mut dyn FnMut(usize, f64, f64, &Weights),
) {
    let start = w.clone();
    let penalty = Penalty {
        lambda,
        start: &start,
        frozen,
    };
    let mut adam = Adam::new(w.len());
    for epoch in 0..schedule.epochs {
        let (mut g, err) = model.gradient(ds, w, k);
        let objective = err + penalty.value(w);
        penalty.add_gradient(w, &mut g);
        for (g, &f) in g.iter_mut().zip(frozen) {
            if f {
                *g = [0.0; 2];
            }
        }
        adam.step(w, &g, schedule.rate_at(epoch), layout);
        report(epoch + 1, err, objective, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::board::Board;
    use stockman::eval::trace::trace;
    use stockman::eval::weights::{W, registry};

    fn layout_and_defaults() -> (Layout, Vec<S>) {
        let reg = registry();
        (Layout::new(&reg), Layout::values(&reg))
    }

    /// Positions along deterministic random games, labelled by a "truth"
    /// that values material differently from the engine (knights worth 3.5
    /// pawns more): the tuner should move toward it.
    fn synthetic() -> Dataset {
        let mut ds = Dataset::default();
        let (layout, defaults) = layout_and_defaults();
        let mut truth = defaults.clone();
        truth[layout.slot(W::MATERIAL as usize, 1)] = s(650, 600);
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..40 {
            let mut board = Board::default();
            for ply in 0..60 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                board.play(moves[(seed >> 33) as usize % moves.len()]);
                if ply < 6 || board.in_check() {
                    continue;
                }
                let t = trace(board.pos());
                let e = t.evaluate_int(&truth) as f64;
                // A deterministic "result": the expectation, rounded to a
                // win, draw or loss by a hash of the position.
                let p = sigmoid(1.0, e);
                let u = ((seed >> 11) as f64) / (1u64 << 53) as f64;
                let result = if u < p * 0.8 {
                    1.0
                } else if u < p * 0.8 + 0.2 {
                    0.5
                } else {
                    0.0
                };
                ds.push(&t, result).unwrap();
            }
        }
        ds
    }

    #[test]
    fn model_matches_the_integer_trace() {
        let (_, defaults) = layout_and_defaults();
        let w = to_weights(&defaults);
        let model = Model::new();
        let fens = [
            "r1bq1rk1/pp2b1pp/n1pp1n2/3P1p2/2P1p3/2N1P2N/PP2BPPP/R1BQ1RK1 b - - 2 10",
            "6k1/5ppp/8/6NQ/8/8/8/5RK1 b - - 0 1",
            "4k3/8/3b4/8/3P4/2P5/8/3BK3 w - - 0 1",
            "8/8/8/4k3/8/8/4K3/3NB3 w - - 0 1",
        ];
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            let t = trace(board.pos());
            let ds = Dataset::from_positions(&[(fen, 0.5)]).unwrap();
            let e = model.evaluate(&ds, &ds.samples[0], &w);
            // Integer truncations only.
            assert!(
                (e - t.evaluate_int(&defaults) as f64).abs() <= 3.0,
                "{fen}: {e}"
            );
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let ds = synthetic();
        let (layout, defaults) = layout_and_defaults();
        let model = Model::new();
        let w = to_weights(&defaults);
        let k = 1.1;
        let (g, err) = model.gradient(&ds, &w, k);
        assert!((err - model.error(&ds, &w, k)).abs() < 1e-12);
        let probes = [
            (layout.slot(W::MATERIAL as usize, 1), 0),
            (layout.slot(W::MATERIAL as usize, 3), 1),
            (layout.slot(W::MOBILITY_BISHOP as usize, 6), 0),
            (layout.slot(W::KING_ATTACK_WEIGHT as usize, 4), 0),
            (model.tempo, 0),
        ];
        for (slot, h) in probes {
            let h_step = 0.01;
            let mut up = w.clone();
            up[slot][h] += h_step;
            let mut down = w.clone();
            down[slot][h] -= h_step;
            let numeric = (model.error(&ds, &up, k) - model.error(&ds, &down, k)) / (2.0 * h_step);
            assert!(
                (numeric - g[slot][h]).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                "slot {slot}.{h}: {numeric} vs {}",
                g[slot][h]
            );
        }
    }

    #[test]
    fn fitting_k_and_a_few_steps_reduce_the_error() {
        let ds = synthetic();
        assert!(ds.len() > 1000);
        let (layout, defaults) = layout_and_defaults();
        let model = Model::new();
        let mut w = to_weights(&defaults);
        let (k, fitted) = fit_k(&model, &ds, &w);
        assert!(k > 0.1 && k < 5.0, "{k}");
        for other in [k * 0.7, k * 1.3] {
            assert!(model.error(&ds, &w, other) >= fitted);
        }
        let mut errors = Vec::new();
        // Freeze the bishop pair: it must not move.
        let pair = layout.slot(W::BISHOP_PAIR as usize, 0);
        let mut frozen = vec![false; layout.len()];
        frozen[pair] = true;
        let counts = occurrences(&model, &ds, layout.len());
        assert_eq!(counts[model.tempo], ds.len() as u64);
        assert!(counts[layout.slot(W::MATERIAL as usize, 0)] > 100);
        assert_eq!(
            counts[layout.slot(W::MATERIAL as usize, 5)],
            0,
            "kings cancel out"
        );
        optimise(
            &model,
            &ds,
            &layout,
            &mut w,
            k,
            Schedule {
                epochs: 30,
                rate: 2.0,
            },
            &frozen,
            0.0,
            &mut |_, e, o, _| {
                assert_eq!(e, o, "no penalty");
                errors.push(e)
            },
        );
        let after = model.error(&ds, &w, k);
        assert!(after < fitted, "{fitted} -> {after}");
        assert!(
            errors.windows(2).filter(|p| p[1] > p[0]).count() < 5,
            "{errors:?}"
        );
        // The knight, undervalued against the truth, went up.
        let knight = layout.slot(W::MATERIAL as usize, 1);
        assert!(w[knight][0] > defaults[knight].mg as f64, "{:?}", w[knight]);
        // Unit weights stay non-negative and without an endgame half.
        for slot in layout.slots(W::KING_SAFE_CHECK as usize) {
            assert!(w[slot][0] >= 0.0 && w[slot][1] == 0.0);
        }
        assert_eq!(
            w[pair],
            [defaults[pair].mg as f64, defaults[pair].eg as f64]
        );
        let rounded = to_values(&w);
        assert!(model.error(&ds, &to_weights(&rounded), k) < fitted);
    }

    /// The loop `optimise` ran before the penalty existed.
    fn optimise_without_penalty(
        model: &Model,
        ds: &Dataset,
        layout: &Layout,
        w: &mut Weights,
        k: f64,
        schedule: Schedule,
        frozen: &[bool],
    ) {
        let mut adam = Adam::new(w.len());
        for epoch in 0..schedule.epochs {
            let (mut g, _) = model.gradient(ds, w, k);
            for (g, &f) in g.iter_mut().zip(frozen) {
                if f {
                    *g = [0.0; 2];
                }
            }
            adam.step(w, &g, schedule.rate_at(epoch), layout);
        }
    }

    #[test]
    fn l2_penalty_holds_the_weights_near_the_start() {
        let ds = synthetic();
        let (layout, defaults) = layout_and_defaults();
        let model = Model::new();
        let start = to_weights(&defaults);
        let k = 1.0;
        let schedule = Schedule {
            epochs: 30,
            rate: 2.0,
        };
        let frozen = vec![false; layout.len()];
        let run = |lambda: f64| {
            let mut w = start.clone();
            let mut reports = Vec::new();
            optimise(
                &model,
                &ds,
                &layout,
                &mut w,
                k,
                schedule,
                &frozen,
                lambda,
                &mut |_, e, o, _| reports.push((e, o)),
            );
            (w, reports)
        };
        // Lambda 0: exactly the weights of the loop without a penalty.
        let (free, reports) = run(0.0);
        assert!(reports.iter().all(|(e, o)| e == o));
        let mut old = start.clone();
        optimise_without_penalty(&model, &ds, &layout, &mut old, k, schedule, &frozen);
        assert_eq!(free, old);
        let drift = |w: &Weights| {
            w.iter()
                .zip(&start)
                .map(|(a, b)| (a[0] - b[0]).abs().max((a[1] - b[1]).abs()))
                .fold(0.0, f64::max)
        };
        let knight = layout.slot(W::MATERIAL as usize, 1);
        // (Part of the knight's rise goes to its per-square corrections.)
        assert!(
            free[knight][0] > start[knight][0] + 10.0,
            "{:?}",
            free[knight]
        );
        // A huge lambda: everything stays within a few centipawns (Adam's
        // steps oscillate around the start instead of running away).
        let (held, reports) = run(1000.0);
        assert!(drift(&held) < 5.0, "{}", drift(&held));
        assert!(drift(&free) > 20.0, "{}", drift(&free));
        // The objective adds the penalty: equal at the start, larger after.
        assert_eq!(reports[0].0, reports[0].1);
        assert!(reports[1..].iter().all(|(e, o)| o > e));
        // A moderate one lands in between.
        let (mid, _) = run(0.01);
        let d = |w: &Weights| (w[knight][0] - start[knight][0]).abs();
        assert!(
            d(&mid) < d(&free) && d(&mid) > d(&held),
            "{} {} {}",
            d(&held),
            d(&mid),
            d(&free)
        );
        // The value and gradient of the penalty itself.
        let p = Penalty {
            lambda: 0.5,
            start: &start,
            frozen: &frozen,
        };
        let mut moved = start.clone();
        moved[knight] = [start[knight][0] + 100.0, start[knight][1] - 200.0];
        assert!((p.value(&moved) - 0.5 * (1.0 + 4.0)).abs() < 1e-12);
        let mut g = vec![[0.0; 2]; moved.len()];
        p.add_gradient(&moved, &mut g);
        assert!((g[knight][0] - 2.0 * 0.5 * 100.0 / 1e4).abs() < 1e-12);
        assert!((g[knight][1] + 2.0 * 0.5 * 200.0 / 1e4).abs() < 1e-12);
        let mut frozen_knight = frozen.clone();
        frozen_knight[knight] = true;
        let p = Penalty {
            frozen: &frozen_knight,
            ..p
        };
        assert_eq!(p.value(&moved), 0.0);
    }
}
