//! The known-results base: positions whose result or move is known without
//! searching — Syzygy endgame tablebases (probed in search and used to rank
//! the root moves) and a Polyglot opening book. The search and the session
//! reach them only through the narrow types re-exported here.

pub mod base;
pub mod book;
pub mod book_choice;
pub mod root;
pub mod syzygy;
pub mod syzygy_sample;
pub mod table_files;

pub use base::KnownBase;
pub use book::{Book, BookEntry, WeightedMove};
pub use book_choice::{BookChoice, BookPick};
pub use root::{RootRanking, rank_root_moves};
pub use syzygy::{SyzygyConfig, Tablebases, TbProbe};
