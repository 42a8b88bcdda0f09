//! `SearchControl`: what the UCI thread shares with a running search — the
//! stop flag, the ponder state and the moment the clock started (reset by
//! `ponderhit`, when the engine's own time begins).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Set by the search thread just before it prints `bestmove`: from then
    /// on the session may start the next search (the thread is only exiting).
    reported: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new(false)
    }
}

impl SearchControl {
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            reported: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The search has produced its final answer.
    pub fn mark_reported(&self) {
        self.reported.store(true, Ordering::Release);
    }

    pub fn is_reported(&self) -> bool {
        self.reported.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: our clock runs from now.
    pub fn ponderhit(&self) {
        if let Ok(mut start) = self.clock_start.lock() {
            *start = Instant::now();
        }
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Time on our clock since the search (or the ponderhit) started.
    pub fn elapsed(&self) -> Duration {
        self.clock_start
            .lock()
            .map(|s| s.elapsed())
            .unwrap_or_default()
    }
}
