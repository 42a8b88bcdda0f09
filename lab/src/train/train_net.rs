//! Fitting the network in floating point: positions as sparse inputs with a
//! win-probability label, mean squared error of sigmoid(eval) against it,
//! Adam over minibatches (gradients summed across rayon workers), and
//! quantization into the engine's integer `Network`.

use crate::win_probability::sigmoid;
use rayon::prelude::*;
use shakmaty::{Board, Color, Piece, Role, Square};
use stockman::nnue::{
    INPUTS, KingBuckets, Layers, MAX_BUCKETS, MAX_HIDDEN, Network, OUTPUT_SCALE, QA, QB,
    WEIGHT_LIMIT, WIDTHS, feature, output_bucket,
};
use stockman::rng::SplitMix64;

/// Pieces on a board, at most.
const MAX_PIECES: usize = 32;
/// Positions a rayon worker handles at a time within a batch.
const CHUNK: usize = 2048;

/// One training position: the inputs as White sees them (Black's are
/// mirrored from them), the side to move and White's expected result.
#[derive(Clone)]
pub struct Sample {
    white: [u16; MAX_PIECES],
    count: u8,
    white_to_move: bool,
    label: f32,
}

impl Sample {
    pub fn new(board: &Board, turn: Color, white_result: f32) -> Result<Sample, String> {
        let mut white = [0u16; MAX_PIECES];
        let mut count = 0;
        for (square, piece) in board {
            if count == MAX_PIECES {
                return Err("more than 32 pieces".to_string());
            }
            white[count] = feature(Color::White, piece, square) as u16;
            count += 1;
        }
        // The label is White's result; the network speaks for the side to move.
        let label = if turn == Color::White {
            white_result
        } else {
            1.0 - white_result
        };
        Ok(Sample {
            white,
            count: count as u8,
            white_to_move: turn == Color::White,
            label,
        })
    }

    /// The same position with files a and h swapped, which has the same
    /// value by the rules' symmetry, or `None` where it may not: a king and
    /// one of its rooks on their starting squares may still castle, and
    /// castling is not symmetric (the inputs do not say whether it may).
    pub fn file_mirrored(&self) -> Option<Sample> {
        if self.may_castle() {
            return None;
        }
        let mut mirror = self.clone();
        for f in &mut mirror.white[..mirror.count as usize] {
            // Squares are the low six bits of a feature, files the low three.
            *f ^= 7;
        }
        Some(mirror)
    }

    /// Whether a king and a rook of its colour stand on their starting squares.
    fn may_castle(&self) -> bool {
        let pieces = &self.white[..self.count as usize];
        let on = |color, role, square| {
            pieces.contains(&(feature(Color::White, Piece { color, role }, square) as u16))
        };
        [
            (Color::White, Square::E1, Square::A1, Square::H1),
            (Color::Black, Square::E8, Square::A8, Square::H8),
        ]
        .into_iter()
        .any(|(color, king, a, h)| {
            on(color, Role::King, king) && (on(color, Role::Rook, a) || on(color, Role::Rook, h))
        })
    }

    /// The output layer of this position in a network of `buckets`.
    fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.count as usize, buckets)
    }

    /// The inputs seen by the side to move (`half` 0) or by the other side (1).
    fn inputs(&self, half: usize) -> impl Iterator<Item = usize> + '_ {
        let black_view = self.white_to_move == (half == 1);
        self.white[..self.count as usize].iter().map(move |&f| {
            if black_view {
                mirror(f as usize)
            } else {
                f as usize
            }
        })
    }
}

/// White's input index → the same piece seen from Black's side.
#[inline]
fn mirror(f: usize) -> usize {
    let (side, rest) = (f / 384, f % 384);
    (side ^ 1) * 384 + (rest / 64) * 64 + ((rest % 64) ^ 56)
}

/// The expected result for a network output `out` (units of
/// `OUTPUT_SCALE` cp) on labels of scale `scale`: the tuner's sigmoid,
/// 1 / (1 + 10^(-cp / scale)), with K = 400 / scale.
fn win_probability(out: f32, scale: f32) -> f32 {
    sigmoid(
        f64::from(400.0 / scale),
        f64::from(out * OUTPUT_SCALE as f32),
    ) as f32
}

/// Both sides' hidden layers, the first `hidden` units of each in use.
type Hidden = [[f32; MAX_HIDDEN]; 2];

/// The network in floating point, as trained.
#[derive(Clone)]
pub struct FloatNetwork {
    /// Hidden units per side: one of `nnue::WIDTHS`.
    hidden: usize,
    /// `INPUTS` rows of `hidden`.
    input: Vec<f32>,
    input_bias: Vec<f32>,
    /// Output layers, chosen by the number of pieces (1..=`MAX_BUCKETS`).
    buckets: usize,
    /// Each bucket's weights: the side to move's `hidden`, then the other side's.
    output: Vec<f32>,
    /// Each bucket's bias.
    output_bias: Vec<f32>,
}

impl FloatNetwork {
    /// Small random weights (seeded, so a run is reproducible), `hidden`
    /// units per side (one of `nnue::WIDTHS`), `buckets` output layers.
    pub fn random(hidden: usize, buckets: usize, seed: u64) -> Result<FloatNetwork, String> {
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
        let input = (0..INPUTS * hidden).map(|_| uniform(0.15)).collect();
        let input_bias = (0..hidden).map(|_| uniform(0.1) + 0.1).collect();
        // Twice the units, half the weight: the output starts as small.
        let output_limit = 0.1 * 128.0 / hidden as f32;
        let output = (0..buckets * 2 * hidden)
            .map(|_| uniform(output_limit))
            .collect();
        Ok(FloatNetwork {
            hidden,
            input,
            input_bias,
            buckets,
            output,
            output_bias: vec![0.0; buckets],
        })
    }

    /// Hidden units per side.
    pub fn hidden_units(&self) -> usize {
        self.hidden
    }

    /// Output layers.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.input.len() + self.input_bias.len() + self.output.len() + self.output_bias.len()
    }

    fn zeros_like(&self) -> FloatNetwork {
        FloatNetwork {
            hidden: self.hidden,
            input: vec![0.0; self.input.len()],
            input_bias: vec![0.0; self.hidden],
            buckets: self.buckets,
            output: vec![0.0; self.output.len()],
            output_bias: vec![0.0; self.buckets],
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.input
            .iter_mut()
            .chain(self.input_bias.iter_mut())
            .chain(self.output.iter_mut())
            .chain(self.output_bias.iter_mut())
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.input
            .iter()
            .chain(self.input_bias.iter())
            .chain(self.output.iter())
            .chain(self.output_bias.iter())
    }

    /// Bucket `bucket`'s output weights (both halves).
    fn output_layer(&self, bucket: usize) -> &[f32] {
        &self.output[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden]
    }

    fn add_assign(&mut self, other: &FloatNetwork) {
        for (a, b) in self.params_mut().zip(other.params()) {
            *a += b;
        }
    }

    /// Both hidden layers (side to move, other side), before activation.
    fn hidden(&self, s: &Sample) -> Hidden {
        let n = self.hidden;
        let mut h = [[0.0f32; MAX_HIDDEN]; 2];
        for (i, half) in h.iter_mut().enumerate() {
            let half = &mut half[..n];
            half.copy_from_slice(&self.input_bias);
            for f in s.inputs(i) {
                let row = &self.input[f * n..(f + 1) * n];
                for (v, w) in half.iter_mut().zip(row) {
                    *v += w;
                }
            }
        }
        h
    }

    /// The evaluation in centipawns for the side to move.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let h = self.hidden(s);
        self.output_from(&h, s.bucket(self.buckets)) * OUTPUT_SCALE as f32
    }

    fn output_from(&self, h: &Hidden, bucket: usize) -> f32 {
        let mut out = self.output_bias[bucket];
        for (half, weights) in h.iter().zip(self.output_layer(bucket).chunks(self.hidden)) {
            for (&x, &w) in half.iter().zip(weights) {
                let c = x.clamp(0.0, 1.0);
                out += c * c * w;
            }
        }
        out
    }

    /// Adds the gradient of (sigmoid(eval / scale) - label)² to `grad`;
    /// returns the squared error.
    fn backprop(&self, s: &Sample, scale: f32, grad: &mut FloatNetwork) -> f32 {
        let h = self.hidden(s);
        let bucket = s.bucket(self.buckets);
        let p = win_probability(self.output_from(&h, bucket), scale);
        let err = p - s.label;
        // dp/d(out) = p (1 - p) · ln 10 · OUTPUT_SCALE / scale.
        let k = OUTPUT_SCALE as f32 * std::f32::consts::LN_10 / scale;
        let g = 2.0 * err * p * (1.0 - p) * k;
        grad.output_bias[bucket] += g;
        let n = self.hidden;
        let layer = bucket * 2 * n;
        for (i, half) in h.iter().enumerate() {
            let weights = &self.output_layer(bucket)[i * n..(i + 1) * n];
            let mut dh = [0.0f32; MAX_HIDDEN];
            let dh = &mut dh[..n];
            for j in 0..n {
                let c = half[j].clamp(0.0, 1.0);
                grad.output[layer + i * n + j] += g * c * c;
                if half[j] > 0.0 && half[j] < 1.0 {
                    dh[j] = g * weights[j] * 2.0 * c;
                }
            }
            for (b, d) in grad.input_bias.iter_mut().zip(dh.iter()) {
                *b += d;
            }
            for f in s.inputs(i) {
                let row = &mut grad.input[f * n..(f + 1) * n];
                for (w, d) in row.iter_mut().zip(dh.iter()) {
                    *w += d;
                }
            }
        }
        err * err
    }

    /// The mean squared error over `samples`.
    pub fn error(&self, samples: &[Sample], scale: f32) -> f64 {
        // Summed per chunk, then in chunk order: the same number every run.
        let parts: Vec<f64> = samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|s| {
                        let out = self.output_from(&self.hidden(s), s.bucket(self.buckets));
                        let p = win_probability(out, scale);
                        f64::from((p - s.label) * (p - s.label))
                    })
                    .sum()
            })
            .collect();
        parts.iter().sum::<f64>() / samples.len().max(1) as f64
    }

    /// Rounds to the engine's fixed point.
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
        let mut layers = Layers::<H>::zeroed(self.buckets, KingBuckets::NONE);
        for (row, weights) in layers.input.iter_mut().zip(self.input.chunks(H)) {
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

/// Adam's settings and state.
pub struct Adam {
    pub rate: f32,
    m: FloatNetwork,
    v: FloatNetwork,
    t: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    pub fn new(net: &FloatNetwork, rate: f32) -> Adam {
        Adam {
            rate,
            m: net.zeros_like(),
            v: net.zeros_like(),
            t: 0,
        }
    }

    /// One step along the mean gradient `grad` (summed over `n` samples);
    /// weights are kept within the quantizable range.
    fn step(&mut self, net: &mut FloatNetwork, grad: &FloatNetwork, n: usize) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t);
        let c2 = 1.0 - BETA2.powi(self.t);
        let scale = 1.0 / n as f32;
        for (((w, g), m), v) in net
            .params_mut()
            .zip(grad.params())
            .zip(self.m.params_mut())
            .zip(self.v.params_mut())
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= self.rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }
}

/// One pass over `samples` in minibatches of `batch`, telling `on_batch`
/// the size of each one done and the mean squared error of the pass so far;
/// returns the mean squared error seen during the pass.
pub fn train_epoch(
    net: &mut FloatNetwork,
    adam: &mut Adam,
    samples: &[Sample],
    batch: usize,
    scale: f32,
    mut on_batch: impl FnMut(usize, f64),
) -> f64 {
    let (mut total, mut seen) = (0.0f64, 0usize);
    for minibatch in samples.chunks(batch) {
        // Each chunk's gradient, then their sum in chunk order: the same
        // floating-point sums whatever the threads, so a seed repeats a run.
        let parts: Vec<(FloatNetwork, f64)> = minibatch
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut grad = net.zeros_like();
                let error: f32 = chunk
                    .iter()
                    .map(|s| net.backprop(s, scale, &mut grad))
                    .sum();
                (grad, f64::from(error))
            })
            .collect();
        let mut parts = parts.into_iter();
        let (mut grad, mut error) = parts.next().expect("a non-empty batch");
        for (g, e) in parts {
            grad.add_assign(&g);
            error += e;
        }
        adam.step(net, &grad, minibatch.len());
        total += error;
        seen += minibatch.len();
        on_batch(minibatch.len(), total / seen as f64);
    }
    total / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn sample(fen: &str, result: f32) -> Sample {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Sample::new(pos.board(), pos.turn(), result).unwrap()
    }

    #[test]
    fn a_file_mirror_is_the_mirrored_position_unless_castling_may_be_possible() {
        let sorted = |s: &Sample| {
            let mut f = s.white[..s.count as usize].to_vec();
            f.sort_unstable();
            (f, s.white_to_move, s.label)
        };
        let mirrored = sample("8/5k2/8/3p4/8/2N5/1K5R/8 b - - 0 1", 0.25)
            .file_mirrored()
            .unwrap();
        let expected = sample("8/2k5/8/4p3/8/5N2/R5K1/8 b - - 0 1", 0.25);
        assert_eq!(sorted(&mirrored), sorted(&expected));
        let net = FloatNetwork::random(128, 8, 3).unwrap();
        assert_eq!(net.evaluate(&mirrored), net.evaluate(&expected));
        // A king and a rook at home: castling may be possible; the king at
        // home without a rook at home, or the rook without the king: not.
        for (fen, mirrors) in [
            ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
            ("r3k3/8/8/8/8/8/8/4K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/R2K4 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4K1R1 w - - 0 1", true),
        ] {
            assert_eq!(sample(fen, 0.5).file_mirrored().is_some(), mirrors, "{fen}");
        }
    }

    #[test]
    fn mirroring_matches_the_engine_features() {
        let pos = Chess::default();
        for (square, piece) in pos.board() {
            assert_eq!(
                mirror(feature(Color::White, piece, square)),
                feature(Color::Black, piece, square)
            );
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for hidden in WIDTHS {
            for buckets in [1, 8] {
                gradient_matches_finite_differences(hidden, buckets);
            }
        }
    }

    fn gradient_matches_finite_differences(hidden: usize, buckets: usize) {
        let net = FloatNetwork::random(hidden, buckets, 3).unwrap();
        // 21 pieces: the fifth of eight buckets.
        let s = sample("r3k2r/ppp2ppp/8/3q4/8/2N5/PPP2PPP/R2QK2R b KQkq - 0 1", 0.8);
        let bucket = s.bucket(buckets);
        assert_eq!(bucket, if buckets == 8 { 4 } else { 0 });
        let mut grad = net.zeros_like();
        net.backprop(&s, 350.0, &mut grad);
        let loss = |n: &FloatNetwork| {
            let mut g = n.zeros_like();
            n.backprop(&s, 350.0, &mut g)
        };
        // Output weights of units active for the sample (others have no gradient).
        let h = net.hidden(&s);
        let active = |half: usize| (0..hidden).find(|&j| h[half][j] > 0.0).unwrap();
        let outputs = INPUTS * hidden + hidden;
        let probes = [
            ("output bias", outputs + buckets * 2 * hidden + bucket),
            ("output weight", outputs + bucket * 2 * hidden + active(0)),
            (
                "other side's output weight",
                outputs + bucket * 2 * hidden + hidden + active(1),
            ),
            ("input bias", INPUTS * hidden + active(0)),
        ];
        for (name, index) in probes {
            assert!(index < net.len());
            let analytic = *grad.params().nth(index).unwrap();
            assert_ne!(analytic, 0.0, "{name}: a weight the sample uses");
            let h = 1e-2f32;
            let mut up = net.clone();
            *up.params_mut().nth(index).unwrap() += h;
            let mut down = net.clone();
            *down.params_mut().nth(index).unwrap() -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            assert!(
                (analytic - numeric).abs() < 1e-3 + 0.05 * numeric.abs(),
                "{name}: analytic {analytic}, numeric {numeric}"
            );
        }
    }

    #[test]
    fn training_fits_material_and_quantizes_faithfully() {
        for hidden in WIDTHS {
            for buckets in [1, 8] {
                fits_material_and_quantizes_faithfully(hidden, buckets);
            }
        }
        assert!(FloatNetwork::random(100, 1, 1).is_err());
        assert!(FloatNetwork::random(128, 0, 1).is_err());
        assert!(FloatNetwork::random(128, 9, 1).is_err());
    }

    fn fits_material_and_quantizes_faithfully(hidden: usize, buckets: usize) {
        // White is a queen up in half the positions and a queen down in the
        // other half; the label says so.
        let up = "4k3/pppp4/8/8/8/8/PPPP4/3QK3";
        let down = "3qk3/pppp4/8/8/8/8/PPPP4/4K3";
        let samples: Vec<Sample> = (0..64)
            .flat_map(|_| {
                [
                    sample(&format!("{up} w - - 0 1"), 0.95),
                    sample(&format!("{up} b - - 0 1"), 0.95),
                    sample(&format!("{down} w - - 0 1"), 0.05),
                    sample(&format!("{down} b - - 0 1"), 0.05),
                ]
            })
            .collect();
        let mut net = FloatNetwork::random(hidden, buckets, 1).unwrap();
        // Adam moves every weight by about the rate: the output of a wider
        // layer, a sum over more units, moves faster at the same rate.
        let rate = 0.01 * (256.0 / hidden as f32).min(1.0);
        let mut adam = Adam::new(&net, rate);
        let before = net.error(&samples, 350.0);
        for _ in 0..60 {
            train_epoch(&mut net, &mut adam, &samples, 64, 350.0, |_, _| {});
        }
        let after = net.error(&samples, 350.0);
        assert!(
            after < before / 10.0 && after < 0.002,
            "{hidden} units, {buckets} buckets: {before} -> {after}"
        );
        // The integer network agrees with the float one to a few centipawns.
        let quantized = net.quantize();
        assert_eq!((quantized.hidden(), quantized.buckets()), (hidden, buckets));
        for fen in [format!("{up} w - - 0 1"), format!("{down} b - - 0 1")] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let float = net.evaluate(&sample(&fen, 0.5));
            let int = quantized.evaluate(pos.board(), pos.turn());
            assert!(float > 300.0, "{fen}: {float}");
            // Rounding the output weights to 1/QB costs a few per cent at
            // most: each of the 2 x hidden products is off by up to 1/128 of
            // its activation, and the integer sums round towards zero.
            let tolerance = 5.0 + 0.05 * float.abs();
            assert!(
                (float - int as f32).abs() < tolerance,
                "{hidden} units, {buckets} buckets, {fen}: float {float}, integer {int}"
            );
        }
    }
}
