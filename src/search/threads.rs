//! The Lazy SMP helper threads: created once per `Threads` value and kept
//! across `go`s with their own ordering tables. Each `go` hands every helper
//! the same position; helpers share only the TT, count their nodes into the
//! job's `SearchControl`, and a panic in one is caught and noted, never fatal.

use super::limits::Limits;
use super::node::{SearchTables, Searcher};
use super::{SearchControl, SearchParams, search};
use crate::board::Board;
use crate::tt::TranspositionTable;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

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

/// The helper threads of one `Threads` value.
pub struct HelperPool {
    workers: Vec<Sender<HelperJob>>,
    /// Raised by `clear_tables`; each helper clears its tables when it sees
    /// a value newer than its own.
    clear_epoch: Arc<AtomicU64>,
}

impl HelperPool {
    /// Starts `count` helpers. They are spawned by a thread of their own, so
    /// that hundreds of them delay no command; jobs sent before a helper runs
    /// wait in its channel. More helpers than cores run at the lowest
    /// priority, so that the main search thread and the input loop get a
    /// core when they want one (at Threads 256 on two cores, `stop` and
    /// `isready` would otherwise wait hundreds of milliseconds for a turn).
    /// They live until the pool is dropped.
    pub fn new(count: usize) -> HelperPool {
        let clear_epoch = Arc::new(AtomicU64::new(0));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let background = count + 1 > cores;
        let mut workers = Vec::with_capacity(count);
        let mut inboxes = Vec::with_capacity(count);
        for _ in 0..count {
            let (tx, rx) = channel();
            workers.push(tx);
            inboxes.push(rx);
        }
        let epoch = clear_epoch.clone();
        let spawner = std::thread::Builder::new()
            .name("helper spawner".into())
            .spawn(move || spawn_helpers(inboxes, &epoch, background));
        if let Err(e) = spawner {
            log::warn!("cannot start the helper threads: {e}");
            workers.clear();
        }
        HelperPool {
            workers,
            clear_epoch,
        }
    }

    /// Helpers running (the main search thread is not one of them).
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Hands `job` to every helper. A helper still winding down a stopped
    /// search takes it up as soon as it is done.
    pub fn start(&self, job: &HelperJob) {
        for w in &self.workers {
            // A helper that died (it never should) is simply not asked.
            let _ = w.send(job.clone());
        }
    }

    /// Clears every helper's ordering tables before its next search (a new game).
    pub fn clear_tables(&self) {
        self.clear_epoch.fetch_add(1, Ordering::Relaxed);
    }
}

fn spawn_helpers(inboxes: Vec<Receiver<HelperJob>>, epoch: &Arc<AtomicU64>, background: bool) {
    for (i, rx) in inboxes.into_iter().enumerate() {
        let epoch = epoch.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("search helper {}", i + 1))
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                if background {
                    lowest_priority();
                }
                helper_loop(i + 1, &rx, &epoch)
            });
        if let Err(e) = spawned {
            // Its jobs are never taken: the others search on.
            log::warn!("cannot start helper thread {}: {e}", i + 1);
        }
    }
}

/// Puts the calling thread in Linux's idle scheduling class (per thread):
/// it runs only when nothing else of any priority wants the core, and any
/// other thread waking up takes the core from it at once, even when the
/// whole engine runs at a low priority. Else nice 19 is tried.
#[cfg(target_os = "linux")]
fn lowest_priority() {
    // SAFETY: gettid, sched_setscheduler and setpriority take plain values
    // and a pointer to a local that outlives the call.
    let ok = unsafe {
        let tid = libc::gettid();
        let param = libc::sched_param { sched_priority: 0 };
        libc::sched_setscheduler(tid, libc::SCHED_IDLE, &param) == 0
            || libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19) == 0
    };
    if !ok {
        log::debug!("cannot lower a helper thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lowest_priority() {}

/// One helper: waits for jobs until its pool is dropped. Jobs stopped
/// before they start (superseded by a later `go`) are skipped.
fn helper_loop(index: usize, jobs: &Receiver<HelperJob>, clear_epoch: &AtomicU64) {
    let mut tables: Box<SearchTables> = Box::default();
    let mut seen_epoch = 0;
    while let Ok(job) = jobs.recv() {
        if job.control.is_stopped() {
            continue;
        }
        let epoch = clear_epoch.load(Ordering::Relaxed);
        if epoch != seen_epoch {
            tables.clear();
            seen_epoch = epoch;
        }
        let failures = job.failures.clone();
        let outcome = catch_unwind(AssertUnwindSafe(move || run_helper(index, job, tables)));
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

fn run_helper(index: usize, job: HelperJob, tables: Box<SearchTables>) -> Box<SearchTables> {
    if super::faults::injected(super::faults::Fault::HelperPanic) {
        panic!("injected fault in helper {index}");
    }
    let mut helper = Searcher::new(job.board, job.tt, tables, job.control, job.params.mode);
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
