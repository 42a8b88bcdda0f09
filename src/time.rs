//! time (placeholder).
