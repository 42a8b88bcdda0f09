//! The UCI protocol, text only: parsing input lines into `Command`s
//! (`command`), the option table (`options`), the text of every line the
//! engine writes (`protocol`, and `notice` for `info string` messages) and
//! the channel it goes out on (`output`).
//! The session state that acts on commands lives in `crate::session::engine`.

pub mod command;
pub mod notice;
pub mod options;
pub mod output;
pub mod protocol;
pub mod wdl;

pub use command::{Command, GoParams, PositionStart, parse};
pub use notice::Notice;
pub use options::{OptionDecl, OptionKind, OptionValue, Options};
pub use output::Output;
