//! The evaluation network: 768 piece-square inputs seen from each side,
//! through one of up to 32 input weight sets picked by that side's king
//! square (king buckets, optionally mirrored left to right), one hidden layer
//! of `H` squared-clipped-ReLU units per side (128 to 1024), one output from
//! one of up to eight output layers chosen by the number of pieces on the
//! board (output buckets). This module owns the network's shapes and integer
//! weights; `format` reads and writes the files, `king_buckets` the layouts,
//! `accumulator` and `evaluator` keep the hidden layer up to date along the
//! search. The lab's `train::train_net` fits the weights in floating point
//! and quantizes them (`stockman-lab train-net`).

pub mod accumulator;
pub mod evaluator;
mod format;
pub mod king_buckets;
mod refresh_cache;
mod simd;

pub use accumulator::Accumulator;
pub use evaluator::NetworkEvaluator;
pub use format::{MAX_FILE_BYTES, file_bytes};
pub use king_buckets::{KingBuckets, MAX_KING_BUCKETS, View};
pub use simd::Isa;

use shakmaty::{Board, Color, Piece, Square};
use std::sync::{Arc, OnceLock};

/// Inputs: (own/their piece) × 6 roles × 64 squares, from one side's view.
pub const INPUTS: usize = 768;
/// The hidden widths a network may have (units per side).
pub const WIDTHS: [usize; 5] = [128, 256, 512, 768, 1024];
/// The widest hidden layer.
pub const MAX_HIDDEN: usize = 1024;
/// The hidden layer's fixed-point unit: 1.0 is `QA`; activations clip to it.
pub const QA: i32 = 255;
/// The output weights' fixed-point unit.
pub const QB: i32 = 64;
/// The network's output 1.0 is this many centipawns.
pub const OUTPUT_SCALE: i32 = 400;
/// Largest float weight that survives quantization into i8-sized output
/// weights and i16 accumulators without overflow: a hidden unit sums its
/// bias and at most 32 inputs, 33 × 1.98 × 255 = 16,662 < 2¹⁵, whatever the
/// width; an output product clamp(h) · w is at most 255 · 127 < 2¹⁵.
pub const WEIGHT_LIMIT: f32 = 1.98;

/// The most output layers (buckets) a network may have.
pub const MAX_BUCKETS: usize = 8;

/// The output layer of a position with `pieces` on the board, of a network
/// with `buckets` of them: 2 to 32 pieces cut into `buckets` equal
/// ranges (with eight: 2-5 pieces use the first, 30-32 the last).
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 32).min(buckets - 1)
}

/// The network this build plays with, trained by `stockman-lab train-net`
/// (see net/README.md and docs/training.md for the data it came from):
/// net/stockman.nnue, or the file `EVALFILE` named at build time
/// (`make EVALFILE=...`; build.rs checks its size).
static EMBEDDED: &[u8] = include_bytes!(env!("STOCKMAN_EVALFILE"));

/// The input index of `piece` on `square`, seen from `perspective`, in a
/// network without king buckets: Black sees the board mirrored vertically,
/// with its own pieces first.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let (side, sq) = match perspective {
        Color::White => (piece.color as usize ^ 1, square as usize),
        Color::Black => (piece.color as usize, square as usize ^ 56),
    };
    // shakmaty: Color::Black = 0, White = 1; own pieces get side 0.
    side * 384 + (piece.role as usize - 1) * 64 + sq
}

/// The quantized weights of a network `H` hidden units wide.
#[derive(Clone)]
pub struct Layers<const H: usize> {
    /// Which input weight set each side's king square picks.
    pub kings: KingBuckets,
    /// Input weights: `kings.count()` sets of `INPUTS` rows of `H`, set by
    /// set (units of `QA`).
    pub input: Box<[[i16; H]]>,
    pub input_bias: [i16; H],
    /// Output layers in use (1..=`MAX_BUCKETS`); the others are zero.
    pub buckets: usize,
    /// Each bucket's output weights: the side to move's half, then the
    /// other side's (units of `QB`).
    pub output: [[[i16; H]; 2]; MAX_BUCKETS],
    /// Each bucket's output bias (units of `QA * QB`).
    pub output_bias: [i32; MAX_BUCKETS],
}

impl<const H: usize> Layers<H> {
    /// All weights zero, `buckets` output layers (1..=`MAX_BUCKETS`), the
    /// input sets of `kings`: the trainer fills them in.
    pub fn zeroed(buckets: usize, kings: KingBuckets) -> Layers<H> {
        debug_assert!((1..=MAX_BUCKETS).contains(&buckets));
        Layers {
            kings,
            input: vec![[0i16; H]; kings.count() * INPUTS].into_boxed_slice(),
            input_bias: [0; H],
            buckets,
            output: [[[0; H]; 2]; MAX_BUCKETS],
            output_bias: [0; MAX_BUCKETS],
        }
    }

    /// Every i16 weight in file order (net/README.md): the input sets, the
    /// hidden biases, then the output layers in use. The file reader and
    /// writer and the lab's blend all walk this one order.
    pub fn words(&self) -> impl Iterator<Item = &i16> {
        self.input
            .iter()
            .flatten()
            .chain(&self.input_bias)
            .chain(self.output[..self.buckets].iter().flatten().flatten())
    }

    /// [`Layers::words`], to be written.
    pub fn words_mut(&mut self) -> impl Iterator<Item = &mut i16> {
        self.input
            .iter_mut()
            .flatten()
            .chain(&mut self.input_bias)
            .chain(self.output[..self.buckets].iter_mut().flatten().flatten())
    }

    /// The output layer of a position with `pieces` on the board.
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets)
    }

    /// The input weight set `view` uses.
    #[inline(always)]
    pub fn input_set(&self, view: View) -> &[[i16; H]; INPUTS] {
        // A view of this network's layout has a bucket below its count, and
        // the network has a set for each.
        self.input[view.bucket() * INPUTS..]
            .first_chunk::<INPUTS>()
            .expect("a set for every bucket of the layout")
    }

    /// How each side (index: `Color as usize`) sees `board`.
    #[inline(always)]
    pub fn views(&self, board: &Board) -> [View; 2] {
        self.kings.views(board)
    }

    /// Small random weights, for tests of every width.
    #[cfg(test)]
    pub(crate) fn random(seed: u64, buckets: usize) -> Layers<H> {
        Layers::random_with(seed, buckets, KingBuckets::NONE)
    }

    /// Small random weights with the input sets of `kings`.
    #[cfg(test)]
    pub(crate) fn random_with(seed: u64, buckets: usize, kings: KingBuckets) -> Layers<H> {
        let mut seed = seed | 1;
        let mut next = |limit: i16| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * limit as u64 + 1)) as i16 - limit
        };
        let mut layers = Layers::<H>::zeroed(buckets, kings);
        for w in layers.input.iter_mut().flatten() {
            *w = next(60);
        }
        for b in layers.input_bias.iter_mut() {
            *b = next(100) + 100;
        }
        for w in layers.output[..buckets].iter_mut().flatten().flatten() {
            *w = next(100);
        }
        for (i, b) in layers.output_bias[..buckets].iter_mut().enumerate() {
            *b = 1234 - 500 * i as i32;
        }
        layers
    }

    /// The evaluation in centipawns for the side to move, whose hidden
    /// layer is `us`, the other side's `them`, through output layer `bucket`.
    #[inline(always)]
    pub fn output(&self, us: &[i16; H], them: &[i16; H], bucket: usize) -> i32 {
        let weights = &self.output[bucket];
        let sum = half_sum(us, &weights[0]) + half_sum(them, &weights[1]);
        let sum = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        // At most 2 · 1024 · 255 · 127 + 2³¹ before the scaling: no overflow.
        (sum * i64::from(OUTPUT_SCALE) / i64::from(QA * QB)) as i32
    }
}

/// Units summed in 32 bits at a time: Σ clamp(h, 0, QA)² · w over 256 units
/// is at most 256 · 255² · 127 < 2³¹.
const SUM_CHUNK: usize = 256;

/// Σ clamp(h, 0, QA)² · w over one side's units. The product c · w fits in
/// i16 (255 · 127 = 32385), so a unit is one 16-bit multiply and one
/// 16×16→32-bit multiply-add (what SIMD offers as madd); wider layers add
/// their 256-unit chunks' sums in 64 bits.
#[inline(always)]
fn half_sum<const H: usize>(hidden: &[i16; H], weights: &[i16; H]) -> i64 {
    const { assert!(H <= SUM_CHUNK || H.is_multiple_of(SUM_CHUNK)) };
    if H <= SUM_CHUNK {
        return i64::from(chunk_sum(hidden, weights));
    }
    let (hidden, _) = hidden.as_chunks::<SUM_CHUNK>();
    let (weights, _) = weights.as_chunks::<SUM_CHUNK>();
    hidden
        .iter()
        .zip(weights)
        .map(|(h, w)| i64::from(chunk_sum(h, w)))
        .sum()
}

#[inline(always)]
fn chunk_sum<const N: usize>(hidden: &[i16; N], weights: &[i16; N]) -> i32 {
    let mut sum = 0i32;
    for (&h, &w) in hidden.iter().zip(weights) {
        let c = h.clamp(0, QA as i16);
        sum += i32::from(c * w) * i32::from(c);
    }
    sum
}

/// A quantized network of one of the `WIDTHS`, named by its units per side.
// Always held in an `Arc`: boxing the wider variants again would only add
// an indirection on the evaluation's path.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Network {
    H128(Layers<128>),
    H256(Layers<256>),
    H512(Layers<512>),
    H768(Layers<768>),
    H1024(Layers<1024>),
}

/// `$body` with `$layers` bound to the network's `Layers` of its width.
macro_rules! with_layers {
    ($net:expr, $layers:ident => $body:expr) => {
        match $net {
            $crate::nnue::Network::H128($layers) => $body,
            $crate::nnue::Network::H256($layers) => $body,
            $crate::nnue::Network::H512($layers) => $body,
            $crate::nnue::Network::H768($layers) => $body,
            $crate::nnue::Network::H1024($layers) => $body,
        }
    };
}
pub(crate) use with_layers;

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kings = self.kings();
        let sets = match (kings.count(), kings.mirrored()) {
            (1, false) => String::new(),
            (count, mirrored) => {
                format!(
                    "{count} king buckets{}, ",
                    if mirrored { " mirrored" } else { "" }
                )
            }
        };
        write!(
            f,
            "Network({sets}{INPUTS}x{}, {} output buckets)",
            self.hidden(),
            self.buckets()
        )
    }
}

impl Network {
    /// The network built into the binary (read once, then shared).
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network file is valid"))
        })
        .clone()
    }

    /// Hidden units per side.
    pub fn hidden(&self) -> usize {
        with_layers!(self, l => l.input_bias.len())
    }

    /// Reads a network file written by `stockman-lab train-net`: a regular
    /// file of at most the largest network's size (a device or a pipe is
    /// refused, not read).
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = crate::files::read_regular(std::path::Path::new(path), MAX_FILE_BYTES as u64)?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// Reads the file formats `to_bytes` writes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        format::read(bytes)
    }

    /// The file: the oldest format that holds the network (net/README.md).
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    /// Output layers, chosen by the number of pieces on the board.
    pub fn buckets(&self) -> usize {
        with_layers!(self, l => l.buckets)
    }

    /// The input weight sets and which king square picks each.
    pub fn kings(&self) -> KingBuckets {
        with_layers!(self, l => l.kings)
    }

    /// The evaluation of `board` in centipawns for `turn`, computed from
    /// scratch (the search keeps accumulators instead: `NetworkEvaluator`).
    pub fn evaluate(&self, board: &Board, turn: Color) -> i32 {
        with_layers!(self, l => Accumulator::new(l, board).evaluate(l, board, turn))
    }
}

#[cfg(test)]
mod tests {
    use super::king_buckets::examples;
    use super::*;
    use shakmaty::{Color, Piece, Position, Role, Square};

    #[test]
    fn features_are_mirrored_for_black() {
        let white_pawn = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        let black_pawn = Piece {
            color: Color::Black,
            role: Role::Pawn,
        };
        // White's pawn on e2 is to White what Black's pawn on e7 is to Black.
        assert_eq!(
            feature(Color::White, white_pawn, Square::E2),
            feature(Color::Black, black_pawn, Square::E7)
        );
        assert_eq!(feature(Color::White, white_pawn, Square::E2), 12);
        assert_eq!(
            feature(Color::White, black_pawn, Square::E7),
            384 + Square::E7 as usize
        );
        let king = Piece {
            color: Color::Black,
            role: Role::King,
        };
        assert_eq!(feature(Color::White, king, Square::H8), INPUTS - 1);
    }

    /// `narrow`'s weights in the first units of a network `W` wide, the
    /// other units all zero.
    fn widened<const W: usize>(narrow: &Layers<128>) -> Layers<W> {
        let mut wide = Layers::<W>::zeroed(narrow.buckets, narrow.kings);
        for (w, n) in wide.input.iter_mut().zip(narrow.input.iter()) {
            w[..128].copy_from_slice(n);
        }
        wide.input_bias[..128].copy_from_slice(&narrow.input_bias);
        for (w, n) in wide
            .output
            .iter_mut()
            .flatten()
            .zip(narrow.output.iter().flatten())
        {
            w[..128].copy_from_slice(n);
        }
        wide.output_bias = narrow.output_bias;
        wide
    }

    pub(crate) const FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
        "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 40",
    ];

    fn evaluate(net: &Network, fen: &str) -> i32 {
        let pos = position(fen);
        net.evaluate(pos.board(), pos.turn())
    }

    fn position(fen: &str) -> shakmaty::Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn a_wider_network_with_zero_units_evaluates_as_the_narrow_one() {
        let mut layouts = examples();
        layouts.push(KingBuckets::NONE);
        for (i, kings) in layouts.into_iter().enumerate() {
            for buckets in [1, 8] {
                let narrow = Layers::<128>::random_with(7 + i as u64, buckets, kings);
                let wider = [
                    Network::H256(widened(&narrow)),
                    Network::H512(widened(&narrow)),
                    Network::H768(widened(&narrow)),
                    Network::H1024(widened(&narrow)),
                ];
                let narrow = Network::H128(narrow);
                for fen in FENS {
                    let n = evaluate(&narrow, fen);
                    assert_ne!(n, 0, "{fen}: random weights give some value");
                    for wide in &wider {
                        assert_eq!(evaluate(wide, fen), n, "{wide:?}, {fen}");
                    }
                }
            }
        }
    }

    /// Every unit at its clip with the largest output weights: each side's
    /// sum, 1024 · 255² · 126, is beyond 32 bits, and still exact.
    #[test]
    fn the_widest_output_sums_do_not_overflow() {
        let mut layers = Layers::<1024>::zeroed(1, KingBuckets::NONE);
        layers.input_bias = [QA as i16; 1024];
        layers.output[0] = [[126; 1024]; 2];
        let us = [QA as i16; 1024];
        let sum = 2 * 1024 * i64::from(QA * QA) * 126;
        assert!(sum / 2 > i64::from(i32::MAX));
        let expected = sum / i64::from(QA) * i64::from(OUTPUT_SCALE) / i64::from(QA * QB);
        assert_eq!(i64::from(layers.output(&us, &us, 0)), expected);
        let net = Network::H1024(layers);
        assert_eq!(i64::from(evaluate(&net, FENS[0])), expected);
    }

    /// The evaluation written out plainly, with the king buckets' rules
    /// spelled out square by square: each side's sums in i32 from the
    /// weights of its king's bucket, files mirrored when the layout says so
    /// and that king stands on files e-h.
    fn plain_evaluation<const H: usize>(l: &Layers<H>, board: &Board, turn: Color) -> i64 {
        let sums = |side: Color| {
            let king = board.king_of(side).unwrap() as usize;
            let own_king = if side == Color::White {
                king
            } else {
                king ^ 56
            };
            let mirror = l.kings.mirrored() && own_king % 8 >= 4;
            let bucket = usize::from(l.kings.map()[own_king]);
            let mut sums: Vec<i32> = l.input_bias.iter().map(|&b| i32::from(b)).collect();
            for (square, piece) in board {
                let mut sq = square as usize;
                if side == Color::Black {
                    sq ^= 56;
                }
                if mirror {
                    sq = sq / 8 * 8 + (7 - sq % 8);
                }
                let theirs = usize::from(piece.color != side);
                let row = bucket * INPUTS + theirs * 384 + (piece.role as usize - 1) * 64 + sq;
                for (s, &w) in sums.iter_mut().zip(&l.input[row]) {
                    *s += i32::from(w);
                }
            }
            sums
        };
        let bucket = l.bucket(board.occupied().count());
        let mut out = 0i64;
        for (half, side) in [turn, !turn].into_iter().enumerate() {
            for (&x, &w) in sums(side).iter().zip(&l.output[bucket][half]) {
                let c = i64::from(x.clamp(0, QA));
                out += c * c * i64::from(w);
            }
        }
        (out / i64::from(QA) + i64::from(l.output_bias[bucket])) * i64::from(OUTPUT_SCALE)
            / i64::from(QA * QB)
    }

    #[test]
    fn the_evaluation_is_the_plain_one() {
        let mut networks = vec![(*Network::embedded()).clone()];
        for (i, kings) in examples().into_iter().enumerate() {
            networks.push(Network::H128(Layers::random_with(31 + i as u64, 8, kings)));
            networks.push(Network::H512(Layers::random_with(41 + i as u64, 3, kings)));
        }
        for net in &networks {
            for fen in crate::eval::tests::playout_fens(8) {
                let pos = position(&fen);
                let (board, turn) = (pos.board(), pos.turn());
                let plain = with_layers!(net, l => plain_evaluation(l, board, turn));
                assert_eq!(
                    i64::from(net.evaluate(board, turn)),
                    plain,
                    "{net:?}, {fen}"
                );
            }
        }
    }

    #[test]
    fn output_buckets_cut_the_piece_count_into_equal_ranges() {
        for pieces in 2..=32 {
            assert_eq!(output_bucket(pieces, 1), 0);
        }
        let eight: Vec<usize> = [2, 5, 6, 9, 10, 29, 30, 32]
            .iter()
            .map(|&p| output_bucket(p, 8))
            .collect();
        assert_eq!(eight, [0, 0, 1, 1, 2, 6, 7, 7]);
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(33, 8), 7);
        assert_eq!(output_bucket(32, 3), 2);
    }

    /// Eight output layers that are all the same layer evaluate as that
    /// one layer alone; different layers give the positions of different
    /// piece counts different values.
    #[test]
    fn output_buckets_pick_the_output_layer_by_piece_count() {
        let one = Layers::<128>::random(13, 1);
        let mut same = one.clone();
        same.buckets = 8;
        same.output = [one.output[0]; MAX_BUCKETS];
        same.output_bias = [one.output_bias[0]; MAX_BUCKETS];
        let (one, same) = (Network::H128(one), Network::H128(same));
        let different = Network::H128(Layers::<128>::random(13, 8));
        // Starting position: 32 pieces, bucket 7; the ending: 16, bucket 3.
        for fen in FENS {
            assert_eq!(evaluate(&one, fen), evaluate(&same, fen), "{fen}");
        }
        let bucketed = |fen| evaluate(&different, fen) - evaluate(&same, fen);
        assert_ne!(bucketed(FENS[0]), bucketed(FENS[2]));
    }

    /// King buckets whose weight sets are all the same set evaluate as the
    /// network without them, unless mirrored: then a king on files e-h
    /// sees the board mirrored, which the plain network does not.
    #[test]
    fn identical_king_buckets_evaluate_as_none() {
        let plain = Layers::<128>::random(19, 8);
        for kings in examples() {
            let mut bucketed = Layers::<128>::zeroed(8, kings);
            for set in bucketed.input.chunks_mut(INPUTS) {
                set.copy_from_slice(&plain.input);
            }
            bucketed.input_bias = plain.input_bias;
            bucketed.output = plain.output;
            bucketed.output_bias = plain.output_bias;
            let (p, b) = (Network::H128(plain.clone()), Network::H128(bucketed));
            for fen in FENS {
                // In FENS every king stands on files e-h.
                let same = evaluate(&p, fen) == evaluate(&b, fen);
                assert_eq!(same, !kings.mirrored(), "{b:?}, {fen}");
            }
        }
    }
}
