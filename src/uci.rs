//! uci (placeholder).
