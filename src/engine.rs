//! The UCI session: the game position, the options, the transposition table
//! and the search thread. It turns parsed commands into actions, keeps the
//! input loop answering while a search runs, and prints `bestmove` exactly
//! once per `go`.

use crate::background::Background;
use crate::board::Board;
use crate::eval::evaluate;
use crate::nnue::{Network, NetworkEvaluator};
use crate::score::{Depth, Score};
use crate::search::driver::MAX_DEPTH;
use crate::search::limits::Clock;
use crate::search::static_eval::network_evaluate;
use crate::search::{
    Evaluation, Limits, SearchControl, SearchMode, SearchParams, SearchTables, Searcher, search,
};
use crate::search::{Info, SearchResult};
use crate::tt::{Bound, TranspositionTable};
use crate::uci::options::{DECLARATIONS, EVAL_FILE_BUILT_IN, OptionEffect};
use crate::uci::output::format_info;
use crate::uci::{Command, GoParams, Options, Output, PositionStart, parse};
use shakmaty::Move;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack for the search thread: deep recursion with move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 << 20;
/// How often a finished infinite or ponder search looks for `stop`/`ponderhit`.
const WAIT_POLL: Duration = Duration::from_millis(1);

/// Whether the input loop goes on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

struct RunningSearch {
    control: Arc<SearchControl>,
    handle: JoinHandle<Box<SearchTables>>,
}

pub struct Engine {
    out: Output,
    board: Board,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// `Hash` changed: resize when no search runs (at `isready` or `go`).
    resize_pending: bool,
    tables: Option<Box<SearchTables>>,
    /// The network `EvalFile` chose.
    network: Arc<Network>,
    running: Option<RunningSearch>,
    /// A `go perft` or `bench` on its worker thread.
    background: Option<Background>,
    debug: bool,
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        let tt =
            TranspositionTable::new(options.hash_mb).expect("the default hash size fits in memory");
        Engine {
            out,
            board: Board::default(),
            options,
            tt: Arc::new(tt),
            resize_pending: false,
            tables: Some(Box::default()),
            network: Network::embedded(),
            running: None,
            background: None,
            debug: false,
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::debug!("< {}", line.trim_end());
        match parse(line) {
            Ok(cmd) => self.handle(cmd),
            Err(message) => {
                self.out.info_string(&message);
                Flow::Continue
            }
        }
    }

    pub fn handle(&mut self, cmd: Command) -> Flow {
        self.reap_finished_search();
        self.reap_finished_background();
        match cmd {
            Command::Empty | Command::Register => {}
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                if self.running.is_none() {
                    self.apply_pending_resize();
                }
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.stop_background();
                self.stop_search();
                self.apply_pending_resize();
                self.tt.clear();
                if let Some(t) = self.tables.as_mut() {
                    t.clear();
                }
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => {
                self.stop_background();
                self.stop_search();
            }
            Command::PonderHit => match &self.running {
                Some(r) if r.control.is_pondering() => r.control.ponderhit(),
                _ => self.out.info_string("ponderhit ignored: not pondering"),
            },
            Command::Quit => {
                self.stop_background();
                self.stop_search();
                return Flow::Quit;
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Display => {
                self.out.info_string(&format!("fen {}", self.board.fen()));
                self.out
                    .info_string(&format!("key {:016x}", self.board.key()));
            }
            Command::Eval => {
                // Leads with the one the search would use.
                let classical = evaluate(&self.board);
                let network = network_evaluate(
                    &mut NetworkEvaluator::new(self.network.clone()),
                    &self.board,
                    0,
                );
                let used = match self.options.evaluation.in_mode(self.search_mode()) {
                    Evaluation::Network => network,
                    Evaluation::Classical => classical,
                };
                self.out.info_string(&format!(
                    "static evaluation {used} (side to move; network {network}, classical {classical})"
                ));
            }
        }
        Flow::Continue
    }

    /// The mode the `Pure` option asks for.
    fn search_mode(&self) -> SearchMode {
        if self.options.pure {
            SearchMode::Pure
        } else {
            SearchMode::Normal
        }
    }

    /// The end of input: stop and leave.
    pub fn shutdown(&mut self) {
        self.stop_background();
        self.stop_search();
    }

    fn uci(&mut self) {
        self.out
            .line(&format!("id name Stockman {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Stockman developers");
        for d in DECLARATIONS {
            self.out.line(&d.declaration());
        }
        self.out.line("uciok");
    }

    /// Reads the network `EvalFile` names; keeps the one in use (and the
    /// option's `previous` value) when the file cannot be read or is not a
    /// network of this build's shape. Searches started later use it.
    fn load_network(&mut self, previous: String) {
        let file = &self.options.eval_file;
        if file == EVAL_FILE_BUILT_IN {
            self.network = Network::embedded();
            self.out.info_string("EvalFile: the built-in network");
            return;
        }
        match Network::load(file) {
            Ok(network) => {
                self.out
                    .info_string(&format!("EvalFile: network read from {file}"));
                self.network = Arc::new(network);
            }
            Err(message) => {
                self.out.info_string(&format!(
                    "EvalFile not changed ({message}); still {previous}"
                ));
                self.options.eval_file = previous;
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(OptionEffect::None) => {}
            Ok(OptionEffect::ResizeHash) => self.resize_pending = true,
            Ok(OptionEffect::ClearHash) => {
                if self.running.is_some() {
                    self.out.info_string("Clear Hash ignored while searching");
                } else {
                    self.tt.clear();
                }
            }
            Ok(OptionEffect::LoadNetwork { previous }) => self.load_network(previous),
            Err(message) => self.out.info_string(&message),
        }
        if self.debug {
            self.out
                .info_string(&format!("options now {:?}", self.options));
        }
    }

    fn apply_pending_resize(&mut self) {
        if !self.resize_pending || self.running.is_some() {
            return;
        }
        self.resize_pending = false;
        if self.tt.size_mb() == self.options.hash_mb {
            return;
        }
        // Free the old table first, so old and new never both occupy memory.
        self.tt = Arc::new(TranspositionTable::new(1).expect("1 MB"));
        match TranspositionTable::new(self.options.hash_mb) {
            Ok(tt) => self.tt = Arc::new(tt),
            Err(message) => {
                self.out.info_string(&format!("{message}; using 16 MB"));
                self.options.hash_mb = 16;
                self.tt = Arc::new(TranspositionTable::new(16).expect("16 MB"));
            }
        }
    }

    fn set_position(&mut self, start: PositionStart, moves: &[String]) {
        let base = match start {
            // In Chess960 mode the standard start position is one of the 960:
            // castling is written king-takes-rook (e1h1) there too.
            PositionStart::StartPos => Ok(Board::new(
                shakmaty::Chess::default(),
                shakmaty::CastlingMode::from_chess960(self.options.chess960),
            )),
            PositionStart::Fen(fen) => Board::from_fen_960(&fen, self.options.chess960),
        };
        let mut board = match base {
            Ok(b) => b,
            Err(message) => {
                self.out
                    .info_string(&format!("{message}; position unchanged"));
                return;
            }
        };
        for (i, text) in moves.iter().enumerate() {
            if let Err(message) = board.play_uci(text) {
                self.out.info_string(&format!(
                    "{message} at move {} of the list; using the position before it ({} moves applied)",
                    i + 1,
                    i
                ));
                break;
            }
        }
        self.board = board;
    }

    fn limits_from(&self, go: &GoParams) -> Limits {
        for w in &go.warnings {
            self.out.info_string(w);
        }
        let ms = |v: Option<u64>| v.map(Duration::from_millis);
        let depth = go.depth.map(|d| {
            if d < 1 {
                self.out
                    .info_string(&format!("depth {d} is below 1; searching depth 1"));
            }
            d.clamp(1, MAX_DEPTH as i64) as Depth
        });
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match self.board.parse_uci(text) {
                Ok(m) => searchmoves.push(m),
                Err(message) => self
                    .out
                    .info_string(&format!("searchmoves: {message}; ignored")),
            }
        }
        Limits {
            depth,
            nodes: go.nodes.map(|n| n.max(1)),
            mate: go.mate,
            movetime: ms(go.movetime),
            clock: Clock {
                wtime: ms(go.wtime),
                btime: ms(go.btime),
                winc: ms(go.winc),
                binc: ms(go.binc),
                movestogo: go.movestogo,
            },
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        }
    }

    fn go(&mut self, go: GoParams) {
        if self.running.is_some() {
            self.out
                .info_string("go ignored: a search is already running (send stop first)");
            return;
        }
        if let Some(b) = self.background.take() {
            // Every go gets its bestmove: the GUI's search comes first.
            self.out
                .info_string(&format!("{} stopped: a search was asked for", b.what()));
            b.stop(&self.out);
        }
        self.apply_pending_resize();
        let limits = self.limits_from(&go);
        let params = SearchParams {
            algorithm: self.options.algorithm,
            mode: self.search_mode(),
            evaluation: self.options.evaluation,
            network: self.network.clone(),
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
        };
        let control = Arc::new(SearchControl::new(limits.ponder));
        let job = SearchJob {
            board: self.board.clone(),
            tt: self.tt.clone(),
            tables: self.tables.take().unwrap_or_default(),
            control: control.clone(),
            out: self.out.clone(),
            params,
            limits,
            show_wdl: self.options.show_wdl,
            threads: self.options.threads,
        };
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || job.run());
        match spawned {
            Ok(handle) => self.running = Some(RunningSearch { control, handle }),
            Err(e) => {
                self.out
                    .info_string(&format!("cannot start the search thread: {e}"));
                self.out.line("bestmove (none)");
            }
        }
    }

    /// Stops a running search and waits until it has printed `bestmove`.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            self.join(r);
        }
    }

    fn join(&mut self, r: RunningSearch) {
        match r.handle.join() {
            Ok(tables) => self.tables = Some(tables),
            Err(_) => {
                log::error!("the search thread panicked");
                self.out
                    .info_string("internal error in the search; tables reset");
                self.tables = Some(Box::default());
            }
        }
    }

    /// Collects a search that has printed its `bestmove` (its thread is at
    /// most returning), so that the next `go` can start at once.
    fn reap_finished_search(&mut self) {
        let done = |r: &RunningSearch| r.control.is_reported() || r.handle.is_finished();
        if self.running.as_ref().is_some_and(done)
            && let Some(r) = self.running.take()
        {
            self.join(r);
        }
    }

    /// Stops a running `go perft` or `bench` and waits for its thread.
    fn stop_background(&mut self) {
        if let Some(b) = self.background.take() {
            b.stop(&self.out);
        }
    }

    fn reap_finished_background(&mut self) {
        if self
            .background
            .as_ref()
            .is_some_and(Background::is_finished)
            && let Some(b) = self.background.take()
        {
            b.join(&self.out);
        }
    }

    /// Refuses a long command while a search or another one runs.
    fn busy(&self, what: &str) -> bool {
        let busy = match (&self.running, &self.background) {
            (Some(_), _) => Some("a search"),
            (None, Some(b)) => Some(b.what()),
            (None, None) => None,
        };
        if let Some(other) = busy {
            self.out.info_string(&format!(
                "{what} ignored: {other} is running (send stop first)"
            ));
        }
        busy.is_some()
    }

    /// `go perft N` on a worker thread (Stockfish's format); `stop` ends it.
    fn perft(&mut self, depth: u32) {
        if self.busy("perft") {
            return;
        }
        let max = crate::perft::MAX_DEPTH;
        if !(1..=max).contains(&depth) {
            self.out
                .info_string(&format!("perft: depth {depth} is outside 1..={max}"));
            return;
        }
        let started = Background::perft(
            self.out.clone(),
            self.board.pos().clone(),
            depth,
            self.board.castling_mode(),
        );
        match started {
            Ok(b) => self.background = Some(b),
            Err(message) => self.out.info_string(&message),
        }
    }

    /// `bench [depth]`, the same run as `stockman bench` with the session's
    /// algorithm and mode, on a worker thread; its lines go out as `info string`.
    fn bench(&mut self, depth: Option<i64>) {
        if self.busy("bench") {
            return;
        }
        let depth = match depth {
            None => crate::bench::DEFAULT_DEPTH,
            Some(d) if (1..=MAX_DEPTH as i64).contains(&d) => d as Depth,
            Some(d) => {
                self.out
                    .info_string(&format!("bench: depth {d} is outside 1..{MAX_DEPTH}"));
                return;
            }
        };
        let started = Background::bench(
            self.out.clone(),
            depth,
            self.options.algorithm,
            self.search_mode(),
            self.options.evaluation,
        );
        match started {
            Ok(b) => self.background = Some(b),
            Err(message) => self.out.info_string(&message),
        }
    }
}

/// The `info` line for a search cut short by `stop`, a node limit or the
/// clock after its last report: the nodes and time actually used, with the
/// last finished iteration's score and PV (match runners read a gap between
/// the last `info` and `bestmove` as lag). Before any iteration finished, the
/// score is the static one after `best`.
fn final_info(
    result: &SearchResult,
    best: Move,
    board: &Board,
    tt: &TranspositionTable,
    elapsed: Duration,
) -> Info {
    let (score, pv) = if result.pv.first() == Some(&best) {
        (result.score, result.pv.clone())
    } else {
        let mut child = board.clone();
        child.play(best);
        (-evaluate(&child), vec![best])
    };
    Info {
        depth: result.depth.max(1),
        seldepth: result.stats.seldepth,
        multipv: 1,
        score,
        bound: Bound::Exact,
        nodes: result.stats.nodes,
        time: elapsed,
        hashfull: tt.hashfull(),
        pv,
    }
}

/// Everything a search thread needs, moved into it.
struct SearchJob {
    board: Board,
    tt: Arc<TranspositionTable>,
    tables: Box<SearchTables>,
    control: Arc<SearchControl>,
    out: Output,
    params: SearchParams,
    limits: Limits,
    show_wdl: bool,
    /// Search threads in all (Lazy SMP): the main one and `threads - 1` helpers.
    threads: usize,
}

impl SearchJob {
    fn run(self) -> Box<SearchTables> {
        let SearchJob {
            board,
            tt,
            tables,
            control,
            out,
            params,
            limits,
            show_wdl,
            threads,
        } = self;
        out.info_string(&format!("algorithm {}", params.algorithm));
        // The node count of the last `info` printed (None: nothing yet).
        let mut reported_nodes: Option<u64> = None;
        let (result, tables) = std::thread::scope(|scope| {
            // Lazy SMP: helpers search the same position without limits or
            // reports, sharing only the TT; they stop when the main search ends.
            let helpers_control = Arc::new(SearchControl::new(false));
            let helper_limits = Limits {
                searchmoves: limits.searchmoves.clone(),
                ..Limits::default()
            };
            for _ in 1..threads {
                let (board, tt, control) = (board.clone(), tt.clone(), helpers_control.clone());
                let (params, helper_limits) = (params.clone(), helper_limits.clone());
                let spawned = std::thread::Builder::new()
                    .name("search helper".into())
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut helper =
                            Searcher::new(board, tt, Box::default(), control, params.mode);
                        search(&mut helper, &params, &helper_limits, &mut |_| {});
                    });
                if let Err(e) = spawned {
                    log::warn!("cannot start a helper thread: {e}");
                    break;
                }
            }
            let mut searcher = Searcher::new(
                board.clone(),
                tt.clone(),
                tables,
                control.clone(),
                params.mode,
            );
            let result = search(&mut searcher, &params, &limits, &mut |info| {
                reported_nodes = Some(info.nodes);
                out.line(&format_info(info, &board, show_wdl));
            });
            helpers_control.stop();
            (result, searcher.into_tables())
        });

        // In infinite and ponder mode, bestmove waits for stop or ponderhit.
        while !control.is_stopped() && (limits.infinite || control.is_pondering()) {
            std::thread::sleep(WAIT_POLL);
        }
        control.mark_reported();
        match result.best_move {
            None => {
                let score = if board.in_check() {
                    Score::mated_in(0)
                } else {
                    Score::DRAW
                };
                out.line(&format!("info depth 0 score {score}"));
                out.line("bestmove (none)");
            }
            Some(best) => {
                if reported_nodes != Some(result.stats.nodes) {
                    let info = final_info(&result, best, &board, &tt, control.elapsed());
                    out.line(&format_info(&info, &board, show_wdl));
                }
                let mut line = format!("bestmove {}", board.uci(best));
                if let Some(p) = result.ponder_move {
                    let mut child = board.clone();
                    child.play(best);
                    line += &format!(" ponder {}", child.uci(p));
                }
                out.line(&line);
            }
        }
        tables
    }
}
