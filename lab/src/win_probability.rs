//! From a score to the result it predicts: the logistic curve that the
//! data's labels, the Texel tuner and the network trainer share.

/// 1 / (1 + 10^(-K·e/400)): the expected result for an evaluation `e`.
#[inline]
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}
