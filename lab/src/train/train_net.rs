//! Fitting the network: positions as sparse inputs with a win-probability
//! label, mean squared error of sigmoid(eval) against it, Adam over
//! minibatches, each minibatch's gradient summed per chunk across rayon
//! workers and then in chunk order; the error over a set of positions
//! (`float_net` holds the network and its gradient of one position,
//! `gradient` the sums, `adam` the step, `vectors` the loops' AVX2 build).

pub use crate::train::adam::Adam;
pub use crate::train::float_net::FloatNetwork;
use crate::train::gradient::Gradient;
pub use crate::train::net_sample::Sample;
use crate::train::vectors::{chunk_error, chunk_gradient};
use rayon::prelude::*;

/// Positions a rayon worker handles at a time: a minibatch's gradient and
/// the error are summed per chunk of this many, then in chunk order.
pub const CHUNK: usize = 2048;

impl FloatNetwork {
    /// The mean squared error over `samples`.
    pub fn error(&self, samples: &[Sample], scale: f32) -> f64 {
        // Summed per chunk, then in chunk order: the same number every run.
        let parts: Vec<f64> = samples
            .par_chunks(CHUNK)
            .map(|chunk| chunk_error(self, chunk, scale))
            .collect();
        parts.iter().sum::<f64>() / samples.len().max(1) as f64
    }
}

/// The gradients of one minibatch: one per chunk, and their sum. Kept
/// from one minibatch and one epoch to the next: only the input rows a
/// chunk touched are cleared, and no large buffer is handed back to the
/// system and mapped again.
pub struct Minibatch {
    parts: Vec<Gradient>,
    sum: Gradient,
}

impl Minibatch {
    /// Room for minibatches of `batch` positions of `net`.
    pub fn new(net: &FloatNetwork, batch: usize) -> Minibatch {
        let chunks = batch.div_ceil(CHUNK).max(1);
        Minibatch {
            parts: (0..chunks).map(|_| net.zero_gradient()).collect(),
            sum: net.zero_gradient(),
        }
    }
}

/// One pass over `samples` in minibatches of `batch` (at most the batch
/// `room` was made for), telling `on_batch` the size of each one done and
/// the mean squared error of the pass so far; returns the mean squared
/// error seen during the pass.
pub fn train_epoch(
    net: &mut FloatNetwork,
    adam: &mut Adam,
    room: &mut Minibatch,
    samples: &[Sample],
    batch: usize,
    scale: f32,
    mut on_batch: impl FnMut(usize, f64),
) -> f64 {
    let (mut total, mut seen) = (0.0f64, 0usize);
    for minibatch in samples.chunks(batch) {
        let errors: Vec<f64> = minibatch
            .par_chunks(CHUNK)
            .zip(room.parts.par_iter_mut())
            .map(|(chunk, grad)| {
                grad.clear();
                f64::from(chunk_gradient(net, chunk, scale, grad))
            })
            .collect();
        // The chunks' sum in chunk order: the same floating-point sums
        // whatever the threads, so a seed repeats a run.
        room.sum.merge(&room.parts[..errors.len()]);
        adam.step(net, &room.sum, minibatch.len());
        total += errors.iter().sum::<f64>();
        seen += minibatch.len();
        on_batch(minibatch.len(), total / seen as f64);
    }
    total / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::king_layouts::king_layout;
    use crate::train::net_sample::sample;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
    use stockman::nnue::{INPUTS, KingBuckets, OUTPUT_SCALE, QB, WIDTHS};

    /// Networks of every width, without king buckets; then with the
    /// layouts' buckets (a factoriser beside four, eight and sixteen sets).
    fn shapes() -> Vec<(usize, usize, KingBuckets)> {
        let mut shapes: Vec<_> = WIDTHS
            .iter()
            .flat_map(|&h| [(h, 1, KingBuckets::NONE), (h, 8, KingBuckets::NONE)])
            .collect();
        for (hidden, name) in [(128, "mirror"), (128, "4"), (256, "8"), (128, "16")] {
            shapes.push((hidden, 8, king_layout(name).unwrap()));
        }
        shapes
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for (hidden, buckets, kings) in shapes() {
            gradient_matches_finite_differences(hidden, buckets, kings);
        }
    }

    /// The gradient of one position against the loss's finite differences,
    /// weight by weight: an output bias and weights of both halves, a hidden
    /// bias, an input weight of each side's set and, with a factoriser, of
    /// the factoriser for an input both sides see.
    fn gradient_matches_finite_differences(hidden: usize, buckets: usize, kings: KingBuckets) {
        let mut net = FloatNetwork::random(hidden, buckets, kings, 3).unwrap();
        // Every set and the factoriser non-zero, so that each path counts.
        let mut seed = 11u64;
        for group in net.params_mut() {
            for w in group.iter_mut() {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                *w += ((seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.1;
            }
        }
        net.refold();
        // 21 pieces: the fifth of eight buckets. Black (to move) has its
        // king on e8, White on g1: mirrored views with a mirrored layout.
        let s = sample("r3k2r/ppp2ppp/8/3q4/8/2N5/PPP2PPP/R2Q1RK1 b kq - 0 1", 0.8);
        let bucket = s.bucket(buckets);
        assert_eq!(bucket, if buckets == 8 { 4 } else { 0 });
        let mut grad = net.zero_gradient();
        net.backprop(&s, 350.0, &mut grad);
        let mut sum = net.zero_gradient();
        sum.merge(std::slice::from_ref(&grad));
        let loss = |n: &FloatNetwork| {
            let mut g = n.zero_gradient();
            n.backprop(&s, 350.0, &mut g)
        };
        let views = [s.view(0, &kings), s.view(1, &kings)];
        let h = net.hidden_for_tests(&s);
        // A unit active and unclipped on both sides (others have no input gradient).
        let unit = (0..hidden)
            .find(|&j| [h[j], h[hidden + j]].iter().all(|&x| x > 0.0 && x < 1.0))
            .expect("a unit inside its clip on both sides");
        let input_row = |half: usize, f: usize| (views[half].bucket() * INPUTS + f) * hidden + unit;
        let first: Vec<usize> = [0, 1]
            .map(|half| s.inputs(views[half]).next().unwrap())
            .to_vec();
        let mut probes = vec![
            ("output bias", 4, bucket),
            ("output weight", 3, bucket * 2 * hidden + unit),
            (
                "other side's output weight",
                3,
                bucket * 2 * hidden + hidden + unit,
            ),
            ("input bias", 2, unit),
            ("side to move's input weight", 0, input_row(0, first[0])),
            ("other side's input weight", 0, input_row(1, first[1])),
        ];
        if net.factorised() {
            probes.push(("factoriser weight", 1, first[0] * hidden + unit));
            // An input both sides see: its factoriser weight has both shares.
            let both = s
                .inputs(views[0])
                .find(|f| s.inputs(views[1]).any(|g| g == *f));
            if let Some(f) = both {
                probes.push(("factoriser weight seen twice", 1, f * hidden + unit));
            }
        }
        for (name, group, index) in probes {
            let analytic = sum.params()[group][index];
            assert_ne!(analytic, 0.0, "{name}: a weight the sample uses");
            let step = 1e-2f32;
            let nudged = |by: f32| {
                let mut n = net.clone();
                n.params_mut()[group][index] += by;
                n.refold();
                loss(&n)
            };
            let numeric = (nudged(step) - nudged(-step)) / (2.0 * step);
            assert!(
                (analytic - numeric).abs() < 1e-3 + 0.05 * numeric.abs(),
                "{hidden} units, {} king buckets, {name}: analytic {analytic}, numeric {numeric}",
                kings.count()
            );
        }
    }

    /// With a mirrored layout a position and its mirror give each side the
    /// same inputs, so the same value (why `--mirror` is skipped then);
    /// without one they differ.
    #[test]
    fn a_mirrored_layout_sees_a_position_and_its_mirror_alike() {
        let s = sample("8/5k2/8/3p4/8/2N5/1K5R/8 b - - 0 1", 0.25);
        let mirror = s.file_mirrored().unwrap();
        for (name, alike) in [("none", false), ("mirror", true), ("8", true)] {
            let net = FloatNetwork::random(128, 8, king_layout(name).unwrap(), 9).unwrap();
            let same = net.evaluate(&s) == net.evaluate(&mirror);
            assert_eq!(same, alike, "{name}");
        }
    }

    #[test]
    fn training_fits_material_and_quantizes_faithfully() {
        for (hidden, buckets, kings) in shapes() {
            fits_material_and_quantizes_faithfully(hidden, buckets, kings);
        }
        let none = KingBuckets::NONE;
        assert!(FloatNetwork::random(100, 1, none, 1).is_err());
        assert!(FloatNetwork::random(128, 0, none, 1).is_err());
        assert!(FloatNetwork::random(128, 9, none, 1).is_err());
    }

    fn fits_material_and_quantizes_faithfully(hidden: usize, buckets: usize, kings: KingBuckets) {
        // White is a queen up in half the positions and a queen down in the
        // other half, the kings on both wings and several ranks (so through
        // several buckets and both mirrors); the label says so.
        let ups = [
            "4k3/pppp4/8/8/8/8/PPPP4/3QK3",
            "8/pppp2k1/8/8/8/8/PPPP4/1K1Q4",
        ];
        let downs = [
            "3qk3/pppp4/8/8/8/8/PPPP4/4K3",
            "6k1/pppp4/3q4/8/8/2K5/PPPP4/8",
        ];
        let samples: Vec<Sample> = (0..32)
            .flat_map(|_| {
                ups.iter()
                    .map(|up| (up, 0.95))
                    .chain(downs.iter().map(|down| (down, 0.05)))
                    .flat_map(|(fen, result)| {
                        [
                            sample(&format!("{fen} w - - 0 1"), result),
                            sample(&format!("{fen} b - - 0 1"), result),
                        ]
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut net = FloatNetwork::random(hidden, buckets, kings, 1).unwrap();
        // Adam moves every weight by about the rate: the output of a wider
        // layer, a sum over more units, moves faster at the same rate.
        let rate = 0.01 * (256.0 / hidden as f32).min(1.0);
        let mut adam = Adam::new(&net, rate);
        let before = net.error(&samples, 350.0);
        let mut room = Minibatch::new(&net, 64);
        for _ in 0..60 {
            train_epoch(
                &mut net,
                &mut adam,
                &mut room,
                &samples,
                64,
                350.0,
                |_, _| {},
            );
        }
        let after = net.error(&samples, 350.0);
        let shape = format!(
            "{hidden} units, {buckets} output buckets, {} king buckets",
            kings.count()
        );
        assert!(
            after < before / 10.0 && after < 0.002,
            "{shape}: {before} -> {after}"
        );
        // The integer network agrees with the float one to a few centipawns.
        let quantized = net.quantize();
        assert_eq!((quantized.hidden(), quantized.buckets()), (hidden, buckets));
        assert_eq!(quantized.kings(), kings);
        for fen in ups
            .iter()
            .chain(&downs)
            .flat_map(|f| [format!("{f} w - - 0 1"), format!("{f} b - - 0 1")])
        {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let s = sample(&fen, 0.5);
            let float = net.evaluate(&s);
            let int = quantized.evaluate(pos.board(), pos.turn());
            assert!(float.abs() > 300.0, "{shape}, {fen}: {float}");
            // Rounding each output weight to 1/QB moves the output by up to
            // c²/(2 QB) for an activation c: a sum of 2 x hidden independent
            // errors, of standard deviation sqrt(Σ c⁴) / (2 QB √3), which
            // grows with the width. Within three of those, and a few per cent
            // for the rest (the hidden layer's rounding, the integer sums'
            // truncation towards zero).
            let h = net.hidden_for_tests(&s);
            let c4: f32 = h.iter().map(|x| x.clamp(0.0, 1.0).powi(4)).sum();
            let sigma = OUTPUT_SCALE as f32 * c4.sqrt() / (2.0 * QB as f32 * 3f32.sqrt());
            let tolerance = 5.0 + 0.03 * float.abs() + 3.0 * sigma;
            assert!(
                (float - int as f32).abs() < tolerance,
                "{shape}, {fen}: float {float}, integer {int}"
            );
        }
    }
}
