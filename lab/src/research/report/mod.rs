//! How the research commands report: tables on standard output, CSV files
//! and SVG charts.

pub mod chart;
pub mod csv_table;
pub mod stdout;
