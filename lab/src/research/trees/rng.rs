//! A hash of (seed, node path) built from the output function of the engine's
//! SplitMix64 (`stockman::rng`, which the lab uses for all its random numbers), so
//! synthetic trees can compute any node's random values directly from their
//! Dewey path.

use crate::research::trees::tree::NodePath;

use stockman::rng::{GOLDEN_GAMMA, mix};

/// A hash of the seed and a node's path: each child index is folded in with
/// one round of the output function, so every prefix has its own value.
pub fn hash_path(seed: u64, path: &NodePath) -> u64 {
    let mut h = mix(seed.wrapping_add(GOLDEN_GAMMA));
    for &index in path.indices() {
        h = mix(h ^ (u64::from(index) + 1).wrapping_mul(GOLDEN_GAMMA));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_hash_apart() {
        let root = NodePath::root();
        let hashes = [
            hash_path(1, &root),
            hash_path(1, &root.child(0)),
            hash_path(1, &root.child(0).child(0)),
            hash_path(1, &root.child(1)),
            hash_path(2, &root.child(0)),
        ];
        for i in 0..hashes.len() {
            for j in i + 1..hashes.len() {
                assert_ne!(hashes[i], hashes[j]);
            }
        }
        assert_eq!(hash_path(9, &root.child(4)), hash_path(9, &root.child(4)));
    }
}
