//! The Lazy SMP helper threads: created once per `Threads` value and kept
//! across `go`s, parked between them, with their own ordering tables. A `go`
//! leaves one shared job in each helper's lock-free mailbox and unparks it:
//! the main thread and the input loop share no lock with a helper, so no
//! helper waiting for a core can hold them up. Beyond the cores helpers take
//! turns (`turns`). They share only the TT, count their nodes into the job's
//! `SearchControl`, and a panic in one is caught and noted, never fatal.

use super::turns::{Turn, Turns};
use crate::board::Board;
use crate::search::limits::Limits;
use crate::search::node::{SearchTables, Searcher};
use crate::search::{SearchControl, SearchParams, search};
use crate::tt::TranspositionTable;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::Thread;

/// Stack for a search thread: deep recursion with move lists on the stack.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// What every helper searches for one `go`.
#[derive(Clone)]
pub struct HelperJob {
    pub board: Board,
    pub tt: Arc<TranspositionTable>,
    pub params: SearchParams,
    /// The root moves (`searchmoves`); helpers have no other limit.
    pub limits: Limits,
    /// Stopped when the main search ends; the helpers' nodes add up here.
    pub control: Arc<SearchControl>,
    /// Failures of helpers, for the main thread to report before `bestmove`.
    pub failures: Arc<Mutex<Vec<String>>>,
}

/// One helper's mailbox: the job posted for it, owned by whoever swaps it
/// out, and the helper's handle to wake it. No lock: a helper that waits
/// for a core while it takes a job holds up no one.
struct Mailbox {
    job: AtomicPtr<HelperJob>,
    /// Set by the helper when it runs.
    thread: OnceLock<Thread>,
}

impl Mailbox {
    fn new() -> Mailbox {
        Mailbox {
            job: AtomicPtr::new(std::ptr::null_mut()),
            thread: OnceLock::new(),
        }
    }

    /// Leaves `job` (replacing one not yet taken) and wakes the helper.
    fn post(&self, job: Arc<HelperJob>) {
        let old = self
            .job
            .swap(Arc::into_raw(job).cast_mut(), Ordering::AcqRel);
        drop(Self::owned(old));
        if let Some(t) = self.thread.get() {
            t.unpark();
        }
    }

    /// The job posted since the last `take`, if any.
    fn take(&self) -> Option<Arc<HelperJob>> {
        Self::owned(self.job.swap(std::ptr::null_mut(), Ordering::AcqRel))
    }

    /// Takes ownership of a pointer swapped out of `job`.
    fn owned(ptr: *mut HelperJob) -> Option<Arc<HelperJob>> {
        // SAFETY: every non-null pointer in `job` came from `Arc::into_raw`
        // and is swapped out exactly once, so it is turned back once.
        (!ptr.is_null()).then(|| unsafe { Arc::from_raw(ptr) })
    }
}

impl Drop for Mailbox {
    fn drop(&mut self) {
        drop(self.take());
    }
}

/// The state the pool and its helpers share.
struct Shared {
    mailboxes: Vec<Mailbox>,
    /// The pool is gone: helpers end.
    closed: AtomicBool,
    /// Raised by `clear_tables`; each helper clears its tables when it sees
    /// a value newer than its own.
    clear_epoch: AtomicU64,
    /// With more helpers than the cores the main thread leaves, they take
    /// turns on those cores.
    turns: Option<Arc<Turns>>,
}

/// The helper threads of one `Threads` value.
pub struct HelperPool {
    shared: Arc<Shared>,
}

impl HelperPool {
    /// Starts `count` helpers. They are spawned by a thread of their own, so
    /// that hundreds of them delay no command; a helper that starts after a
    /// job was posted takes it up. More helpers than the cores left by the
    /// main search thread take turns on them (see `turns`). They live
    /// until the pool is closed.
    pub fn new(count: usize) -> HelperPool {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let helper_cores = cores.saturating_sub(1).max(1);
        let shared = Arc::new(Shared {
            mailboxes: (0..count).map(|_| Mailbox::new()).collect(),
            closed: AtomicBool::new(false),
            clear_epoch: AtomicU64::new(0),
            turns: (count > helper_cores).then(|| Turns::new(helper_cores)),
        });
        let for_spawner = shared.clone();
        let spawner = std::thread::Builder::new()
            .name("helper spawner".into())
            .spawn(move || spawn_helpers(&for_spawner));
        if let Err(e) = spawner {
            log::warn!("cannot start the helper threads: {e}");
        }
        HelperPool { shared }
    }

    /// Helpers of this pool (the main search thread is not one of them).
    pub fn len(&self) -> usize {
        self.shared.mailboxes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shared.mailboxes.is_empty()
    }

    /// Posts `job` to every helper and wakes them (not after `close`): an
    /// atomic swap and a wake-up each. A helper still winding down a stopped
    /// search takes it up when it is done; a job replaced before a helper
    /// took it is never searched by that helper.
    pub fn start(&self, job: &HelperJob) {
        if self.shared.closed.load(Ordering::Acquire) {
            return;
        }
        let job = Arc::new(job.clone());
        for m in &self.shared.mailboxes {
            m.post(job.clone());
        }
    }

    /// Clears every helper's ordering tables before its next search (a new game).
    pub fn clear_tables(&self) {
        self.shared.clear_epoch.fetch_add(1, Ordering::Relaxed);
    }

    /// Ends the helpers once their searches are over. Any running search
    /// must have been stopped.
    pub fn close(&self) {
        self.shared.closed.store(true, Ordering::Release);
        for m in &self.shared.mailboxes {
            if let Some(t) = m.thread.get() {
                t.unpark();
            }
        }
    }
}

impl Drop for HelperPool {
    fn drop(&mut self) {
        self.close();
    }
}

fn spawn_helpers(shared: &Arc<Shared>) {
    for index in 1..=shared.mailboxes.len() {
        let shared = shared.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("search helper {index}"))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let _ = shared.mailboxes[index - 1]
                    .thread
                    .set(std::thread::current());
                helper_loop(index, &shared)
            });
        if let Err(e) = spawned {
            // Its jobs are never taken: the others search on.
            log::warn!("cannot start helper thread {index}: {e}");
        }
    }
}

/// The next job posted to helper `index`, parked until there is one;
/// `None` once the pool is closed.
fn next_job(shared: &Shared, index: usize) -> Option<Arc<HelperJob>> {
    loop {
        if shared.closed.load(Ordering::Acquire) {
            return None;
        }
        if let Some(job) = shared.mailboxes[index - 1].take() {
            return Some(job);
        }
        // A post or close after the checks above unparks at once.
        std::thread::park();
    }
}

/// One helper: waits for jobs until its pool is closed. Jobs stopped
/// before they start (superseded by a later `go`) are skipped.
fn helper_loop(index: usize, shared: &Shared) {
    let mut tables: Box<SearchTables> = Box::default();
    let mut seen_epoch = 0;
    while let Some(job) = next_job(shared, index) {
        if job.control.is_stopped() {
            continue;
        }
        let _turn = shared.turns.as_ref().map(Turn::take);
        if job.control.is_stopped() {
            continue;
        }
        let epoch = shared.clear_epoch.load(Ordering::Relaxed);
        if epoch != seen_epoch {
            tables.clear();
            seen_epoch = epoch;
        }
        let failures = job.failures.clone();
        let outcome = catch_unwind(AssertUnwindSafe(|| run_helper(index, &job, tables)));
        tables = match outcome {
            Ok(tables) => tables,
            Err(panic) => {
                let message = format!(
                    "search helper {index} failed ({}); its tables are reset",
                    panic_message(&*panic)
                );
                log::error!("{message}");
                if let Ok(mut f) = failures.lock() {
                    f.push(message);
                }
                Box::default()
            }
        };
    }
}

fn run_helper(index: usize, job: &HelperJob, tables: Box<SearchTables>) -> Box<SearchTables> {
    if crate::search::faults::injected(crate::search::faults::Fault::HelperPanic) {
        panic!("injected fault in helper {index}");
    }
    let mut helper = Searcher::new(
        // With room for the search's plies: play never reallocates.
        job.board.search_copy(),
        job.tt.clone(),
        tables,
        job.control.clone(),
        job.params.mode,
    );
    helper.pause = super::turns::pause_point;
    search(&mut helper, &job.params, &job.limits, &mut |_| {});
    helper.into_tables()
}

/// The text of a panic's payload.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn job(control: &Arc<SearchControl>) -> HelperJob {
        HelperJob {
            board: Board::default(),
            tt: Arc::new(TranspositionTable::new(1).unwrap()),
            params: SearchParams::default(),
            limits: Limits::default(),
            control: control.clone(),
            failures: Arc::default(),
        }
    }

    #[test]
    fn helpers_search_until_stopped_and_count_their_nodes() {
        let pool = HelperPool::new(3);
        assert_eq!(pool.len(), 3);
        for _ in 0..2 {
            let control = Arc::new(SearchControl::default());
            pool.start(&job(&control));
            let deadline = Instant::now() + Duration::from_secs(20);
            while control.nodes() < 10_000 {
                assert!(Instant::now() < deadline, "the helpers count no nodes");
                std::thread::sleep(Duration::from_millis(1));
            }
            control.stop();
        }
        pool.clear_tables();
    }

    #[test]
    fn a_stopped_job_is_skipped() {
        let pool = HelperPool::new(2);
        let control = Arc::new(SearchControl::default());
        control.stop();
        pool.start(&job(&control));
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(control.nodes(), 0);
    }

    #[test]
    fn panic_messages_are_read() {
        let p = catch_unwind(|| panic!("plain")).unwrap_err();
        assert_eq!(panic_message(&*p), "plain");
        let p = catch_unwind(|| panic!("formatted {}", 7)).unwrap_err();
        assert_eq!(panic_message(&*p), "formatted 7");
    }
}
