//! The sigmoid scale that turns a data set's search scores into expected
//! results: the S of 1 / (1 + 10^(-score / S)) that fits the games' results
//! best (least squares), so that `train-net --scale S` blends scores and
//! results on one scale (`train-net --fit-scale`).

use crate::win_probability::sigmoid;

/// Scores this large are decided games whatever the scale: left out.
const DECIDED: i16 = 2000;
/// The range searched for S, in centipawns.
const RANGE: (f64, f64) = (50.0, 2000.0);

/// The mean squared error of `1 / (1 + 10^(-score / scale))` against the
/// results (White's: 1, ½, 0) of `pairs` (score for White, result).
pub fn error_at(pairs: &[(i16, f64)], scale: f64) -> f64 {
    let total: f64 = pairs
        .iter()
        .map(|&(score, result)| {
            let p = sigmoid(400.0 / scale, f64::from(score));
            (p - result) * (p - result)
        })
        .sum();
    total / pairs.len().max(1) as f64
}

/// The pairs whose score leaves the game open (below `DECIDED`).
pub fn undecided(pairs: &[(i16, f64)]) -> Vec<(i16, f64)> {
    pairs
        .iter()
        .copied()
        .filter(|&(score, _)| score.abs() < DECIDED)
        .collect()
}

/// The best scale for `pairs` and its error, by golden-section search
/// (the error is unimodal in S); decided scores are left out. `None` when
/// no pair is left.
pub fn fit_scale(pairs: &[(i16, f64)]) -> Option<(f64, f64)> {
    let kept = undecided(pairs);
    if kept.is_empty() {
        return None;
    }
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = RANGE;
    for _ in 0..60 {
        let a = hi - golden * (hi - lo);
        let b = lo + golden * (hi - lo);
        if error_at(&kept, a) < error_at(&kept, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let scale = (lo + hi) / 2.0;
    Some((scale, error_at(&kept, scale)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_scale_the_results_were_made_with() {
        // Results that are exactly the expected result at S = 480: the fit
        // finds 480; decided scores do not disturb it.
        let mut pairs: Vec<(i16, f64)> = (-600..=600)
            .step_by(10)
            .map(|cp| (cp as i16, sigmoid(400.0 / 480.0, f64::from(cp))))
            .collect();
        pairs.push((2500, 0.0));
        let (scale, error) = fit_scale(&pairs).unwrap();
        assert!((scale - 480.0).abs() < 0.5, "{scale}");
        assert!(error < 1e-9, "{error}");
        assert!(error_at(&pairs[..pairs.len() - 1], 350.0) > error);
        assert_eq!(fit_scale(&[(2500, 1.0)]), None);
        assert_eq!(fit_scale(&[]), None);
    }
}
