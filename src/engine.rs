//! engine (placeholder).
