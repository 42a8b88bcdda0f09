//! The UCI session: the game position, the options, the transposition
//! table, the searches and the long commands. It turns each parsed command
//! into an action on that state. The threads are not its business:
//! `search_job` runs the searches and `background` the long commands
//! (`go perft`, `bench`), so the input loop keeps answering while they run;
//! and the text of every line it writes is `uci::protocol`'s (its `info
//! string` messages `uci::notice`'s: it only picks the `Notice`).

use crate::board::Board;
use crate::eval::evaluate;
use crate::known::KnownBase;
use crate::known::syzygy::SyzygyConfig;
use crate::nnue::{Network, NetworkEvaluator};
use crate::score::Depth;
use crate::search::driver::MAX_DEPTH;
use crate::search::limits::Clock;
use crate::search::static_eval::network_evaluate;
use crate::search::{Evaluation, Limits, PvLength, SearchMode, SearchParams};
use crate::session::background::{Background, Long};
use crate::session::search_job::{SearchSetup, Searches};
use crate::tt::TranspositionTable;
use crate::uci::options::{BOOK_FILE_NONE, EVAL_FILE_BUILT_IN, OptionEffect};
use crate::uci::{Command, GoParams, Notice, Options, Output, PositionStart, parse, protocol};
use std::sync::Arc;
use std::time::Duration;

/// Whether the input loop goes on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    out: Output,
    board: Board,
    /// The `position` command the board came from, with the moves it took:
    /// read again when `UCI_Chess960` changes, so that castling is written
    /// the new way in the very position the GUI set.
    position: (PositionStart, Vec<String>),
    options: Options,
    tt: Arc<TranspositionTable>,
    /// `Hash` changed: resize when no search runs (at `isready` or `go`).
    resize_pending: bool,
    /// The network `EvalFile` chose.
    network: Arc<Network>,
    /// The search threads and the running search.
    searches: Searches,
    /// A `go perft` or `bench` on its worker thread.
    background: Long,
    /// The tablebases and the opening book.
    known: KnownBase,
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
            position: (PositionStart::StartPos, Vec::new()),
            options,
            tt: Arc::new(tt),
            resize_pending: false,
            network: Network::embedded(),
            searches: Searches::new(),
            background: Long::default(),
            known: KnownBase::default(),
            debug: false,
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        log::debug!("< {}", line.trim_end());
        match parse(line) {
            Ok(cmd) => self.handle(cmd),
            Err(message) => {
                self.out.notice(Notice::Relayed(&message));
                Flow::Continue
            }
        }
    }

    pub fn handle(&mut self, cmd: Command) -> Flow {
        self.searches.reap();
        self.background.reap(&self.out);
        match cmd {
            Command::Empty | Command::Register => {}
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                if !self.searches.is_running() {
                    self.apply_pending_resize();
                }
                self.out.line(protocol::READYOK);
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.stop_background();
                self.searches.stop();
                self.apply_pending_resize();
                self.tt.clear();
                self.searches.clear_tables();
                self.known.new_game();
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => {
                self.stop_background();
                self.searches.stop();
            }
            Command::PonderHit => {
                if !self.searches.ponderhit() {
                    self.out.notice(Notice::PonderhitIgnored);
                }
            }
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Genfens(request) => self.genfens(&request),
            Command::Display => self.display(),
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
                self.out.notice(Notice::StaticEvaluation {
                    used,
                    network,
                    classical,
                });
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

    /// `quit`: stop and leave at once, not waiting for the search threads
    /// to wind down (the process ends them).
    pub fn quit(&mut self) {
        self.stop_background();
        self.searches.abandon();
    }

    /// The end of input: stop and leave.
    pub fn shutdown(&mut self) {
        self.stop_background();
        self.searches.stop();
    }

    fn uci(&mut self) {
        for line in protocol::uci_reply(crate::search::tunables::spsa::uci_options()) {
            self.out.line(&line);
        }
    }

    /// Reads the network `EvalFile` names; keeps the one in use (and the
    /// option's `previous` value) when the file cannot be read or is not a
    /// network of this build's shape. Searches started later use it.
    fn load_network(&mut self, previous: String) {
        let file = &self.options.eval_file;
        if file == EVAL_FILE_BUILT_IN {
            self.network = Network::embedded();
            self.out.notice(Notice::EvalFileBuiltIn);
            return;
        }
        match Network::load(file) {
            Ok(network) => {
                self.out.notice(Notice::EvalFileRead { file });
                self.network = Arc::new(network);
            }
            Err(message) => {
                self.out.notice(Notice::EvalFileNotChanged {
                    error: &message,
                    previous: &previous,
                });
                self.options.eval_file = previous;
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(OptionEffect::None) => {}
            Ok(OptionEffect::ResizeHash) => self.resize_pending = true,
            Ok(OptionEffect::ClearHash) => {
                if self.searches.is_running() {
                    self.out.notice(Notice::ClearHashIgnored);
                } else {
                    self.tt.clear();
                }
            }
            Ok(OptionEffect::LoadNetwork { previous }) => self.load_network(previous),
            Ok(OptionEffect::RereadPosition) => {
                let (start, moves) = self.position.clone();
                self.set_position(start, &moves);
            }
            Ok(OptionEffect::LoadTablebases) => {
                for line in self.known.load_tables(&self.options.syzygy_path) {
                    self.out.notice(Notice::Relayed(&line));
                }
            }
            Ok(OptionEffect::LoadBook) => {
                let file = &self.options.book_file;
                let file = (file != BOOK_FILE_NONE).then_some(file.as_str());
                let message = self.known.load_book(file);
                self.out.notice(Notice::Relayed(&message));
            }
            Err(message) => self.out.notice(Notice::Relayed(&message)),
        }
        if self.debug {
            self.out.notice(Notice::OptionsNow {
                options: &self.options,
            });
        }
    }

    fn apply_pending_resize(&mut self) {
        if !self.resize_pending || self.searches.is_running() {
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
                const FALLBACK_MB: usize = 16;
                self.out.notice(Notice::HashFallback {
                    error: &message,
                    mb: FALLBACK_MB,
                });
                self.options.hash_mb = FALLBACK_MB;
                self.tt = Arc::new(TranspositionTable::new(FALLBACK_MB).expect("16 MB"));
            }
        }
    }

    fn set_position(&mut self, start: PositionStart, moves: &[String]) {
        let base = match &start {
            // In Chess960 mode the standard start position is one of the 960:
            // castling is written king-takes-rook (e1h1) there too.
            PositionStart::StartPos => Ok(Board::new(
                shakmaty::Chess::default(),
                shakmaty::CastlingMode::from_chess960(self.options.chess960),
            )),
            PositionStart::Fen(fen) => Board::from_fen_960(fen, self.options.chess960),
        };
        let mut board = match base {
            Ok(b) => b,
            Err(message) => {
                self.out
                    .notice(Notice::PositionUnchanged { error: &message });
                return;
            }
        };
        let mut applied = moves.len();
        for (i, text) in moves.iter().enumerate() {
            if let Err(message) = board.play_uci(text) {
                self.out.notice(Notice::MoveRefused {
                    error: &message,
                    applied: i,
                });
                applied = i;
                break;
            }
        }
        self.board = board;
        self.position = (start, moves[..applied].to_vec());
    }

    fn limits_from(&self, go: &GoParams) -> Limits {
        for w in &go.warnings {
            self.out.notice(Notice::Relayed(w));
        }
        let ms = |v: Option<u64>| v.map(Duration::from_millis);
        let depth = go.depth.map(|d| {
            if d < 1 {
                self.out.notice(Notice::DepthBelowOne { depth: d });
            }
            d.clamp(1, MAX_DEPTH as i64) as Depth
        });
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match self.board.parse_uci(text) {
                Ok(m) => searchmoves.push(m),
                Err(message) => self
                    .out
                    .notice(Notice::SearchmoveIgnored { error: &message }),
            }
        }
        Limits {
            depth,
            nodes: go.nodes.map(|n| n.max(1)),
            soft_nodes: None,
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

    /// `d`: the board as Stockfish draws it, then the side to move, the
    /// FEN, the key and the pieces giving check, as `info string` lines.
    fn display(&self) {
        use shakmaty::Position;
        let pos = self.board.pos();
        self.out.notice(Notice::Diagram { pos });
        self.out.notice(Notice::SideToMove { side: pos.turn() });
        self.out.notice(Notice::Fen {
            fen: &self.board.fen(),
        });
        self.out.notice(Notice::Key {
            key: self.board.key(),
        });
        self.out.notice(Notice::Checkers {
            checkers: pos.checkers(),
        });
    }

    fn go(&mut self, go: GoParams) {
        if self.searches.is_running() {
            self.out.notice(Notice::GoIgnored);
            return;
        }
        if let Some(what) = self.background.what() {
            // Every go gets its bestmove: the GUI's search comes first.
            self.out.notice(Notice::StoppedForGo { what });
            self.background.stop(&self.out);
        }
        self.apply_pending_resize();
        let mut limits = self.limits_from(&go);
        if self.play_from_book(&limits) {
            return;
        }
        let mut params = SearchParams {
            algorithm: self.options.algorithm,
            mode: self.search_mode(),
            evaluation: self.options.evaluation,
            network: self.network.clone(),
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
            mt_grain: self.options.mt_grain,
            syzygy: SyzygyConfig {
                tables: self.known.tables(),
                probe_depth: self.options.syzygy_probe_depth,
                probe_limit: self.options.syzygy_probe_limit,
                fifty_move_rule: self.options.syzygy_fifty_move_rule,
            },
            pv_length: PvLength::Full,
        };
        self.out.notice(Notice::Algorithm {
            algorithm: params.algorithm,
        });
        let strength = self.options.strength();
        strength.restrict(&mut params, &mut limits);
        self.searches.start(SearchSetup {
            out: self.out.clone(),
            // The reversible tail only: a 12,000-ply history is not copied.
            board: self.board.search_copy(),
            tt: self.tt.clone(),
            params,
            limits,
            show_wdl: self.options.show_wdl,
            threads: self.options.threads,
            strength,
        });
    }

    /// With `OwnBook` on, plays the book's move without a search (not for
    /// `infinite`, `ponder` or `searchmoves`, which expect one). True when
    /// the `bestmove` is out.
    fn play_from_book(&mut self, limits: &Limits) -> bool {
        if !self.options.own_book
            || limits.infinite
            || limits.ponder
            || !limits.searchmoves.is_empty()
        {
            return false;
        }
        let Some(choice) = self.known.book_move(&self.board, self.options.book_pick) else {
            return false;
        };
        let mv = self.board.uci(choice.mv);
        self.out.notice(Notice::BookMove {
            mv: &mv,
            weight: choice.weight,
        });
        self.out.line(&protocol::bestmove(&mv, None));
        true
    }

    /// Waits for a running `go perft` or `bench` to end by itself (commands
    /// given as arguments run to the end before the next one).
    pub fn finish_background(&mut self) {
        self.background.join(&self.out);
    }

    /// Waits for a search with a limit of its own (`go depth`, `nodes`,
    /// `movetime`, `mate`, clocks) to print its `bestmove`: the commands of
    /// the command line run one after the other, and the implied `quit`
    /// would otherwise cut it short. `go infinite` and `go ponder` run on.
    pub fn wait_for_finite_search(&mut self) {
        self.searches.wait_for_finite();
    }

    /// Stops a running `go perft` or `bench` and waits for its thread.
    fn stop_background(&mut self) {
        self.background.stop(&self.out);
    }

    /// Refuses a long command while a search or another one runs (one that
    /// is just ending, its last line out, is waited for).
    fn busy(&mut self, what: &str) -> bool {
        let long = self.background.running(&self.out);
        let busy = if self.searches.is_running() {
            Some("a search")
        } else {
            long
        };
        if let Some(other) = busy {
            self.out.notice(Notice::Busy { what, other });
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
            self.out.notice(Notice::PerftDepthOutside { depth, max });
            return;
        }
        let started = Background::perft(
            self.out.clone(),
            self.board.pos().clone(),
            depth,
            self.board.castling_mode(),
        );
        self.background.start(started, &self.out);
    }

    /// `genfens ...` in the input loop (a few milliseconds a position), so
    /// that a `quit` after it on OpenBench's command line waits for it.
    fn genfens(&mut self, request: &crate::genfens::GenfensRequest) {
        if self.busy("genfens") {
            return;
        }
        let out = &self.out;
        let made = crate::genfens::generate(request, |fen| {
            out.line(&protocol::genfens(fen));
        });
        if let Err(e) = made {
            out.notice(Notice::GenfensError { error: &e });
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
                self.out.notice(Notice::BenchDepthOutside {
                    depth: d,
                    max: MAX_DEPTH.into(),
                });
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
        self.background.start(started, &self.out);
    }
}
