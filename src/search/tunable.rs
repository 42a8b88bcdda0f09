//! The search constants SPSA may tune, as one table (`tunables!` in
//! `selectivity`): plain constants in a normal build; with `--features spsa`
//! atomics that UCI spin options set, read through `tp!` at no cost otherwise.

use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant: its name (the UCI option's), default and range.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TunableSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// OpenBench's `c_end`: the perturbation at the end of the session.
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

    /// The UCI declaration of the spin option (tuning builds only).
    pub fn declaration(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
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
            pub static $name: $crate::search::tunable::Tunable<$ty> =
                $crate::search::tunable::Tunable::new($value);
        )*

        /// Every tunable constant, in declaration order.
        pub const TUNABLES: &[$crate::search::tunable::TunableSpec] = &[$(
            $crate::search::tunable::TunableSpec {
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

/// Is this a tuning build (the constants are UCI options)?
pub const TUNING_BUILD: bool = cfg!(feature = "spsa");

/// The spin options a tuning build declares (none in a normal build).
pub fn uci_declarations() -> Vec<String> {
    if !TUNING_BUILD {
        return Vec::new();
    }
    super::selectivity::TUNABLES
        .iter()
        .map(TunableSpec::declaration)
        .collect()
}

/// `setoption` for a tunable constant: `None` when `name` is none (or this is
/// not a tuning build), else whether the value was taken.
pub fn set_option(name: &str, value: Option<&str>) -> Option<Result<(), String>> {
    let spec = super::selectivity::TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
        .filter(|_| TUNING_BUILD)?;
    let text = value.map(str::trim).unwrap_or("");
    let result = match text.parse::<i32>() {
        Ok(v) if (spec.min..=spec.max).contains(&v) => {
            store(spec.name, v);
            Ok(())
        }
        Ok(v) => Err(format!(
            "option {}: {v} is outside {}..{}",
            spec.name, spec.min, spec.max
        )),
        Err(_) => Err(format!(
            "option {}: '{text}' is not a whole number",
            spec.name
        )),
    };
    Some(result)
}

#[cfg(feature = "spsa")]
fn store(name: &str, value: i32) {
    super::selectivity::set_tunable(name, value);
}

#[cfg(not(feature = "spsa"))]
fn store(_name: &str, _value: i32) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::selectivity::TUNABLES;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0.0, "{t:?}");
            assert_eq!(TUNABLES.iter().filter(|u| u.name == t.name).count(), 1);
        }
    }

    #[test]
    fn openbench_lines_have_seven_fields() {
        let line = TUNABLES[0].openbench_line();
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[1], "int");
        assert_eq!(fields[6], "0.002");
    }

    #[test]
    fn only_a_tuning_build_declares_or_takes_the_constants() {
        assert_eq!(
            uci_declarations().len(),
            TUNABLES.len() * usize::from(TUNING_BUILD)
        );
        let name = TUNABLES[0].name;
        let taken = set_option(name, Some(&TUNABLES[0].default.to_string()));
        assert_eq!(taken.is_some(), TUNING_BUILD);
        assert_eq!(set_option("No Such Constant", Some("1")), None);
        if TUNING_BUILD {
            assert!(set_option(name, Some("99999")).unwrap().is_err());
            assert!(set_option(name, Some("x")).unwrap().is_err());
        }
    }
}
