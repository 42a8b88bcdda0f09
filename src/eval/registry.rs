//! The registry of tunable weights: the `tunable_weights!` macro that
//! declares each weight once — section, documentation, name, type, value —
//! as a `pub const`, a variant of `W` (how the trace names the weight a term
//! used) and an entry of `registry()` (what the tuner reads and writes back);
//! and the `Layout` that numbers every element of every weight as one slot.

use super::tapered::{S, s};

/// Declares the tunable weights (see `tuned.rs`, the one invocation).
macro_rules! tunable_weights {
    ($($section:literal {
        $($(#[doc = $doc:literal])* $name:ident: $ty:ty = $value:expr;)*
    })*) => {
        $($(
            $(#[doc = $doc])*
            pub const $name: $ty = $value;
        )*)*

        /// Every tunable weight by name, in declaration order: how the
        /// evaluation's trace says which weight a term used.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum W {
            $($($name,)*)*
        }

        /// Section, name, documentation and current value of every tunable
        /// weight, in declaration order (`W as usize` indexes it).
        pub fn registry() -> Vec<$crate::eval::registry::WeightInfo> {
            vec![$($($crate::eval::registry::WeightInfo::new(
                $section,
                stringify!($name),
                &[$($doc),*],
                &$name,
            ),)*)*]
        }
    };
}
pub(crate) use tunable_weights;

/// What one element of a weight is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A (middlegame, endgame) pair added to the score: `S`.
    Pair,
    /// A plain number: king-danger units (`i32`), kept in the `mg` half.
    Units,
}

/// A weight's type: a single element or a table of `len`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub kind: Kind,
    pub len: Option<usize>,
}

impl Shape {
    /// The type as the source spells it: `S`, `[S; 9]`, `i32`, `[i32; 6]`.
    pub fn rust_type(&self) -> String {
        let element = match self.kind {
            Kind::Pair => "S",
            Kind::Units => "i32",
        };
        match self.len {
            None => element.to_string(),
            Some(n) => format!("[{element}; {n}]"),
        }
    }
}

/// The types a tunable weight may have.
pub trait Tunable {
    const SHAPE: Shape;
    /// The elements in order; a `Units` element is kept in `mg` (`eg` 0).
    fn elements(&self) -> Vec<S>;
}

impl Tunable for S {
    const SHAPE: Shape = Shape {
        kind: Kind::Pair,
        len: None,
    };
    fn elements(&self) -> Vec<S> {
        vec![*self]
    }
}

impl<const N: usize> Tunable for [S; N] {
    const SHAPE: Shape = Shape {
        kind: Kind::Pair,
        len: Some(N),
    };
    fn elements(&self) -> Vec<S> {
        self.to_vec()
    }
}

impl Tunable for i32 {
    const SHAPE: Shape = Shape {
        kind: Kind::Units,
        len: None,
    };
    fn elements(&self) -> Vec<S> {
        vec![s(*self, 0)]
    }
}

impl<const N: usize> Tunable for [i32; N] {
    const SHAPE: Shape = Shape {
        kind: Kind::Units,
        len: Some(N),
    };
    fn elements(&self) -> Vec<S> {
        self.iter().map(|&v| s(v, 0)).collect()
    }
}

/// One tunable weight as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightInfo {
    /// The heading it is declared under.
    pub section: &'static str,
    pub name: &'static str,
    /// Its documentation, one entry per `///` line (without the slashes).
    pub doc: Vec<&'static str>,
    pub shape: Shape,
    pub values: Vec<S>,
}

impl WeightInfo {
    pub fn new<T: Tunable>(
        section: &'static str,
        name: &'static str,
        doc: &[&'static str],
        value: &T,
    ) -> WeightInfo {
        WeightInfo {
            section,
            name,
            doc: doc.to_vec(),
            shape: T::SHAPE,
            values: value.elements(),
        }
    }
}

/// Every element of every weight numbered as one slot, weight after weight
/// in declaration order.
#[derive(Clone, Debug)]
pub struct Layout {
    /// First slot of each weight, by `W as usize`; one more entry at the end
    /// (the total).
    offsets: Vec<usize>,
    kinds: Vec<Kind>,
}

impl Layout {
    pub fn new(registry: &[WeightInfo]) -> Layout {
        let mut offsets = vec![0];
        let mut kinds = Vec::new();
        for w in registry {
            offsets.push(offsets.last().unwrap_or(&0) + w.values.len());
            kinds.extend(std::iter::repeat_n(w.shape.kind, w.values.len()));
        }
        Layout { offsets, kinds }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The slot of element `i` of the weight with index `w`.
    #[inline]
    pub fn slot(&self, w: usize, i: usize) -> usize {
        debug_assert!(
            self.offsets[w] + i < self.offsets[w + 1],
            "weight {w} element {i}"
        );
        self.offsets[w] + i
    }

    /// The slots of the weight with index `w`.
    pub fn slots(&self, w: usize) -> std::ops::Range<usize> {
        self.offsets[w]..self.offsets[w + 1]
    }

    pub fn kind(&self, slot: usize) -> Kind {
        self.kinds[slot]
    }

    /// All elements of `registry` as one vector, by slot.
    pub fn values(registry: &[WeightInfo]) -> Vec<S> {
        registry
            .iter()
            .flat_map(|w| w.values.iter().copied())
            .collect()
    }
}
