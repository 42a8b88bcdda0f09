//! Which vector instructions the network's kernels use: the build is for
//! any x86-64 (SSE2), and the accumulator's updates and the output layer are
//! compiled twice more, for AVX2 and for AVX-512, chosen at run time.

use std::sync::OnceLock;

/// A set of instructions the network's kernels are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// What every CPU of the build's target has (SSE2 on x86-64).
    Portable,
    /// AVX2 with BMI1/2, POPCNT and LZCNT: 256-bit vectors.
    Avx2,
    /// AVX-512 F and BW besides the above: 512-bit vectors of i16.
    Avx512,
}

impl Isa {
    /// The widest set this CPU has, found once.
    #[inline(always)]
    pub fn best() -> Isa {
        static BEST: OnceLock<Isa> = OnceLock::new();
        *BEST.get_or_init(|| Isa::supported().into_iter().last().unwrap_or(Isa::Portable))
    }

    /// Every set this CPU can run, narrowest first.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    pub fn supported() -> Vec<Isa> {
        let mut all = vec![Isa::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 =
                has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt") && has!("lzcnt");
            if avx2 {
                all.push(Isa::Avx2);
                if has!("avx512f") && has!("avx512bw") {
                    all.push(Isa::Avx512);
                }
            }
        }
        all
    }

    /// The name `bench` prints.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "AVX2",
            Isa::Avx512 => "AVX-512",
        }
    }
}
