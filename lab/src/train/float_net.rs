//! The network in floating point, as the trainer fits it: one input weight
//! set per king bucket and, with several, the factoriser (one more set,
//! shared, added to each: what every bucket has in common is learnt from all
//! positions), the hidden biases and the output layers; the forward pass, one
//! position's gradient, and quantization into the engine's `Network`, with the
//! factoriser folded into every set.

use crate::train::gradient::Gradient;
use crate::train::net_sample::Sample;
use crate::win_probability::sigmoid;
use rayon::prelude::*;
use stockman::nnue::{
    INPUTS, KingBuckets, Layers, MAX_BUCKETS, Network, OUTPUT_SCALE, QA, QB, View, WEIGHT_LIMIT,
    WIDTHS,
};
use stockman::rng::SplitMix64;

/// The network in floating point, as trained.
#[derive(Clone)]
pub struct FloatNetwork {
    /// Hidden units per side: one of `nnue::WIDTHS`.
    pub(super) hidden: usize,
    /// Which weight set each side's king square picks.
    pub(super) kings: KingBuckets,
    /// `kings.count()` sets of `INPUTS` rows of `hidden`.
    pub(super) input: Vec<f32>,
    /// The factoriser, `INPUTS` rows of `hidden` added to every set: with
    /// several sets only, empty otherwise.
    pub(super) factor: Vec<f32>,
    /// Each set plus the factoriser, within the quantizable range: the
    /// weights the forward pass reads when there is a factoriser (empty
    /// otherwise). Made again by `refold` whenever either changes.
    folded: Vec<f32>,
    pub(super) input_bias: Vec<f32>,
    /// Output layers, chosen by the number of pieces (1..=`MAX_BUCKETS`).
    pub(super) buckets: usize,
    /// Each bucket's weights: the side to move's `hidden`, then the other side's.
    pub(super) output: Vec<f32>,
    /// Each bucket's bias.
    pub(super) output_bias: Vec<f32>,
}

/// The expected result for a network output `out` (units of
/// `OUTPUT_SCALE` cp) on labels of scale `scale`: the tuner's sigmoid,
/// 1 / (1 + 10^(-cp / scale)), with K = 400 / scale.
#[inline(always)]
fn win_probability(out: f32, scale: f32) -> f32 {
    sigmoid(
        f64::from(400.0 / scale),
        f64::from(out * OUTPUT_SCALE as f32),
    ) as f32
}

impl FloatNetwork {
    /// Small random weights (seeded, so a run is reproducible), `hidden`
    /// units per side (one of `nnue::WIDTHS`), `buckets` output layers, an
    /// input weight set per king bucket of `kings`. With several sets the
    /// factoriser starts random and the sets at zero: every bucket starts
    /// as the same network, the one a single set would start as.
    pub fn random(
        hidden: usize,
        buckets: usize,
        kings: KingBuckets,
        seed: u64,
    ) -> Result<FloatNetwork, String> {
        if !WIDTHS.contains(&hidden) {
            return Err(format!(
                "a network has {WIDTHS:?} hidden units, not {hidden}"
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "a network has 1 to {MAX_BUCKETS} output buckets, not {buckets}"
            ));
        }
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
            (2.0 * unit - 1.0) * limit
        };
        // About 30 inputs are active: keep a hidden unit's sum near 1.
        let first: Vec<f32> = (0..INPUTS * hidden).map(|_| uniform(0.15)).collect();
        let input_bias = (0..hidden).map(|_| uniform(0.1) + 0.1).collect();
        // Twice the units, half the weight: the output starts as small.
        let output_limit = 0.1 * 128.0 / hidden as f32;
        let output = (0..buckets * 2 * hidden)
            .map(|_| uniform(output_limit))
            .collect();
        let (input, factor) = if kings.count() == 1 {
            (first, Vec::new())
        } else {
            (vec![0.0; kings.count() * INPUTS * hidden], first)
        };
        let mut net = FloatNetwork {
            hidden,
            kings,
            input,
            factor,
            folded: Vec::new(),
            input_bias,
            buckets,
            output,
            output_bias: vec![0.0; buckets],
        };
        net.refold();
        Ok(net)
    }

    /// Hidden units per side.
    pub fn hidden_units(&self) -> usize {
        self.hidden
    }

    /// Output layers.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The king-bucket layout.
    pub fn kings(&self) -> KingBuckets {
        self.kings
    }

    /// Whether a factoriser is trained beside the sets.
    pub fn factorised(&self) -> bool {
        !self.factor.is_empty()
    }

    /// Every weight the optimiser moves, in a fixed order: the sets, the
    /// factoriser, the hidden biases, the output weights and biases.
    pub(super) fn params_mut(&mut self) -> [&mut [f32]; 5] {
        [
            &mut self.input,
            &mut self.factor,
            &mut self.input_bias,
            &mut self.output,
            &mut self.output_bias,
        ]
    }

    /// The weights of `params_mut`, to read.
    pub(super) fn params(&self) -> [&[f32]; 5] {
        [
            &self.input,
            &self.factor,
            &self.input_bias,
            &self.output,
            &self.output_bias,
        ]
    }

    /// A gradient of every weight, all zero.
    pub(super) fn zero_gradient(&self) -> Gradient {
        Gradient::zero(self.hidden, self.params().map(<[f32]>::len))
    }

    /// Makes the folded sets again from the sets and the factoriser.
    pub(super) fn refold(&mut self) {
        if self.factor.is_empty() {
            self.folded = Vec::new();
            return;
        }
        let n = self.hidden;
        self.folded.resize(self.input.len(), 0.0);
        let factor = &self.factor;
        self.folded
            .par_chunks_mut(INPUTS * n)
            .zip(self.input.par_chunks(INPUTS * n))
            .for_each(|(folded, set)| {
                for ((f, &w), &shared) in folded.iter_mut().zip(set).zip(factor) {
                    *f = (w + shared).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
                }
            });
    }

    /// The input weights the forward pass reads: each set, folded.
    #[inline(always)]
    fn input_weights(&self) -> &[f32] {
        if self.factor.is_empty() {
            &self.input
        } else {
            &self.folded
        }
    }

    /// Bucket `bucket`'s output weights (both halves).
    #[inline(always)]
    fn output_layer(&self, bucket: usize) -> &[f32] {
        &self.output[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden]
    }

    /// Each side's view of `s`, and both hidden layers before activation
    /// in `h` (the side to move's `hidden` units, then the other side's).
    #[inline(always)]
    fn hidden_into(&self, s: &Sample, h: &mut [f32]) -> [View; 2] {
        let n = self.hidden;
        let weights = self.input_weights();
        let views = [s.view(0, &self.kings), s.view(1, &self.kings)];
        for (half, view) in h.chunks_exact_mut(n).zip(views) {
            half.copy_from_slice(&self.input_bias);
            let set = &weights[view.bucket() * INPUTS * n..][..INPUTS * n];
            for f in s.inputs(view) {
                for (v, w) in half.iter_mut().zip(&set[f * n..(f + 1) * n]) {
                    *v += w;
                }
            }
        }
        views
    }

    /// Both hidden layers of `s`, before activation, for the tests.
    #[cfg(test)]
    pub(super) fn hidden_for_tests(&self, s: &Sample) -> Vec<f32> {
        let mut h = vec![0.0; 2 * self.hidden];
        self.hidden_into(s, &mut h);
        h
    }

    /// The evaluation in centipawns for the side to move.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let mut h = vec![0.0; 2 * self.hidden];
        self.hidden_into(s, &mut h);
        self.output_from(&h, s.bucket(self.buckets)) * OUTPUT_SCALE as f32
    }

    /// The output of layer `bucket` for hidden layers `h`.
    #[inline(always)]
    fn output_from(&self, h: &[f32], bucket: usize) -> f32 {
        let mut out = self.output_bias[bucket];
        for (&x, &w) in h.iter().zip(self.output_layer(bucket)) {
            let c = x.clamp(0.0, 1.0);
            out += c * c * w;
        }
        out
    }

    /// Adds the gradient of (sigmoid(eval / scale) - label)² to `grad`;
    /// returns the squared error. The factoriser's share is left to
    /// `Gradient::merge`: it is the sum of every set's.
    #[inline(always)]
    pub(super) fn backprop(&self, s: &Sample, scale: f32, grad: &mut Gradient) -> f32 {
        let mut h = grad.take_hidden();
        let views = self.hidden_into(s, &mut h);
        let bucket = s.bucket(self.buckets);
        let p = win_probability(self.output_from(&h, bucket), scale);
        let err = p - s.label();
        // dp/d(out) = p (1 - p) · ln 10 · OUTPUT_SCALE / scale.
        let k = OUTPUT_SCALE as f32 * std::f32::consts::LN_10 / scale;
        let g = 2.0 * err * p * (1.0 - p) * k;
        grad.output_bias[bucket] += g;
        let n = self.hidden;
        let layer = bucket * 2 * n;
        for (i, (half, view)) in h.chunks_exact(n).zip(views).enumerate() {
            let weights = &self.output_layer(bucket)[i * n..(i + 1) * n];
            let (output, dh) = grad.output_half_and_scratch(layer + i * n);
            // Unit by unit without a branch or an index check, so that
            // the loop runs in vectors.
            let units = half.iter().zip(weights).zip(output).zip(dh.iter_mut());
            for (((&x, &w), o), d) in units {
                let c = x.clamp(0.0, 1.0);
                *o += g * c * c;
                // Outside (0, 1) the clip's slope is zero.
                *d = if x > 0.0 && x < 1.0 {
                    g * w * 2.0 * c
                } else {
                    0.0
                };
            }
            grad.add_scratch_to_bias();
            let first = view.bucket() * INPUTS;
            for f in s.inputs(view) {
                grad.add_scratch_to_row(first + f);
            }
        }
        grad.put_back_hidden(h);
        err * err
    }

    /// `s`'s squared error, its hidden layers made in `h` (2 x hidden).
    #[inline(always)]
    pub(super) fn squared_error(&self, s: &Sample, scale: f32, h: &mut [f32]) -> f64 {
        self.hidden_into(s, h);
        let p = win_probability(self.output_from(h, s.bucket(self.buckets)), scale);
        f64::from((p - s.label()) * (p - s.label()))
    }

    /// Rounds to the engine's fixed point, the factoriser folded into
    /// every set.
    pub fn quantize(&self) -> Network {
        // `random` made the width one of `WIDTHS`.
        match self.hidden {
            128 => Network::H128(self.quantize_layers()),
            256 => Network::H256(self.quantize_layers()),
            512 => Network::H512(self.quantize_layers()),
            768 => Network::H768(self.quantize_layers()),
            _ => Network::H1024(self.quantize_layers()),
        }
    }

    fn quantize_layers<const H: usize>(&self) -> Layers<H> {
        debug_assert_eq!(H, self.hidden);
        let q =
            |w: f32, unit: i32| (w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT) * unit as f32).round() as i16;
        let mut layers = Layers::<H>::zeroed(self.buckets, self.kings);
        let rows = self.input_weights().chunks(H);
        for (row, weights) in layers.input.iter_mut().zip(rows) {
            for (w, &f) in row.iter_mut().zip(weights) {
                *w = q(f, QA);
            }
        }
        for (b, &w) in layers.input_bias.iter_mut().zip(&self.input_bias) {
            *b = q(w, QA);
        }
        let halves = layers.output[..self.buckets].iter_mut().flatten();
        for (half, weights) in halves.zip(self.output.chunks(H)) {
            for (w, &f) in half.iter_mut().zip(weights) {
                *w = q(f, QB);
            }
        }
        for (b, &f) in layers.output_bias.iter_mut().zip(&self.output_bias) {
            *b = (f * (QA * QB) as f32).round() as i32;
        }
        layers
    }
}
