//! Texel tuning of the evaluation. `stockman datagen` makes the data — quiet
//! positions labelled with their game's result, from self-play or from PGN
//! games — and `stockman tune` fits the tunable weights to it (Texel's
//! method over the evaluation's trace) and writes them back into
//! `src/eval/tuned.rs` with a note of the data they came from. `stockman
//! label` relabels the data with another engine's judgement instead of
//! the game result, and `stockman train-net` fits the evaluation network
//! (`train_net`) to such data. `packed` is the binary data format (positions
//! with their search scores) that `datagen --format bin` and `stockman
//! convert` write and `train-net` reads. Part of the lab (the `lab` feature).

pub mod convert_cmd;
pub mod datagen;
pub mod datagen_cmd;
pub mod dataset;
pub mod label_cmd;
pub mod label_engine;
pub mod packed;
pub mod pgn;
pub mod sample;
pub mod scale_fit;
pub mod texel;
pub mod train_net;
pub mod train_net_cmd;
pub mod tune_cmd;
pub mod writer;

pub use convert_cmd::{ConvertArgs, run_convert};
pub use datagen_cmd::{DataFormat, DatagenArgs, run_datagen};
pub use label_cmd::{LabelArgs, run_label};
pub use train_net_cmd::{TrainNetArgs, run_train_net};
pub use tune_cmd::{TuneArgs, run_tune};

/// A rayon pool of `threads` (all cores when `None`).
pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))
}
