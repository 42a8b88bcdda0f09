//! Turns on the cores for helper threads beyond them. With more helpers than
//! cores left by the main search thread, helpers take turns: at most
//! `turns` search at once, each for a slice, then it hands its turn to a
//! waiting helper. The kernel never sees hundreds of runnable threads, so
//! the main search thread and the input loop get a core at once and
//! `stop`, `isready` and `quit` are answered in milliseconds at any `Threads`.
//! Only helpers touch this; the main thread never waits on it.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a helper searches before it gives its turn to a waiting one.
const SLICE: Duration = Duration::from_millis(10);

/// The turns of one helper pool.
pub struct Turns {
    free: Mutex<usize>,
    freed: Condvar,
    /// Helpers waiting for a turn.
    waiting: AtomicUsize,
}

thread_local! {
    /// The turn this thread holds, and since when.
    static HELD: RefCell<Option<(Arc<Turns>, Instant)>> = const { RefCell::new(None) };
}

impl Turns {
    pub fn new(turns: usize) -> Arc<Turns> {
        Arc::new(Turns {
            free: Mutex::new(turns.max(1)),
            freed: Condvar::new(),
            waiting: AtomicUsize::new(0),
        })
    }

    fn free(&self) -> MutexGuard<'_, usize> {
        // A count only: a poisoned lock still holds a good one.
        self.free.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a turn.
    fn acquire(&self) {
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let mut free = self.free();
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|p| p.into_inner());
        }
        *free -= 1;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
    }

    fn release(&self) {
        *self.free() += 1;
        self.freed.notify_one();
    }
}

/// A turn held by the calling thread until it is dropped (panics included).
pub struct Turn(());

impl Turn {
    /// Waits for a turn of `turns` and holds it on this thread.
    pub fn take(turns: &Arc<Turns>) -> Turn {
        turns.acquire();
        HELD.with(|h| *h.borrow_mut() = Some((turns.clone(), Instant::now())));
        Turn(())
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some((turns, _)) = HELD.with(|h| h.borrow_mut().take()) {
            turns.release();
        }
    }
}

/// Called by every search thread now and then (each poll of the stop
/// flag): a helper whose slice is over gives its turn to a waiting helper
/// and waits for its next one. Does nothing on a thread without a turn.
pub fn pause_point() {
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        let Some((turns, since)) = held.as_mut() else {
            return;
        };
        if since.elapsed() < SLICE || turns.waiting.load(Ordering::Relaxed) == 0 {
            return;
        }
        turns.release();
        turns.acquire();
        *since = Instant::now();
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn no_more_than_the_turns_run_at_once_and_all_get_one() {
        let turns = Turns::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (turns, running, most, done) =
                    (turns.clone(), running.clone(), most.clone(), done.clone());
                std::thread::spawn(move || {
                    let _turn = Turn::take(&turns);
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    running.fetch_sub(1, Ordering::SeqCst);
                    done.fetch_add(1, Ordering::SeqCst);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(done.load(Ordering::SeqCst), 6);
        assert!(most.load(Ordering::SeqCst) <= 2);
    }

    #[test]
    fn a_long_search_gives_its_turn_at_a_pause_point() {
        let turns = Turns::new(1);
        let first_done = Arc::new(AtomicBool::new(false));
        let t = {
            let (turns, first_done) = (turns.clone(), first_done.clone());
            std::thread::spawn(move || {
                let _turn = Turn::take(&turns);
                // Pauses until the second thread has had its turn.
                while !first_done.load(Ordering::SeqCst) {
                    pause_point();
                    std::thread::sleep(Duration::from_millis(1));
                }
            })
        };
        while *turns.free() != 0 {
            std::thread::yield_now();
        }
        // The second thread gets a turn within a slice or so (a hang is
        // the failure: 5 s).
        let (tx, rx) = std::sync::mpsc::channel();
        let second = {
            let turns = turns.clone();
            std::thread::spawn(move || {
                let turn = Turn::take(&turns);
                tx.send(()).unwrap();
                drop(turn);
            })
        };
        let got = rx.recv_timeout(Duration::from_secs(5));
        first_done.store(true, Ordering::SeqCst);
        assert!(got.is_ok(), "the turn was never given up at a pause point");
        second.join().unwrap();
        t.join().unwrap();
        assert_eq!(*turns.free(), 1);
    }

    #[test]
    fn a_thread_without_a_turn_passes_through() {
        pause_point();
    }
}
