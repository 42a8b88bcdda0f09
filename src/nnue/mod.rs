//! The evaluation network: 768 piece-square inputs seen from each side, one
//! hidden layer of `H` squared-clipped-ReLU units per side (128 or 256), one
//! output from one of up to eight output layers chosen by the number of
//! pieces on the board (output buckets). This module owns the network's
//! shapes, its integer weights and the file format; `accumulator` keeps the
//! hidden layer up to date along the search. The lab's `tune::train_net`
//! fits the weights in floating point and quantizes them (`stockman
//! train-net`).

pub mod accumulator;
mod simd;

pub use accumulator::{Accumulator, NetworkEvaluator};
pub use simd::Isa;

use shakmaty::{Board, Color, Piece, Square};
use std::sync::{Arc, OnceLock};

/// Inputs: (own/their piece) × 6 roles × 64 squares, from one side's view.
pub const INPUTS: usize = 768;
/// Hidden units per side of a `Network::Narrow`.
pub const NARROW: usize = 128;
/// Hidden units per side of a `Network::Wide`.
pub const WIDE: usize = 256;
/// The hidden widths a network may have (units per side).
pub const WIDTHS: [usize; 2] = [NARROW, WIDE];
/// The widest hidden layer.
pub const MAX_HIDDEN: usize = WIDE;
/// The hidden layer's fixed-point unit: 1.0 is `QA`; activations clip to it.
pub const QA: i32 = 255;
/// The output weights' fixed-point unit.
pub const QB: i32 = 64;
/// The network's output 1.0 is this many centipawns.
pub const OUTPUT_SCALE: i32 = 400;
/// Largest float weight that survives quantization into i8-sized output
/// weights and i16 accumulators without overflow.
pub const WEIGHT_LIMIT: f32 = 1.98;

/// The most output layers (buckets) a network may have.
pub const MAX_BUCKETS: usize = 8;

/// A network of one output layer: magic, hidden size, the i16 weights and
/// biases, the output bias.
const MAGIC_ONE_BUCKET: &[u8; 8] = b"STKNET01";
/// A network of several output layers: magic, hidden size, bucket count,
/// the i16 input weights and biases, each bucket's output weights, each
/// bucket's output bias.
const MAGIC_BUCKETS: &[u8; 8] = b"STKNET02";

/// The magic of a network of `buckets` output layers: one keeps the first
/// format.
const fn magic(buckets: usize) -> &'static [u8; 8] {
    if buckets == 1 {
        MAGIC_ONE_BUCKET
    } else {
        MAGIC_BUCKETS
    }
}

/// The bytes before the weights: the magic, the hidden size, and the bucket
/// count in the second format.
const fn header_bytes(buckets: usize) -> usize {
    8 + 4 + if buckets == 1 { 0 } else { 4 }
}

/// The size of a network file of `hidden` units per side and `buckets`
/// output layers: the header, the i16 input weights and hidden biases, and
/// each bucket's i16 output weights and i32 bias.
pub const fn file_bytes(hidden: usize, buckets: usize) -> usize {
    header_bytes(buckets) + 2 * (INPUTS * hidden + hidden) + buckets * (2 * 2 * hidden + 4)
}

/// The largest network file.
pub const MAX_FILE_BYTES: usize = file_bytes(MAX_HIDDEN, MAX_BUCKETS);

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

/// The input index of `piece` on `square`, seen from `perspective`: Black
/// sees the board mirrored vertically, with its own pieces first.
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
    /// Input weights, one row of `H` per input (units of `QA`).
    pub input: Box<[[i16; H]; INPUTS]>,
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
    /// All weights zero, `buckets` output layers (1..=`MAX_BUCKETS`): the
    /// trainer fills them in.
    pub fn zeroed(buckets: usize) -> Layers<H> {
        debug_assert!((1..=MAX_BUCKETS).contains(&buckets));
        Layers {
            input: vec![[0i16; H]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .expect("INPUTS rows"),
            input_bias: [0; H],
            buckets,
            output: [[[0; H]; 2]; MAX_BUCKETS],
            output_bias: [0; MAX_BUCKETS],
        }
    }

    /// The output layer of a position with `pieces` on the board.
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces, self.buckets)
    }

    /// Small random weights, for tests of both widths.
    #[cfg(test)]
    pub(crate) fn random(seed: u64, buckets: usize) -> Layers<H> {
        let mut seed = seed | 1;
        let mut next = |limit: i16| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * limit as u64 + 1)) as i16 - limit
        };
        let mut layers = Layers::<H>::zeroed(buckets);
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
        // Each half fits in i32 (see `half_sum`); both together may not.
        let sum = i64::from(half_sum(us, &weights[0])) + i64::from(half_sum(them, &weights[1]));
        ((sum / i64::from(QA)) as i32 + self.output_bias[bucket]) * OUTPUT_SCALE / (QA * QB)
    }

    /// The layers of a whole file whose header said `H` units and
    /// `buckets` output layers: its length must be theirs.
    fn read(r: &mut Reader, buckets: usize) -> Result<Layers<H>, String> {
        let expected = file_bytes(H, buckets);
        if r.bytes.len() != expected {
            return Err(format!(
                "network file of {H} hidden units and {buckets} output buckets has {} bytes, expected {expected}",
                r.bytes.len()
            ));
        }
        let mut layers = Layers::<H>::zeroed(buckets);
        for row in layers.input.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        for b in layers.input_bias.iter_mut() {
            *b = r.i16();
        }
        for w in layers.output[..buckets].iter_mut().flatten().flatten() {
            *w = r.i16();
        }
        for b in layers.output_bias[..buckets].iter_mut() {
            *b = r.u32() as i32;
        }
        // `half_sum` multiplies an activation (at most QA) by an output
        // weight in 16 bits: the trainer keeps them within WEIGHT_LIMIT.
        // (`unsigned_abs`: `abs` of -32768 overflows.)
        let limit = (WEIGHT_LIMIT * QB as f32).round() as u16;
        if layers
            .output
            .iter()
            .flatten()
            .flatten()
            .any(|w| w.unsigned_abs() > limit)
        {
            return Err(format!("network output weights beyond ±{limit}"));
        }
        Ok(layers)
    }

    /// The file's bytes after the magic.
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(H as u32).to_le_bytes());
        if self.buckets > 1 {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        let words = self
            .input
            .iter()
            .flatten()
            .chain(&self.input_bias)
            .chain(self.output[..self.buckets].iter().flatten().flatten());
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias[..self.buckets] {
            out.extend_from_slice(&b.to_le_bytes());
        }
    }
}

/// Σ clamp(h, 0, QA)² · w: at most 256 · 255² · 127 < 2³¹. The product
/// c · w fits in i16 (255 · 127 = 32385), so the sum is one 16-bit multiply
/// and one 16×16→32-bit multiply-add per unit (what SIMD offers as madd).
#[inline(always)]
fn half_sum<const H: usize>(hidden: &[i16; H], weights: &[i16; H]) -> i32 {
    let mut sum = 0i32;
    for (&h, &w) in hidden.iter().zip(weights) {
        let c = h.clamp(0, QA as i16);
        sum += i32::from(c * w) * i32::from(c);
    }
    sum
}

/// A quantized network of one of the `WIDTHS`.
// Always held in an `Arc`: boxing the wider variant again would only add
// an indirection on the evaluation's path.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Network {
    /// 768 → 2×128 → 1.
    Narrow(Layers<128>),
    /// 768 → 2×256 → 1.
    Wide(Layers<256>),
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{}, {} output buckets)",
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
        match self {
            Network::Narrow(_) => NARROW,
            Network::Wide(_) => WIDE,
        }
    }

    /// Reads a network file written by `stockman-lab train-net`: a regular file
    /// of one of the widths' sizes (a device or a pipe is refused, not read).
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = crate::files::read_regular(std::path::Path::new(path), MAX_FILE_BYTES as u64)?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// Reads the file format written by `to_bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let magic = bytes
            .get(..MAGIC_ONE_BUCKET.len())
            .ok_or("not a Stockman network file (too short)")?;
        let bucketed = if magic == MAGIC_ONE_BUCKET {
            false
        } else if magic == MAGIC_BUCKETS {
            true
        } else {
            return Err("not a Stockman network file (bad magic)".to_string());
        };
        // Every count of several buckets has the same header.
        if bytes.len() < header_bytes(if bucketed { MAX_BUCKETS } else { 1 }) {
            return Err("network file ends inside its header".to_string());
        }
        let mut r = Reader {
            bytes,
            at: magic.len(),
        };
        let hidden = r.u32() as usize;
        let buckets = if bucketed { r.u32() as usize } else { 1 };
        if bucketed && !(2..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "network has {buckets} output buckets; this build reads 2 to {MAX_BUCKETS} (or one, in the first format)"
            ));
        }
        match hidden {
            NARROW => Ok(Network::Narrow(Layers::read(&mut r, buckets)?)),
            WIDE => Ok(Network::Wide(Layers::read(&mut r, buckets)?)),
            hidden => Err(format!(
                "network has {hidden} hidden units; this build reads {WIDTHS:?}"
            )),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = magic(self.buckets()).to_vec();
        match self {
            Network::Narrow(l) => l.write(&mut out),
            Network::Wide(l) => l.write(&mut out),
        }
        out
    }

    /// Output layers, chosen by the number of pieces on the board.
    pub fn buckets(&self) -> usize {
        match self {
            Network::Narrow(l) => l.buckets,
            Network::Wide(l) => l.buckets,
        }
    }

    /// The evaluation of `board` in centipawns for `turn`, computed from
    /// scratch (the search keeps accumulators instead: `NetworkEvaluator`).
    pub fn evaluate(&self, board: &Board, turn: Color) -> i32 {
        match self {
            Network::Narrow(l) => Accumulator::new(l, board).evaluate(l, board, turn),
            Network::Wide(l) => Accumulator::new(l, board).evaluate(l, board, turn),
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn i16(&mut self) -> i16 {
        let v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        v
    }

    fn u32(&mut self) -> u32 {
        let b = &self.bytes[self.at..self.at + 4];
        self.at += 4;
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Piece, Role, Square};

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

    #[test]
    fn the_file_format_round_trips_and_refuses_garbage() {
        let net = Network::embedded();
        let bytes = net.to_bytes();
        assert!(Arc::ptr_eq(&net, &Network::embedded()), "read once");
        assert_eq!(bytes, EMBEDDED);
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!(again.to_bytes(), bytes);
        assert!(Network::from_bytes(b"hello").is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut wrong_width = bytes.clone();
        wrong_width[8] = 64;
        assert!(Network::from_bytes(&wrong_width).is_err());
        // A width this build reads, with the other width's length.
        wrong_width[8] = if net.hidden() == 128 { 0 } else { 128 };
        wrong_width[9] = if net.hidden() == 128 { 1 } else { 0 };
        assert!(Network::from_bytes(&wrong_width).is_err());
        assert!(Network::from_bytes(&bytes[..10]).is_err());
        // An output weight too large for the 16-bit products.
        let mut too_large = bytes.clone();
        let hidden = net.hidden();
        let first_output = header_bytes(net.buckets()) + 2 * (INPUTS * hidden + hidden);
        too_large[first_output..first_output + 2].copy_from_slice(&1000i16.to_le_bytes());
        assert!(Network::from_bytes(&too_large).is_err());
        // The most negative weight: its `abs()` would wrap and pass.
        too_large[first_output..first_output + 2].copy_from_slice(&i16::MIN.to_le_bytes());
        assert!(Network::from_bytes(&too_large).is_err());
        too_large[first_output..first_output + 2].copy_from_slice(&(-126i16).to_le_bytes());
        assert!(
            Network::from_bytes(&too_large).is_ok(),
            "-126 is inside ±127"
        );
        assert_eq!(bytes.len(), file_bytes(hidden, net.buckets()));
    }

    /// The narrow network's weights in a wide one's first 128 units, the
    /// other units all zero.
    fn as_wide(narrow: &Layers<128>) -> Layers<256> {
        let mut wide = Layers::<256>::zeroed(narrow.buckets);
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

    const FENS: [&str; 3] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
        "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
    ];

    fn evaluate(net: &Network, fen: &str) -> i32 {
        use shakmaty::Position;
        let pos: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        net.evaluate(pos.board(), pos.turn())
    }

    #[test]
    fn a_wide_network_with_zero_units_evaluates_as_the_narrow_one() {
        for buckets in [1, 8] {
            let narrow = Layers::<128>::random(7, buckets);
            let wide = Network::Wide(as_wide(&narrow));
            let narrow = Network::Narrow(narrow);
            let bytes = wide.to_bytes();
            assert_eq!(bytes.len(), file_bytes(256, buckets));
            let again = Network::from_bytes(&bytes).unwrap();
            assert_eq!((again.hidden(), again.buckets()), (256, buckets));
            assert_eq!(again.to_bytes(), bytes);
            for fen in FENS {
                let (n, w) = (evaluate(&narrow, fen), evaluate(&wide, fen));
                assert_eq!(n, w, "{fen}");
                assert_ne!(n, 0, "{fen}: random weights give some value");
            }
        }
    }

    /// The sizes build.rs accepts for EVALFILE and the docs quote.
    #[test]
    fn file_sizes() {
        assert_eq!(file_bytes(128, 1), 197_392);
        assert_eq!(file_bytes(256, 1), 394_768);
        assert_eq!(file_bytes(128, 8), 201_008);
        assert_eq!(file_bytes(256, 8), 401_968);
        assert_eq!(MAX_FILE_BYTES, 401_968);
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
        let (one, same) = (Network::Narrow(one), Network::Narrow(same));
        let different = Network::Narrow(Layers::<128>::random(13, 8));
        // Starting position: 32 pieces, bucket 7; the ending: 16, bucket 3.
        for fen in FENS {
            assert_eq!(evaluate(&one, fen), evaluate(&same, fen), "{fen}");
        }
        let bucketed = |fen| evaluate(&different, fen) - evaluate(&same, fen);
        assert_ne!(bucketed(FENS[0]), bucketed(FENS[2]));
    }

    #[test]
    fn bucketed_files_round_trip_and_refuse_bad_bucket_counts() {
        let net = Network::Narrow(Layers::<128>::random(17, 8));
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], b"STKNET02");
        assert_eq!(bytes.len(), file_bytes(128, 8));
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!(again.buckets(), 8);
        assert_eq!(again.to_bytes(), bytes);
        for fen in FENS {
            assert_eq!(evaluate(&again, fen), evaluate(&net, fen));
        }
        for count in [0u32, 1, 9, u32::MAX] {
            let mut bad = bytes.clone();
            bad[12..16].copy_from_slice(&count.to_le_bytes());
            let err = Network::from_bytes(&bad).unwrap_err();
            assert!(err.contains("output buckets"), "{count}: {err}");
        }
        let mut four = bytes.clone();
        four[12..16].copy_from_slice(&4u32.to_le_bytes());
        assert!(Network::from_bytes(&four).unwrap_err().contains("expected"));
        assert!(Network::from_bytes(&bytes[..14]).is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        // The last bucket's output weight beyond the 16-bit products' range.
        let mut too_large = bytes.clone();
        let last_weight = bytes.len() - 8 * 4 - 2;
        too_large[last_weight..last_weight + 2].copy_from_slice(&1000i16.to_le_bytes());
        assert!(Network::from_bytes(&too_large).is_err());
    }
}
