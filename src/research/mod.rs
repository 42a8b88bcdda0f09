//! Research: textbook search algorithms over explicit game trees (placeholder; being written).

use clap::Args;

/// `stockman trees` arguments.
#[derive(Args, Debug)]
pub struct TreesArgs {}

pub fn run_trees(_args: &TreesArgs) -> Result<(), String> {
    Err("trees is not written yet".into())
}
