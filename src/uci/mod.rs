//! The UCI protocol, text only: parsing input lines into `Command`s, the
//! option table, and formatting the engine's reports as protocol lines.
//! The session state that acts on commands lives in `crate::engine`.

pub mod command;
pub mod options;
pub mod output;
pub mod wdl;

pub use command::{Command, GoParams, PositionStart, parse};
pub use options::{OptionDecl, OptionKind, OptionValue, Options};
pub use output::Output;
