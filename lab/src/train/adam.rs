//! Adam, the optimiser of the network trainer: one step along a minibatch's
//! mean gradient, every weight kept within the quantizable range, the
//! weights updated in parallel blocks (each weight alone, so the result is
//! the same whatever the threads).

use crate::train::float_net::FloatNetwork;
use crate::train::gradient::Gradient;
use rayon::prelude::*;
use stockman::nnue::WEIGHT_LIMIT;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
/// Weights a worker updates at a time.
const BLOCK: usize = 1 << 14;

/// Adam's settings and state.
pub struct Adam {
    pub rate: f32,
    /// The moments of each of the network's weight groups (`params_mut`).
    m: Vec<Vec<f32>>,
    v: Vec<Vec<f32>>,
    t: i32,
}

impl Adam {
    pub fn new(net: &FloatNetwork, rate: f32) -> Adam {
        let zeros = |net: &FloatNetwork| -> Vec<Vec<f32>> {
            net.params()
                .iter()
                .map(|group| vec![0.0; group.len()])
                .collect()
        };
        Adam {
            rate,
            m: zeros(net),
            v: zeros(net),
            t: 0,
        }
    }

    /// One step along the mean gradient `grad` (summed over `n` samples);
    /// weights are kept within the quantizable range.
    pub fn step(&mut self, net: &mut FloatNetwork, grad: &Gradient, n: usize) {
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t);
        let c2 = 1.0 - BETA2.powi(self.t);
        let scale = 1.0 / n as f32;
        let rate = self.rate;
        let groups = net.params_mut().into_iter().zip(grad.params());
        for ((w, g), (m, v)) in groups.zip(self.m.iter_mut().zip(&mut self.v)) {
            w.par_chunks_mut(BLOCK)
                .zip(g.par_chunks(BLOCK))
                .zip(m.par_chunks_mut(BLOCK).zip(v.par_chunks_mut(BLOCK)))
                .for_each(|((w, g), (m, v))| {
                    for (((w, g), m), v) in w.iter_mut().zip(g).zip(m).zip(v) {
                        let g = g * scale;
                        *m = BETA1 * *m + (1.0 - BETA1) * g;
                        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                        *w -= rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
                        *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
                    }
                });
        }
        net.refold();
    }
}
