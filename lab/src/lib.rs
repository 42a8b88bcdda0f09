//! Stockman's lab: the tools that make and study the engine, beside it and
//! never inside it. `data` makes training data (datagen, convert, label),
//! `train` fits the evaluation to it (the network trainer, Texel tuning),
//! `research` runs the textbook game-tree algorithms, B* and the back-end
//! comparisons. It depends on the engine's library (`stockman`); the engine
//! does not know it exists.

pub mod args;
pub mod data;
pub mod pool;
pub mod progress;
pub mod research;
pub mod train;
pub mod win_probability;

/// A scratch directory for a unit test that writes files, removed when
/// dropped (the engine's tests' own, shared through `#[path]`).
#[cfg(test)]
#[path = "../../tests/common/scratch.rs"]
mod scratch;
