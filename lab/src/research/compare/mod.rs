//! `compare`: the engine's back ends side by side on EPD positions (nodes,
//! leaves, passes per depth), with its report, CSV tables, SVG charts and
//! the summary statistics the tree runs share.

pub mod chart;
pub mod compare_cmd;
pub mod csv_table;
pub mod report;
pub mod summary;
