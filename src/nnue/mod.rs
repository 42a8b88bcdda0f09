//! The evaluation network: 768 piece-square inputs seen from each side, one
//! hidden layer of `HIDDEN` squared-clipped-ReLU units per side, one output.
//! This module owns the network's shape, its integer weights and the file
//! format; `accumulator` keeps the hidden layer up to date along the search.
//! The lab's `tune::train_net` fits the weights in floating point and
//! quantizes them (`stockman train-net`).

pub mod accumulator;

pub use accumulator::{Accumulator, NetworkEvaluator};

use shakmaty::{Color, Piece, Square};
use std::sync::{Arc, OnceLock};

/// Inputs: (own/their piece) × 6 roles × 64 squares, from one side's view.
pub const INPUTS: usize = 768;
/// Hidden units per side.
pub const HIDDEN: usize = 128;
/// The hidden layer's fixed-point unit: 1.0 is `QA`; activations clip to it.
pub const QA: i32 = 255;
/// The output weights' fixed-point unit.
pub const QB: i32 = 64;
/// The network's output 1.0 is this many centipawns.
pub const OUTPUT_SCALE: i32 = 400;
/// Largest float weight that survives quantization into i8-sized output
/// weights and i16 accumulators without overflow.
pub const WEIGHT_LIMIT: f32 = 1.98;

const MAGIC: &[u8; 8] = b"STKNET01";

/// The size of a network file: magic, hidden size, the i16 weights and biases,
/// the output bias.
pub const FILE_BYTES: usize = MAGIC.len() + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// The network this build plays with, trained by `stockman train-net`
/// (see docs/tuning.md, "The evaluation network", for the data it came from):
/// net/stockman.nnue, or the file `EVALFILE` named at build time
/// (`make EVALFILE=...`; build.rs checks its size).
static EMBEDDED: &[u8] = include_bytes!(env!("STOCKMAN_EVALFILE"));

/// The input index of `piece` on `square`, seen from `perspective`: Black
/// sees the board mirrored vertically, with its own pieces first.
#[inline]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let (side, sq) = match perspective {
        Color::White => (piece.color as usize ^ 1, square as usize),
        Color::Black => (piece.color as usize, square as usize ^ 56),
    };
    // shakmaty: Color::Black = 0, White = 1; own pieces get side 0.
    side * 384 + (piece.role as usize - 1) * 64 + sq
}

/// The quantized network.
pub struct Network {
    /// Input weights, one row of `HIDDEN` per input (units of `QA`).
    pub(crate) input: Box<[[i16; HIDDEN]; INPUTS]>,
    pub(crate) input_bias: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's (units of `QB`).
    pub(crate) output: [[i16; HIDDEN]; 2],
    /// Output bias (units of `QA * QB`).
    pub(crate) output_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN})")
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

    /// Reads a network file written by `stockman train-net`: a regular file
    /// of exactly `FILE_BYTES` (a device or a pipe is refused, not read).
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = crate::files::read_regular(std::path::Path::new(path), FILE_BYTES as u64)?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// Reads the file format written by `to_bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let expected = FILE_BYTES;
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a Stockman network file (bad magic)".to_string());
        }
        if bytes.len() != expected {
            return Err(format!(
                "network file has {} bytes, expected {expected}",
                bytes.len()
            ));
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let hidden = r.u32() as usize;
        if hidden != HIDDEN {
            return Err(format!(
                "network has {hidden} hidden units, this build needs {HIDDEN}"
            ));
        }
        let mut input = Box::new([[0i16; HIDDEN]; INPUTS]);
        for row in input.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16();
            }
        }
        let mut input_bias = [0i16; HIDDEN];
        for b in input_bias.iter_mut() {
            *b = r.i16();
        }
        let mut output = [[0i16; HIDDEN]; 2];
        for half in output.iter_mut() {
            for w in half.iter_mut() {
                *w = r.i16();
            }
        }
        let output_bias = r.u32() as i32;
        // `half_sum` multiplies an activation (at most QA) by an output
        // weight in 16 bits: the trainer keeps them within WEIGHT_LIMIT.
        // (`unsigned_abs`: `abs` of -32768 overflows.)
        let limit = (WEIGHT_LIMIT * QB as f32).round() as u16;
        if output.iter().flatten().any(|w| w.unsigned_abs() > limit) {
            return Err(format!("network output weights beyond ±{limit}"));
        }
        Ok(Network {
            input,
            input_bias,
            output,
            output_bias,
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for row in self.input.iter() {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.input_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for half in &self.output {
            for w in half {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The evaluation in centipawns for the side to move, whose hidden
    /// layer is `us`, the other side's `them`.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let sum = half_sum(us, &self.output[0]) + half_sum(them, &self.output[1]);
        (sum / QA + self.output_bias) * OUTPUT_SCALE / (QA * QB)
    }
}

/// Σ clamp(h, 0, QA)² · w: at most 128 · 255² · 127 < 2³¹. The product
/// c · w fits in i16 (255 · 127 = 32385), so the sum is one 16-bit multiply
/// and one 16×16→32-bit multiply-add per unit (what SIMD offers as madd).
#[inline]
fn half_sum(hidden: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&h, &w) in hidden.iter().zip(weights) {
        let c = h.clamp(0, QA as i16);
        sum += i32::from(c * w) * i32::from(c);
    }
    sum
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
        // An output weight too large for the 16-bit products.
        let mut too_large = bytes.clone();
        let first_output = 12 + 2 * (INPUTS * HIDDEN + HIDDEN);
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
        assert_eq!(bytes.len(), FILE_BYTES);
    }
}
