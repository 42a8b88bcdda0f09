//! The trainer's per-position loops (a chunk's gradient, a chunk's error)
//! compiled twice: for any x86-64 (SSE2) and for AVX2, chosen at run time.
//! The row sums are additions one lane at a time either way, so both give
//! the same numbers; AVX2 gives them faster (about a third more positions a
//! second on two cores).

use crate::train::float_net::FloatNetwork;
use crate::train::gradient::Gradient;
use crate::train::net_sample::Sample;

/// Adds `chunk`'s gradient to `grad`; the sum of its squared errors.
pub fn chunk_gradient(
    net: &FloatNetwork,
    chunk: &[Sample],
    scale: f32,
    grad: &mut Gradient,
) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { chunk_gradient_avx2(net, chunk, scale, grad) };
    }
    chunk_gradient_here(net, chunk, scale, grad)
}

/// The sum of `chunk`'s squared errors.
pub fn chunk_error(net: &FloatNetwork, chunk: &[Sample], scale: f32) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { chunk_error_avx2(net, chunk, scale) };
    }
    chunk_error_here(net, chunk, scale)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_gradient_avx2(
    net: &FloatNetwork,
    chunk: &[Sample],
    scale: f32,
    grad: &mut Gradient,
) -> f32 {
    chunk_gradient_here(net, chunk, scale, grad)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_error_avx2(net: &FloatNetwork, chunk: &[Sample], scale: f32) -> f64 {
    chunk_error_here(net, chunk, scale)
}

// Plain loops: an iterator's `sum` is a `fold` the compiler keeps out of
// line, and with it everything it calls, compiled without AVX2.
#[inline(always)]
fn chunk_gradient_here(
    net: &FloatNetwork,
    chunk: &[Sample],
    scale: f32,
    grad: &mut Gradient,
) -> f32 {
    let mut sum = 0.0;
    for s in chunk {
        sum += net.backprop(s, scale, grad);
    }
    sum
}

#[inline(always)]
fn chunk_error_here(net: &FloatNetwork, chunk: &[Sample], scale: f32) -> f64 {
    let mut h = vec![0.0; 2 * net.hidden_units()];
    let mut sum = 0.0;
    for s in chunk {
        sum += net.squared_error(s, scale, &mut h);
    }
    sum
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::train::king_layouts::king_layout;
    use crate::train::net_sample::sample;

    /// Where the CPU has AVX2, its loops give the portable loops' numbers,
    /// bit for bit.
    #[test]
    fn both_compilations_give_the_same_numbers() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let samples: Vec<Sample> = [
            "r3k2r/ppp2ppp/8/3q4/8/2N5/PPP2PPP/R2Q1RK1 b kq - 0 1",
            "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
            "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1",
        ]
        .iter()
        .map(|fen| sample(fen, 0.7))
        .collect();
        for layout in ["none", "8"] {
            let kings = king_layout(layout).unwrap();
            let net = FloatNetwork::random(256, 8, kings, 5).unwrap();
            let (mut here, mut avx2) = (net.zero_gradient(), net.zero_gradient());
            let a = chunk_gradient_here(&net, &samples, 400.0, &mut here);
            // SAFETY: the CPU has AVX2.
            let b = unsafe { chunk_gradient_avx2(&net, &samples, 400.0, &mut avx2) };
            assert_eq!(a.to_bits(), b.to_bits());
            for (x, y) in here.params().iter().zip(avx2.params()) {
                assert!(x.iter().zip(y).all(|(x, y)| x.to_bits() == y.to_bits()));
            }
            let e = chunk_error_here(&net, &samples, 400.0);
            // SAFETY: as above.
            let f = unsafe { chunk_error_avx2(&net, &samples, 400.0) };
            assert_eq!(e.to_bits(), f.to_bits());
        }
    }
}
