//! `compare`: the engine's back ends side by side on EPD positions (nodes,
//! leaves, passes per depth), and its report.

pub mod compare_cmd;
pub mod report;
