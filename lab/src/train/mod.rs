//! Fitting the evaluation to data: `train-net` trains the network
//! (`train_net`; the float network, its gradients and Adam in `float_net`,
//! `gradient` and `adam`, positions in `net_sample`, the king-bucket
//! layouts in `king_layouts`, the loops' AVX2 build in `vectors`, a start
//! from an existing network in `warm_start`) on
//! labelled positions, `blend-net` mixes two networks of one shape
//! (`blend_net`), and `tune` fits the classical evaluation's weights
//! by Texel's method over its trace (`texel`) and writes them back into the
//! engine's `src/eval/tuned.rs` (`writer`); `scale_fit` finds the score
//! scale that maps centipawns to a win probability.

mod adam;
pub mod blend_net;
mod float_net;
mod gradient;
pub mod king_layouts;
mod net_sample;
pub mod scale_fit;
pub mod texel;
pub mod train_net;
pub mod train_net_cmd;
pub mod tune_cmd;
mod vectors;
mod warm_start;
pub mod writer;

pub use blend_net::{BlendNetArgs, run_blend_net};
pub use train_net_cmd::{TrainNetArgs, run_train_net};
pub use tune_cmd::{TuneArgs, run_tune};
