//! perft and divide: counts leaf nodes of the legal move tree (placeholder; being written).

use clap::Args;

/// `stockman perft` arguments.
#[derive(Args, Debug)]
pub struct PerftArgs {}

pub fn run(_args: &PerftArgs) -> Result<(), String> {
    Err("perft is not written yet".into())
}
