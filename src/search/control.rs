//! `SearchControl`: what the UCI thread shares with a running search — the
//! stop flag, the ponder state, the moment the clock started (reset by
//! `ponderhit`, when the engine's own time begins) and the nodes counted.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
    /// Nodes the threads under this control have counted so far (each adds
    /// its count in steps as it polls): what `info nodes` shows of threads
    /// other than the reporting one.
    nodes: AtomicU64,
    /// Tablebase hits of the threads under this control.
    tbhits: AtomicU64,
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
            clock_start: Mutex::new(Instant::now()),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
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

    /// Adds `n` nodes searched by one of the threads.
    #[inline]
    pub fn count_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Nodes counted by all threads under this control.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Adds `n` tablebase hits of one of the threads.
    #[inline]
    pub fn count_tbhits(&self, n: u64) {
        self.tbhits.fetch_add(n, Ordering::Relaxed);
    }

    /// Tablebase hits of all threads under this control.
    pub fn tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
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
