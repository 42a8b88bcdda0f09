//! search (placeholder).
pub struct Limits;
pub struct SearchResult;
pub enum Algorithm {
    AlphaBeta,
}
