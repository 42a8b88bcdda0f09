//! Training data: `datagen` plays self-play games (or reads PGN games) and
//! keeps quiet positions with their game's result and search score;
//! `convert` turns text data, or games with engine scores in their move
//! comments, into binary records; `label` relabels data
//! with another UCI engine's judgement. `packed` is the binary record format
//! that datagen and convert write and `train-net` reads.

pub mod checkpoint;
pub mod convert_cmd;
pub mod convert_pgn;
pub mod datagen;
pub mod datagen_cmd;
pub mod datagen_pgn;
pub mod dataset;
pub mod dfrc;
pub mod filters;
pub mod game_sink;
pub mod label_cmd;
pub mod label_engine;
pub mod packed;
pub mod pgn;
pub mod sample;
pub mod selfplay_run;
pub mod tallies;

pub use convert_cmd::{ConvertArgs, run_convert};
pub use datagen_cmd::{DatagenArgs, run_datagen};
pub use game_sink::DataFormat;
pub use label_cmd::{LabelArgs, run_label};
