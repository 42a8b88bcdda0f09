//! tt (placeholder).
