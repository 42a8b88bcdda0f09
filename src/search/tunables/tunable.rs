//! The machinery of the tunable-constant table (`crate::search::tunables`): the
//! `tunables!` macro that declares it, `tp!` that reads a constant (the
//! constant itself in a normal build, an atomic in a tuning build).

use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant: its name (the UCI option's), default and range.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TunableSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// OpenBench's `c_end`: the perturbation at the end of the tuning run.
    pub step: f64,
}

/// OpenBench's `r_end` for every constant (its usual value).
pub const LEARNING_RATE: f64 = 0.002;

impl TunableSpec {
    /// OpenBench's SPSA input line: `name, int, value, min, max, step, learning rate`.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.step, LEARNING_RATE
        )
    }
}

/// A constant a tuning build can change while it runs.
#[derive(Debug)]
pub struct Tunable<T> {
    value: AtomicI32,
    _type: std::marker::PhantomData<T>,
}

/// The types tunable constants have.
pub trait FromTunable {
    fn from_tunable(v: i32) -> Self;
}

impl FromTunable for i32 {
    #[inline(always)]
    fn from_tunable(v: i32) -> i32 {
        v
    }
}

impl FromTunable for u32 {
    #[inline(always)]
    fn from_tunable(v: i32) -> u32 {
        v.max(0) as u32
    }
}

impl FromTunable for usize {
    #[inline(always)]
    fn from_tunable(v: i32) -> usize {
        v.max(0) as usize
    }
}

impl<T: FromTunable> Tunable<T> {
    pub const fn new(value: i32) -> Tunable<T> {
        Tunable {
            value: AtomicI32::new(value),
            _type: std::marker::PhantomData,
        }
    }

    #[inline(always)]
    pub fn get(&self) -> T {
        T::from_tunable(self.value.load(Ordering::Relaxed))
    }

    pub fn set(&self, value: i32) {
        self.value.store(value, Ordering::Relaxed);
    }
}

/// Declares the tunable constants: `NAME: Type = default, min..=max, step;`.
/// Makes `pub const NAME` (normal build) or `pub static NAME: Tunable`
/// (`spsa` feature), `TUNABLES` (the table) and, for tuning builds, `set_tunable`.
#[macro_export]
macro_rules! tunables {
    ($( $(#[$doc:meta])* $name:ident : $ty:ty = $value:expr, $min:literal ..= $max:literal, $step:literal; )*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "spsa"))]
            pub const $name: $ty = $value;
            $(#[$doc])*
            #[cfg(feature = "spsa")]
            pub static $name: $crate::search::tunables::tunable::Tunable<$ty> =
                $crate::search::tunables::tunable::Tunable::new($value);
        )*

        /// Every tunable constant, in declaration order.
        pub const TUNABLES: &[$crate::search::tunables::tunable::TunableSpec] = &[$(
            $crate::search::tunables::tunable::TunableSpec {
                name: stringify!($name),
                default: $value,
                min: $min,
                max: $max,
                step: $step,
            },
        )*];

        /// Sets the constant `name` (case-insensitive); `false` if there is none.
        #[cfg(feature = "spsa")]
        pub fn set_tunable(name: &str, value: i32) -> bool {
            $(
                if name.eq_ignore_ascii_case(stringify!($name)) {
                    $name.set(value);
                    return true;
                }
            )*
            false
        }
    };
}

/// Reads a tunable constant: the constant itself in a normal build, its
/// current value in a tuning build.
#[cfg(not(feature = "spsa"))]
#[macro_export]
macro_rules! tp {
    ($name:ident) => {
        $name
    };
}

#[cfg(feature = "spsa")]
#[macro_export]
macro_rules! tp {
    ($name:ident) => {
        $name.get()
    };
}
