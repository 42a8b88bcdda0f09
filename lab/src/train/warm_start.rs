//! `train-net --init NET`: a float network that starts from a quantized
//! network's weights instead of random ones, so that new data refines a
//! network rather than teaching a new one from nothing.

use crate::train::float_net::FloatNetwork;
use stockman::nnue::{INPUTS, KingBuckets, Layers, Network, QA, QB};

/// The weights of a quantized network in floating point, in the trainer's
/// order (net/README.md's units undone).
struct FloatWeights {
    hidden: usize,
    kings: KingBuckets,
    buckets: usize,
    /// `kings.count()` sets of `INPUTS` rows of `hidden`.
    input: Vec<f32>,
    input_bias: Vec<f32>,
    /// Each bucket's side-to-move half, then its other half.
    output: Vec<f32>,
    output_bias: Vec<f32>,
}

fn float_weights<const H: usize>(l: &Layers<H>) -> FloatWeights {
    let qa = QA as f32;
    let qb = QB as f32;
    FloatWeights {
        hidden: H,
        kings: l.kings,
        buckets: l.buckets,
        input: l
            .input
            .iter()
            .flatten()
            .map(|&w| f32::from(w) / qa)
            .collect(),
        input_bias: l.input_bias.iter().map(|&w| f32::from(w) / qa).collect(),
        output: l.output[..l.buckets]
            .iter()
            .flatten()
            .flatten()
            .map(|&w| f32::from(w) / qb)
            .collect(),
        output_bias: l.output_bias[..l.buckets]
            .iter()
            .map(|&b| b as f32 / (qa * qb))
            .collect(),
    }
}

fn weights_of(net: &Network) -> FloatWeights {
    match net {
        Network::H128(l) => float_weights(l),
        Network::H256(l) => float_weights(l),
        Network::H512(l) => float_weights(l),
        Network::H768(l) => float_weights(l),
        Network::H1024(l) => float_weights(l),
    }
}

/// A float network of `net`'s width with `buckets` output layers and the
/// layout `kings`, holding `net`'s weights:
/// - `net`'s output layers as they are when it has `buckets` of them; one
///   output layer copied into each of `buckets`; any other count refused;
/// - `net`'s input sets as they are when its layout is `kings`; the one set
///   of a network without king buckets becomes the factoriser of a
///   layout of several sets (whose sets start at zero: every bucket starts
///   as `net`), or the set of a one-set layout (`mirror`); any other pair
///   of layouts refused.
///
/// A layout that mirrors where `net`'s does not starts from weights learnt
/// without the mirror: right where `net` was trained on mirrored positions
/// too (`--mirror`), close where the data are nearly symmetric.
pub fn from_network(
    net: &Network,
    buckets: usize,
    kings: KingBuckets,
) -> Result<FloatNetwork, String> {
    let from = weights_of(net);
    let output = match (from.buckets, buckets) {
        (had, want) if had == want => from.output,
        (1, want) => from.output.repeat(want),
        (had, want) => {
            return Err(format!(
                "--init has {had} output buckets, and --output-buckets {want} cannot start from them (give {had}, or start from a network of one)"
            ));
        }
    };
    let output_bias = if from.buckets == buckets {
        from.output_bias
    } else {
        from.output_bias.repeat(buckets)
    };
    // The shape, with zero sets and the factoriser where the layout has one.
    let mut float = FloatNetwork::random(from.hidden, buckets, kings, 0)?;
    if from.kings == kings {
        float.input = from.input;
        float.factor.fill(0.0);
    } else if from.kings.count() == 1 && !from.kings.mirrored() {
        if kings.count() == 1 {
            float.input = from.input;
        } else {
            float.input.fill(0.0);
            float.factor = from.input;
        }
    } else {
        return Err(format!(
            "--init has {} king buckets{}, another layout than --king-buckets asks for; start from a network without king buckets or of the same layout",
            from.kings.count(),
            if from.kings.mirrored() {
                ", mirrored"
            } else {
                ""
            }
        ));
    }
    debug_assert_eq!(float.input.len(), kings.count() * INPUTS * from.hidden);
    float.input_bias = from.input_bias;
    float.output = output;
    float.output_bias = output_bias;
    float.refold();
    Ok(float)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::king_layouts::king_layout;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    /// Positions to compare evaluations on; the last has both kings on
    /// files a-d, where a mirrored layout turns nothing.
    const FENS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 2 8",
        "6k1/5pp1/8/8/8/8/1K3PP1/3R4 b - - 0 40",
        "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - - 0 20",
    ];

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// The engine's evaluation of each of `fens` for the side to move.
    fn evals(net: &Network, fens: &[&str]) -> Vec<i32> {
        fens.iter()
            .map(|fen| {
                let pos = position(fen);
                net.evaluate(pos.board(), pos.turn())
            })
            .collect()
    }

    fn quantized(kings: KingBuckets, buckets: usize, seed: u64) -> Network {
        FloatNetwork::random(256, buckets, kings, seed)
            .unwrap()
            .quantize()
    }

    #[test]
    fn a_network_started_from_a_file_writes_the_same_file() {
        for (layout, buckets) in [("none", 8), ("8", 8), ("mirror", 1), ("4", 2)] {
            let kings = king_layout(layout).unwrap();
            let net = quantized(kings, buckets, 7);
            let start = from_network(&net, buckets, kings).unwrap();
            assert_eq!(start.quantize().to_bytes(), net.to_bytes(), "{layout}");
        }
    }

    #[test]
    fn a_bucketed_start_evaluates_as_the_network_it_came_from() {
        let plain = quantized(KingBuckets::NONE, 8, 3);
        let layout = king_layout("8").unwrap();
        let start = from_network(&plain, 8, layout).unwrap();
        assert!(start.factorised());
        let bucketed = start.quantize();
        assert_eq!(bucketed.kings(), layout);
        let kings_on_the_queenside = &FENS[3..];
        assert_eq!(
            evals(&bucketed, kings_on_the_queenside),
            evals(&plain, kings_on_the_queenside)
        );
        // Each of the eight sets is the one set it came from.
        let Network::H256(b) = &bucketed else {
            panic!("256 units")
        };
        let Network::H256(p) = &plain else {
            panic!("256 units")
        };
        for set in b.input.chunks(INPUTS) {
            assert!(set == &p.input[..]);
        }
    }

    #[test]
    fn one_output_layer_starts_every_bucket() {
        let single = quantized(KingBuckets::NONE, 1, 5);
        let eight = from_network(&single, 8, KingBuckets::NONE)
            .unwrap()
            .quantize();
        assert_eq!(eight.buckets(), 8);
        assert_eq!(evals(&eight, &FENS), evals(&single, &FENS));
    }

    #[test]
    fn shapes_that_cannot_start_from_it_are_refused() {
        let eight = quantized(KingBuckets::NONE, 8, 1);
        let e = from_network(&eight, 4, KingBuckets::NONE).err().unwrap();
        assert!(e.contains("8 output buckets"), "{e}");
        let four = quantized(king_layout("4").unwrap(), 8, 1);
        let e = from_network(&four, 8, king_layout("8").unwrap())
            .err()
            .unwrap();
        assert!(e.contains("4 king buckets"), "{e}");
    }
}
