//! `stockman-lab blend-net`: a network between two networks of one shape,
//! each weight (1 − t)·A + t·B rounded — the way to keep part of what a
//! refined network learnt (B, trained on from A) and part of what A knew.

use crate::args::unit_interval;
use clap::Args;
use std::path::PathBuf;
use stockman::files::write_whole;
use stockman::nnue::{Layers, Network};

/// `stockman-lab blend-net --help`'s example.
const EXAMPLES: &str = "\
Examples:
  # Halfway between the shipped network and one trained on from it
  stockman-lab blend-net --from net/stockman.nnue --to refined.nnue --weight 0.5 --out blend.nnue";

/// `stockman-lab blend-net` arguments.
#[derive(Args, Debug, Clone)]
#[command(after_help = EXAMPLES)]
pub struct BlendNetArgs {
    /// The network at weight 0.
    #[arg(long)]
    pub from: PathBuf,
    /// The network at weight 1: the same width, output buckets and king
    /// bucket layout as --from.
    #[arg(long)]
    pub to: PathBuf,
    /// Where between them, 0 (--from) to 1 (--to).
    #[arg(long, value_parser = unit_interval, allow_negative_numbers = true)]
    pub weight: f64,
    /// Where the network goes (written whole, through OUT.partial).
    #[arg(long)]
    pub out: PathBuf,
}

/// Reads both networks, blends them and writes the result.
pub fn run_blend_net(args: &BlendNetArgs) -> Result<(), String> {
    let from = Network::load(&args.from.to_string_lossy())?;
    let to = Network::load(&args.to.to_string_lossy())?;
    let blended = blend(&from, &to, args.weight)?;
    write_whole(&args.out, &blended.to_bytes())?;
    eprintln!(
        "blend-net: wrote {} ({:.3} of {} and {:.3} of {})",
        args.out.display(),
        1.0 - args.weight,
        args.from.display(),
        args.weight,
        args.to.display()
    );
    Ok(())
}

/// The network whose every weight is (1 − t)·a + t·b, rounded to the
/// nearest integer; `a` and `b` must have one shape.
pub fn blend(a: &Network, b: &Network, t: f64) -> Result<Network, String> {
    use Network::*;
    match (a, b) {
        (H128(a), H128(b)) => blend_layers(a, b, t).map(H128),
        (H256(a), H256(b)) => blend_layers(a, b, t).map(H256),
        (H512(a), H512(b)) => blend_layers(a, b, t).map(H512),
        (H768(a), H768(b)) => blend_layers(a, b, t).map(H768),
        (H1024(a), H1024(b)) => blend_layers(a, b, t).map(H1024),
        _ => Err(format!(
            "the networks differ in width ({} and {} units)",
            a.hidden(),
            b.hidden()
        )),
    }
}

fn blend_layers<const H: usize>(a: &Layers<H>, b: &Layers<H>, t: f64) -> Result<Layers<H>, String> {
    if a.buckets != b.buckets {
        return Err(format!(
            "the networks differ in output buckets ({} and {})",
            a.buckets, b.buckets
        ));
    }
    if a.kings != b.kings {
        return Err("the networks differ in king bucket layout".to_string());
    }
    let mut out = a.clone();
    for ((w, &x), &y) in out.words_mut().zip(a.words()).zip(b.words()) {
        *w = mix(x.into(), y.into(), t) as i16;
    }
    for (o, (&x, &y)) in out
        .output_bias
        .iter_mut()
        .zip(a.output_bias.iter().zip(&b.output_bias))
    {
        *o = mix(x.into(), y.into(), t) as i32;
    }
    Ok(out)
}

/// (1 − t)·x + t·y rounded: between x and y, so within any bound both keep.
fn mix(x: f64, y: f64, t: f64) -> f64 {
    ((1.0 - t) * x + t * y).round()
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::nnue::KingBuckets;

    fn layers(fill: i16, bias: i32, buckets: usize) -> Layers<128> {
        let mut l = Layers::<128>::zeroed(buckets, KingBuckets::NONE);
        l.input.iter_mut().flatten().for_each(|w| *w = fill);
        l.input_bias = [fill; 128];
        for o in &mut l.output[..buckets] {
            *o = [[fill; 128]; 2];
        }
        l.output_bias[..buckets].fill(bias);
        l
    }

    #[test]
    fn every_weight_lies_between_the_two_networks() {
        let (a, b) = (
            Network::H128(layers(10, 1000, 2)),
            Network::H128(layers(-30, -3000, 2)),
        );
        let Network::H128(half) = blend(&a, &b, 0.5).unwrap() else {
            panic!()
        };
        assert!(half.input.iter().flatten().all(|&w| w == -10));
        assert_eq!(half.input_bias, [-10; 128]);
        assert_eq!(half.output[1], [[-10; 128]; 2]);
        assert_eq!(half.output[2], [[0; 128]; 2], "unused buckets stay zero");
        assert_eq!(half.output_bias[..2], [-1000, -1000]);
        let Network::H128(quarter) = blend(&a, &b, 0.25).unwrap() else {
            panic!()
        };
        assert_eq!(quarter.input_bias, [0; 128]);
        assert_eq!(quarter.output_bias[0], 0);
    }

    #[test]
    fn the_ends_are_the_networks_themselves() {
        let (a, b) = (
            Network::H128(layers(7, 11, 1)),
            Network::H128(layers(-5, 13, 1)),
        );
        assert_eq!(blend(&a, &b, 0.0).unwrap().to_bytes(), a.to_bytes());
        assert_eq!(blend(&a, &b, 1.0).unwrap().to_bytes(), b.to_bytes());
    }

    #[test]
    fn networks_of_different_shapes_are_refused() {
        let a = Network::H128(layers(1, 1, 1));
        let err = blend(&a, &Network::H128(layers(1, 1, 2)), 0.5)
            .err()
            .unwrap();
        assert!(err.contains("output buckets"), "{err}");
        let wide = Network::H256(Layers::<256>::zeroed(1, KingBuckets::NONE));
        assert!(blend(&a, &wide, 0.5).err().unwrap().contains("width"));
    }
}
