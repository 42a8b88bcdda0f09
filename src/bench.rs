//! bench: fixed-depth node signature (placeholder).
