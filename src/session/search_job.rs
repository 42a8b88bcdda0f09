//! The search of one `go`: the main search thread, the helpers it wakes once
//! its first iteration is done, and the `Reporter` through which exactly one
//! `bestmove` goes out: from the main thread, or from the session when the
//! main thread does not answer `stop` in time (no CPU among hundreds of
//! threads) or has panicked.

use crate::board::Board;
use crate::eval::evaluate;
use crate::score::Score;
use crate::search::faults::{Fault, injected};
use crate::search::threads::{HelperJob, HelperPool, panic_message};
use crate::search::{Info, Limits, SearchControl, SearchParams, SearchResult, SearchTables};
use crate::search::{Searcher, search};
use crate::strength::Strength;
use crate::tt::{Bound, TranspositionTable};
use crate::uci::protocol::{self, format_info};
use crate::uci::{Notice, Output};
use shakmaty::Move;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How often a finished infinite or ponder search looks for `stop`/`ponderhit`.
const WAIT_POLL: Duration = Duration::from_millis(1);

/// What the reporter has printed.
#[derive(Default)]
struct Reported {
    /// `bestmove` is out: nothing more may be printed for this search.
    done: bool,
    /// The last line of the principal variation (multipv 1), nodes of all threads.
    last: Option<Info>,
    /// The node count of the last `info` printed.
    printed_nodes: Option<u64>,
}

/// Prints the search's `info` lines and its one `bestmove`.
pub struct Reporter {
    out: Output,
    /// The root position (a search copy), to write moves.
    board: Board,
    show_wdl: bool,
    /// The main thread's control (its clock and its counted nodes).
    main: Arc<SearchControl>,
    /// The helpers' control: their counted nodes.
    helpers: Arc<SearchControl>,
    failures: Arc<Mutex<Vec<String>>>,
    tt: Arc<TranspositionTable>,
    /// The move played if no iteration finishes (the first allowed one).
    first_move: Option<Move>,
    /// Tables are loaded: `info` lines show `tbhits`.
    shows_tbhits: bool,
    state: Mutex<Reported>,
}

impl Reporter {
    pub fn new(
        out: Output,
        board: Board,
        limits: &Limits,
        show_wdl: bool,
        tt: Arc<TranspositionTable>,
        main: Arc<SearchControl>,
    ) -> Reporter {
        let legal = board.legal_moves();
        let first_move = limits
            .searchmoves
            .iter()
            .copied()
            .find(|m| legal.contains(m))
            .or_else(|| legal.first().copied());
        Reporter {
            out,
            board,
            show_wdl,
            main,
            helpers: Arc::new(SearchControl::new(false)),
            failures: Arc::default(),
            tt,
            first_move,
            shows_tbhits: false,
            state: Mutex::new(Reported::default()),
        }
    }

    /// Shows `tbhits` in the `info` lines (tables are loaded).
    pub fn with_tbhits(mut self, shows: bool) -> Reporter {
        self.shows_tbhits = shows;
        self
    }

    /// The tablebase hits of all threads, given the main thread's.
    fn tbhits(&self, main: u64) -> Option<u64> {
        self.shows_tbhits.then(|| main + self.helpers.tbhits())
    }

    fn state(&self) -> MutexGuard<'_, Reported> {
        // A panic while printing leaves the state as it was: still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops the helper threads (the main search has ended or must end).
    pub fn stop_helpers(&self) {
        self.helpers.stop();
    }

    /// Has `bestmove` been printed?
    pub fn is_done(&self) -> bool {
        self.state().done
    }

    /// One finished line of an iteration (nodes of the main thread only).
    pub fn iteration(&self, info: &Info) {
        let mut st = self.state();
        if st.done {
            return;
        }
        let mut info = info.clone();
        info.nodes += self.helpers.nodes();
        info.tbhits = info.tbhits.and_then(|t| self.tbhits(t));
        self.out
            .line(&format_info(&info, &self.board, self.show_wdl));
        st.printed_nodes = Some(info.nodes);
        if info.multipv == 1 && !info.pv.is_empty() {
            st.last = Some(info);
        }
    }

    /// The main thread's end of the search.
    pub fn finish(&self, result: &SearchResult) {
        let mut st = self.state();
        if st.done {
            return;
        }
        self.print_failures();
        let Some(best) = result.best_move else {
            self.no_legal_move();
            st.done = true;
            return;
        };
        let nodes = result.stats.nodes + self.helpers.nodes();
        // A limited strength may play another line than the last one shown.
        let shown_best = st.last.as_ref().and_then(|i| i.pv.first().copied());
        if st.printed_nodes != Some(nodes) || shown_best != Some(best) {
            let info = self.final_info(result, best, nodes);
            self.out
                .line(&format_info(&info, &self.board, self.show_wdl));
        }
        self.bestmove(best, result.ponder_move);
        st.done = true;
    }

    /// The session's end of the search, when the main thread is late or
    /// failed: the last finished iteration's move, else the first allowed
    /// one, with a final `info` line. Does nothing once `bestmove` is out.
    pub fn fallback(&self, why: Option<Notice>) {
        let mut st = self.state();
        if st.done {
            return;
        }
        self.print_failures();
        if let Some(why) = why {
            self.out.notice(why);
        }
        let nodes = (self.main.nodes() + self.helpers.nodes()).max(st.printed_nodes.unwrap_or(0));
        let time = self.main.elapsed();
        match (st.last.clone(), self.first_move) {
            (Some(mut info), _) => {
                info.nodes = nodes;
                info.time = time;
                self.out
                    .line(&format_info(&info, &self.board, self.show_wdl));
                self.bestmove(info.pv[0], info.pv.get(1).copied());
            }
            (None, Some(first)) => {
                let mut info = self.final_info(&SearchResult::default(), first, nodes);
                info.time = time;
                self.out
                    .line(&format_info(&info, &self.board, self.show_wdl));
                self.bestmove(first, None);
            }
            (None, None) => self.no_legal_move(),
        }
        st.done = true;
    }

    fn print_failures(&self) {
        let failures =
            std::mem::take(&mut *self.failures.lock().unwrap_or_else(|p| p.into_inner()));
        for f in failures {
            self.out.notice(Notice::Relayed(&f));
        }
    }

    fn no_legal_move(&self) {
        let score = if self.board.in_check() {
            Score::mated_in(0)
        } else {
            Score::DRAW
        };
        self.out.line(&protocol::info_no_move(score));
        self.out.line(protocol::BESTMOVE_NONE);
    }

    fn bestmove(&self, best: Move, ponder: Option<Move>) {
        let ponder = ponder.and_then(|p| {
            let mut child = self.board.clone();
            child.play(best);
            child.legal_moves().contains(&p).then(|| child.uci(p))
        });
        self.out.line(&protocol::bestmove(
            &self.board.uci(best),
            ponder.as_deref(),
        ));
    }

    /// The `info` line for a search cut short by `stop`, a node limit or the
    /// clock after its last report: the nodes and time actually used, with
    /// the last finished iteration's score and PV (match runners read a gap
    /// between the last `info` and `bestmove` as lag). Before any iteration
    /// finished, the score is the static one after `best`.
    fn final_info(&self, result: &SearchResult, best: Move, nodes: u64) -> Info {
        let (score, pv) = if result.pv.first() == Some(&best) {
            (result.score, result.pv.clone())
        } else {
            let mut child = self.board.clone();
            child.play(best);
            (-evaluate(&child), vec![best])
        };
        Info {
            depth: result.depth.max(1),
            seldepth: result.stats.seldepth,
            multipv: 1,
            score,
            bound: Bound::Exact,
            nodes,
            time: self.main.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits(result.stats.tbhits.max(self.main.tbhits())),
            pv,
        }
    }
}

/// Everything the main search thread needs, moved into it.
pub struct SearchJob {
    pub board: Board,
    pub tt: Arc<TranspositionTable>,
    pub tables: Box<SearchTables>,
    pub control: Arc<SearchControl>,
    pub params: SearchParams,
    pub limits: Limits,
    /// Woken once the first iteration is done, so that the main thread
    /// answers `go depth 1` at once at any `Threads`.
    pub pool: Option<Arc<HelperPool>>,
    pub reporter: Arc<Reporter>,
    /// Full, or which line to play among the finished ones.
    pub strength: Strength,
}

impl SearchJob {
    /// Runs the search and prints its `bestmove`; a panic is caught and
    /// still ends in one (`Reporter::fallback`). Returns the ordering tables.
    pub fn run(self) -> Box<SearchTables> {
        let reporter = self.reporter.clone();
        match catch_unwind(AssertUnwindSafe(move || self.search())) {
            Ok(tables) => tables,
            Err(panic) => {
                let message = panic_message(&*panic);
                log::error!("the search thread panicked: {message}");
                reporter.stop_helpers();
                reporter.fallback(Some(Notice::SearchPanicked { message: &message }));
                Box::default()
            }
        }
    }

    fn search(self) -> Box<SearchTables> {
        let SearchJob {
            board,
            tt,
            tables,
            control,
            params,
            limits,
            pool,
            reporter,
            strength,
        } = self;
        // The strength's choice repeats for the same position and game length.
        let seed = board.key() ^ board.history_len() as u64;
        let helper_job = HelperJob {
            board: board.clone(),
            tt: tt.clone(),
            params: params.clone(),
            limits: Limits {
                searchmoves: limits.searchmoves.clone(),
                ..Limits::default()
            },
            control: reporter.helpers.clone(),
            failures: reporter.failures.clone(),
        };
        let mut helpers_woken = false;
        let mut searcher = Searcher::new(board, tt, tables, control.clone(), params.mode);
        let mut result = search(&mut searcher, &params, &limits, &mut |info| {
            reporter.iteration(info);
            if info.depth >= 2 && injected(Fault::MainPanic) {
                panic!("injected fault in the main search thread");
            }
            if !helpers_woken {
                helpers_woken = true;
                if let Some(pool) = &pool {
                    pool.start(&helper_job);
                }
            }
        });
        reporter.stop_helpers();
        strength.choose(&mut result, seed);
        // In infinite and ponder mode, bestmove waits for stop or ponderhit.
        while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
            std::thread::sleep(WAIT_POLL);
        }
        reporter.finish(&result);
        searcher.into_tables()
    }
}

/// How long `stop` waits for the main search thread's own `bestmove` before
/// the session prints it (well inside the 100 ms GUIs allow).
const STOP_GRACE: Duration = Duration::from_millis(20);

/// A `go` in progress.
struct Running {
    /// The search ends by itself (`Limits::is_finite`).
    finite: bool,
    control: Arc<SearchControl>,
    reporter: Arc<Reporter>,
    handle: std::thread::JoinHandle<Box<SearchTables>>,
}

/// The session's searches: the helper pool of the current `Threads`, the
/// running search, and the main thread's ordering tables between searches.
#[derive(Default)]
pub struct Searches {
    pool: Option<Arc<HelperPool>>,
    running: Option<Running>,
    /// A main thread that was answered for but may still be winding down:
    /// its tables are taken back once it has.
    stale: Option<std::thread::JoinHandle<Box<SearchTables>>>,
    tables: Option<Box<SearchTables>>,
}

/// What one `go` searches with.
pub struct SearchSetup {
    pub out: Output,
    pub board: Board,
    pub tt: Arc<TranspositionTable>,
    pub params: SearchParams,
    pub limits: Limits,
    pub show_wdl: bool,
    /// Threads in all: the main one and `threads - 1` helpers.
    pub threads: usize,
    pub strength: Strength,
}

impl Searches {
    /// The session's searches, none running yet. Lets every search thread
    /// have its own malloc arena (this must come before threads start).
    pub fn new() -> Searches {
        crate::search::threads::malloc_arenas::separate_malloc_arenas();
        Searches::default()
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts a search on a new main thread (its helpers are kept in the
    /// pool). If no thread can be started, the `bestmove` is given at once.
    pub fn start(&mut self, setup: SearchSetup) {
        self.reap();
        let helpers = setup.threads.saturating_sub(1);
        if self.pool.as_ref().map_or(0, |p| p.len()) != helpers {
            // The old helpers end when their last search does.
            self.pool = (helpers > 0).then(|| Arc::new(HelperPool::new(helpers)));
        }
        let board = setup.board.search_copy();
        let finite = setup.limits.is_finite(board.turn());
        let control = Arc::new(SearchControl::new(setup.limits.ponder));
        let reporter = Arc::new(
            Reporter::new(
                setup.out,
                board.clone(),
                &setup.limits,
                setup.show_wdl,
                setup.tt.clone(),
                control.clone(),
            )
            .with_tbhits(setup.params.syzygy.tables.is_some()),
        );
        let job = SearchJob {
            board,
            tt: setup.tt,
            tables: self.take_tables(),
            control: control.clone(),
            params: setup.params,
            limits: setup.limits,
            pool: self.pool.clone(),
            reporter: reporter.clone(),
            strength: setup.strength,
        };
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(crate::search::threads::SEARCH_STACK_BYTES)
            .spawn(move || job.run());
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    finite,
                    control,
                    reporter,
                    handle,
                })
            }
            Err(e) => reporter.fallback(Some(Notice::ThreadNotStarted {
                what: "search",
                error: &e.to_string(),
            })),
        }
    }

    /// The main thread's tables: kept from the last search if it has
    /// ended, fresh ones otherwise.
    fn take_tables(&mut self) -> Box<SearchTables> {
        if self.stale.as_ref().is_some_and(|h| h.is_finished())
            && let Some(h) = self.stale.take()
            && let Ok(tables) = h.join()
        {
            self.tables = Some(tables);
        }
        self.tables.take().unwrap_or_default()
    }

    /// Stops the running search and makes sure its `bestmove` is out: the
    /// main thread's own if it comes within `STOP_GRACE`, else the session's.
    pub fn stop(&mut self) {
        let Some(r) = self.running.take() else {
            return;
        };
        r.control.stop();
        r.reporter.stop_helpers();
        let deadline = std::time::Instant::now() + STOP_GRACE;
        while !r.reporter.is_done() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
        if !r.reporter.is_done() {
            log::info!("the search thread is slow to stop: answering for it");
            r.reporter.fallback(None);
        }
        self.keep(r.handle);
    }

    /// Waits for a running search that ends by itself (depth, nodes, mate,
    /// time) to end, its `bestmove` out; one that waits for `stop` or
    /// `ponderhit` is left running.
    pub fn wait_for_finite(&mut self) {
        if let Some(r) = self.running.take_if(|r| r.finite)
            && let Ok(tables) = r.handle.join()
        {
            self.tables = Some(tables);
        }
    }

    /// `quit`: stops the running search without waiting for its main
    /// thread. Its `bestmove` is printed at once (the last finished
    /// iteration's, as after a late `stop`) unless it is already out, and no
    /// thread is joined: the process can end while the searching threads
    /// (hundreds at `Threads 256`, taking turns on the cores) are still
    /// winding down.
    pub fn abandon(&mut self) {
        let Some(r) = self.running.take() else {
            return;
        };
        r.control.stop();
        r.reporter.stop_helpers();
        r.reporter.fallback(None);
    }

    /// Collects a search that has printed its `bestmove`, so that the next
    /// `go` can start at once.
    pub fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.reporter.is_done())
            && let Some(r) = self.running.take()
        {
            self.keep(r.handle);
        }
    }

    fn keep(&mut self, handle: std::thread::JoinHandle<Box<SearchTables>>) {
        if handle.is_finished() {
            if let Ok(tables) = handle.join() {
                self.tables = Some(tables);
            }
        } else {
            // An older one still winding down is let go with its tables.
            self.stale = Some(handle);
        }
    }

    /// `ponderhit`: false when no search is pondering.
    pub fn ponderhit(&self) -> bool {
        match &self.running {
            Some(r) if r.control.is_pondering() => {
                r.control.ponderhit();
                true
            }
            _ => false,
        }
    }

    /// A new game: every thread's ordering tables start empty.
    pub fn clear_tables(&mut self) {
        self.stale = None;
        self.tables = Some(Box::default());
        if let Some(pool) = &self.pool {
            pool.clear_tables();
        }
    }
}
