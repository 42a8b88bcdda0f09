//! The gradient of a chunk of positions, sparse in the input rows: a
//! position touches at most 64 of the `king buckets × 768` rows, so only the
//! rows touched are summed, merged and cleared; and the minibatch's
//! gradient, the chunks' sum in chunk order (the same floating-point sums
//! whatever the threads), with the factoriser's share, the sum of every
//! set's.

use rayon::prelude::*;
use stockman::nnue::INPUTS;

/// A gradient of every weight of a network, in its order.
pub struct Gradient {
    hidden: usize,
    /// Each input row of every set.
    input: Vec<f32>,
    /// Whether an input row may be non-zero.
    touched: Vec<bool>,
    /// The factoriser's: filled by `merge`.
    factor: Vec<f32>,
    pub(super) input_bias: Vec<f32>,
    pub(super) output: Vec<f32>,
    pub(super) output_bias: Vec<f32>,
    /// One position's hidden-layer gradient, one side at a time.
    scratch: Vec<f32>,
    /// One position's hidden layers (both sides), lent to the forward pass.
    hidden_layers: Vec<f32>,
}

impl Gradient {
    /// All zero, for a network of `hidden` units whose weight groups
    /// (`FloatNetwork::params`) are `groups` long.
    pub fn zero(hidden: usize, groups: [usize; 5]) -> Gradient {
        let [input, factor, input_bias, output, output_bias] = groups;
        Gradient {
            hidden,
            input: vec![0.0; input],
            touched: vec![false; input / hidden],
            factor: vec![0.0; factor],
            input_bias: vec![0.0; input_bias],
            output: vec![0.0; output],
            output_bias: vec![0.0; output_bias],
            scratch: vec![0.0; hidden],
            hidden_layers: vec![0.0; 2 * hidden],
        }
    }

    /// The room for one position's hidden layers (both sides), until
    /// `put_back_hidden`: the forward pass fills it while the gradient
    /// is added to.
    #[inline(always)]
    pub(super) fn take_hidden(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.hidden_layers)
    }

    #[inline(always)]
    pub(super) fn put_back_hidden(&mut self, h: Vec<f32>) {
        self.hidden_layers = h;
    }

    /// The output weights' gradient of `hidden` units from `first` on, and
    /// the scratch row of as many units where a position's hidden-layer
    /// gradient is made before `add_scratch_to_bias` and `..._to_row`.
    #[inline(always)]
    pub(super) fn output_half_and_scratch(&mut self, first: usize) -> (&mut [f32], &mut [f32]) {
        let n = self.hidden;
        (&mut self.output[first..first + n], &mut self.scratch[..n])
    }

    /// Adds the scratch row to the hidden biases' gradient.
    #[inline(always)]
    pub(super) fn add_scratch_to_bias(&mut self) {
        add_into(&mut self.input_bias, &self.scratch);
    }

    /// Adds the scratch row to input row `row` (of all the sets').
    #[inline(always)]
    pub(super) fn add_scratch_to_row(&mut self, row: usize) {
        let n = self.hidden;
        self.touched[row] = true;
        add_into(&mut self.input[row * n..(row + 1) * n], &self.scratch);
    }

    /// Back to zero: the touched input rows and the small layers.
    pub fn clear(&mut self) {
        let n = self.hidden;
        for (row, touched) in self.input.chunks_mut(n).zip(&mut self.touched) {
            if std::mem::take(touched) {
                row.fill(0.0);
            }
        }
        self.input_bias.fill(0.0);
        self.output.fill(0.0);
        self.output_bias.fill(0.0);
    }

    /// Makes this the sum of `parts`, in their order, and the factoriser's
    /// gradient the sum of every set's (each set's weight is the set's plus
    /// the factoriser's). Rows run in parallel, each summed alone.
    pub fn merge(&mut self, parts: &[Gradient]) {
        let n = self.hidden;
        self.input
            .par_chunks_mut(n)
            .zip(self.touched.par_iter_mut())
            .enumerate()
            .for_each(|(r, (row, touched))| {
                let mut touching = parts.iter().filter(|p| p.touched[r]).peekable();
                if touching.peek().is_none() {
                    if std::mem::take(touched) {
                        row.fill(0.0);
                    }
                    return;
                }
                row.fill(0.0);
                for part in touching {
                    add_into(row, &part.input[r * n..(r + 1) * n]);
                }
                *touched = true;
            });
        if !self.factor.is_empty() {
            let (input, touched) = (&self.input, &self.touched);
            self.factor
                .par_chunks_mut(n)
                .enumerate()
                .for_each(|(f, row)| {
                    row.fill(0.0);
                    let sets = (f..touched.len()).step_by(INPUTS);
                    for r in sets.filter(|&r| touched[r]) {
                        add_into(row, &input[r * n..(r + 1) * n]);
                    }
                });
        }
        let small = |mine: &mut Vec<f32>, of: fn(&Gradient) -> &Vec<f32>| {
            mine.fill(0.0);
            for part in parts {
                add_into(mine, of(part));
            }
        };
        small(&mut self.input_bias, |g| &g.input_bias);
        small(&mut self.output, |g| &g.output);
        small(&mut self.output_bias, |g| &g.output_bias);
    }

    /// Every weight's gradient, in the network's order (`params_mut`).
    pub(super) fn params(&self) -> [&[f32]; 5] {
        [
            &self.input,
            &self.factor,
            &self.input_bias,
            &self.output,
            &self.output_bias,
        ]
    }
}

/// Adds `src` to `dst`, element by element (the shorter length).
#[inline(always)]
fn add_into(dst: &mut [f32], src: &[f32]) {
    for (w, d) in dst.iter_mut().zip(src) {
        *w += d;
    }
}
