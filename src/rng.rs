//! SplitMix64 (Steele, Lea & Flood 2014): the one small seeded generator of
//! the engine (book choice, weakened play, genfens, tablebase samples) and of
//! the lab, which re-exports it from `research::rng`.

/// The golden-ratio increment of SplitMix64's state.
pub const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output function (a variant of the MurmurHash3 finalizer).
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seeded stream of 64-bit numbers.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A number in `lo..=hi` (requires `lo <= hi`).
    pub fn in_range(&mut self, lo: i64, hi: i64) -> i64 {
        scale_to_range(self.next_u64(), lo, hi)
    }
}

/// Maps a uniformly random 64-bit number onto `lo..=hi` by multiplying into
/// the range (Lemire's method without rejection; the bias is below 2^-30 for
/// the ranges used here).
pub fn scale_to_range(random: u64, lo: i64, hi: i64) -> i64 {
    assert!(lo <= hi, "empty range {lo}..{hi}");
    let span = (hi as i128 - lo as i128 + 1) as u128;
    let offset = (u128::from(random) * span) >> 64;
    (lo as i128 + offset as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
    }

    #[test]
    fn reference_output() {
        // First outputs of SplitMix64 seeded with 0 (reference implementation).
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn ranges_are_inclusive_and_covered() {
        let mut g = SplitMix64::new(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let v = g.in_range(-2, 2);
            assert!((-2..=2).contains(&v));
            seen[(v + 2) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(scale_to_range(u64::MAX, 3, 3), 3);
        assert_eq!(scale_to_range(0, i64::MIN, i64::MAX), i64::MIN);
    }
}
