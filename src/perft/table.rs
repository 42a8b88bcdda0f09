//! The perft hash table: a lock-free cache of (position key, depth) -> leaf
//! count shared by all threads, the way qperft caches subtrees. Entries are
//! verified with the lockless XOR trick, so a torn write is a miss, never a
//! wrong count.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Counts at or above this do not fit beside the depth byte and are not stored.
const MAX_COUNT: u64 = 1 << 56;

/// One slot: `check` is the key XOR `data`, `data` packs the count (high 56
/// bits) and the depth (low 8 bits). A reader that sees halves of two
/// different writes finds `check ^ data != key` and treats it as a miss.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Two slots in half a cache line: the first keeps the deeper (dearer)
/// result, the second always takes the newest.
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    deep: Entry,
    recent: Entry,
}

/// A fixed-size, thread-safe perft cache. Counts are a pure function of the
/// position and the depth, so entries stay valid across searches and root
/// positions and the table never needs clearing for correctness.
pub struct PerftTable {
    buckets: Box<[Bucket]>,
}

impl PerftTable {
    /// The largest table `new` accepts, in MiB.
    pub const MAX_MB: usize = 1 << 16;

    /// A table of `mb` MiB (at least one bucket). Allocation failure is an
    /// error, not an abort.
    pub fn new(mb: usize) -> Result<PerftTable, String> {
        if mb > Self::MAX_MB {
            return Err(format!(
                "hash size {mb} MB is too large (max {} MB)",
                Self::MAX_MB
            ));
        }
        let n = (mb * 1024 * 1024 / size_of::<Bucket>()).max(1);
        let mut v: Vec<Bucket> = Vec::new();
        v.try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB perft hash table"))?;
        v.resize_with(n, Bucket::default);
        Ok(PerftTable {
            buckets: v.into_boxed_slice(),
        })
    }

    /// Number of entries (two per bucket).
    pub fn entries(&self) -> usize {
        self.buckets.len() * 2
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any table length.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The stored count for `key` at `depth`, if any.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let b = self.bucket(key);
        for e in [&b.deep, &b.recent] {
            let data = e.data.load(Relaxed);
            let check = e.check.load(Relaxed);
            if check ^ data == key && data & 0xff == u64::from(depth) {
                return Some(data >> 8);
            }
        }
        None
    }

    /// Remembers `count` for `key` at `depth` (1..=255).
    #[inline]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        if count >= MAX_COUNT || depth > 0xff {
            return;
        }
        let data = (count << 8) | u64::from(depth);
        let b = self.bucket(key);
        let slot = if b.deep.data.load(Relaxed) & 0xff <= u64::from(depth) {
            &b.deep
        } else {
            &b.recent
        };
        slot.data.store(data, Relaxed);
        slot.check.store(key ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let t = PerftTable::new(1).unwrap();
        assert!(t.entries() > 1000);
        assert_eq!(t.probe(0x1234_5678_9abc_def0, 3), None);
        t.store(0x1234_5678_9abc_def0, 3, 97_862);
        assert_eq!(t.probe(0x1234_5678_9abc_def0, 3), Some(97_862));
        // Another depth of the same key is a different question.
        assert_eq!(t.probe(0x1234_5678_9abc_def0, 4), None);
        // Counts too large to pack are not stored.
        t.store(42, 5, MAX_COUNT);
        assert_eq!(t.probe(42, 5), None);
    }

    #[test]
    fn tiny_table_still_works() {
        let t = PerftTable::new(0).unwrap();
        assert_eq!(t.entries(), 2);
        for k in 1..100u64 {
            t.store(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), 2, k);
        }
        let k = 99u64.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        assert_eq!(t.probe(k, 2), Some(99));
    }

    #[test]
    fn oversized_table_is_an_error() {
        assert!(PerftTable::new(PerftTable::MAX_MB + 1).is_err());
    }
}
