//! The long UCI-side commands, `go perft` and `bench`, on a worker thread:
//! the input loop keeps answering `isready` at once, and `stop`, `quit` or a
//! `go` end them. Their lines go out through the session's `Output`, their
//! text from `uci::protocol` (and `uci::notice` for their `info string`
//! messages). `Long` is the session's one slot for them: it starts, stops
//! and joins the worker.

use crate::bench::run_bench_until;
use crate::score::Depth;
use crate::search::{Algorithm, Evaluation, SearchControl, SearchMode};
use crate::uci::protocol;
use crate::uci::{Notice, Output};
use shakmaty::{CastlingMode, Chess};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack for the worker: the bench searches recurse as deep as a `go`.
const STACK_BYTES: usize = 64 << 20;

/// How long a new `go perft` or `bench` waits for the previous one's thread
/// to end after its last line (it ends within microseconds; a command still
/// counting is refused after this).
const GRACE: Duration = Duration::from_millis(100);

/// The session's long command, if one runs: at most one at a time.
#[derive(Default)]
pub struct Long {
    running: Option<Background>,
}

impl Long {
    /// Runs `started` (the slot is free: see `running`), or says why it
    /// could not start.
    pub fn start(&mut self, started: Result<Background, NotStarted>, out: &Output) {
        match started {
            Ok(b) => self.running = Some(b),
            Err(NotStarted { what, error }) => out.notice(Notice::ThreadNotStarted {
                what,
                error: &error.to_string(),
            }),
        }
    }

    /// What runs, if anything; one that is just ending, its last line out,
    /// is waited for first (a client may answer that line at once: `go
    /// perft` after `Nodes searched`).
    pub fn running(&mut self, out: &Output) -> Option<&'static str> {
        if self
            .running
            .as_ref()
            .is_some_and(|b| b.finishes_within(GRACE))
        {
            self.join(out);
        }
        self.running.as_ref().map(Background::what)
    }

    /// What runs, if anything, not waiting.
    pub fn what(&self) -> Option<&'static str> {
        self.running.as_ref().map(Background::what)
    }

    /// Collects a command that has ended by itself.
    pub fn reap(&mut self, out: &Output) {
        if self.running.as_ref().is_some_and(Background::is_finished) {
            self.join(out);
        }
    }

    /// Waits for the command to end by itself.
    pub fn join(&mut self, out: &Output) {
        if let Some(b) = self.running.take() {
            b.join(out);
        }
    }

    /// Stops the command and waits for its thread.
    pub fn stop(&mut self, out: &Output) {
        if let Some(b) = self.running.take() {
            b.stop(out);
        }
    }
}

/// A worker thread the system would not start.
pub struct NotStarted {
    what: &'static str,
    error: std::io::Error,
}

/// A command running on its worker thread.
pub struct Background {
    what: &'static str,
    control: Arc<SearchControl>,
    handle: JoinHandle<()>,
}

impl Background {
    /// Counts `go perft depth` (per root move, Stockfish's format).
    pub fn perft(
        out: Output,
        pos: Chess,
        depth: u32,
        castling: CastlingMode,
    ) -> Result<Background, NotStarted> {
        Background::spawn("perft", move |control| {
            let started = Instant::now();
            let stopped = || control.is_stopped();
            match crate::perft::divide_until(&pos, depth, &stopped) {
                None => out.notice(Notice::PerftStopped),
                Some(counts) => {
                    // The time goes first: `Nodes searched` is the last line,
                    // and a client may answer it at once (an `isready` must
                    // not overtake a line still to come).
                    let total =
                        if depth == 0 { 1 } else { 0 } + counts.iter().map(|(_, n)| n).sum::<u64>();
                    let ms = started.elapsed().as_millis().max(1);
                    let nps = u128::from(total) * 1000 / ms;
                    out.notice(Notice::PerftTime { ms, nps });
                    for (m, n) in &counts {
                        out.line(&protocol::perft_move(&m.to_uci(castling).to_string(), *n));
                    }
                    out.line("");
                    out.line(&protocol::perft_total(total));
                }
            }
        })
    }

    /// Runs `bench depth`; its lines go out as `info string`.
    pub fn bench(
        out: Output,
        depth: Depth,
        algorithm: Algorithm,
        mode: SearchMode,
        evaluation: Evaluation,
    ) -> Result<Background, NotStarted> {
        Background::spawn("bench", move |control| {
            let mut buffer = LineSink {
                out: out.clone(),
                pending: Vec::new(),
            };
            if let Err(e) =
                run_bench_until(depth, algorithm, mode, evaluation, &mut buffer, &control)
            {
                out.notice(Notice::BenchFailed {
                    error: &e.to_string(),
                });
            }
        })
    }

    fn spawn(
        what: &'static str,
        job: impl FnOnce(Arc<SearchControl>) + Send + 'static,
    ) -> Result<Background, NotStarted> {
        let control = Arc::new(SearchControl::default());
        let job_control = control.clone();
        let handle = std::thread::Builder::new()
            .name(what.into())
            .stack_size(STACK_BYTES)
            .spawn(move || job(job_control))
            .map_err(|error| NotStarted { what, error })?;
        Ok(Background {
            what,
            control,
            handle,
        })
    }

    /// What runs: `perft` or `bench`.
    fn what(&self) -> &'static str {
        self.what
    }

    fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Has the command finished, or does it within `grace`? A command has
    /// written its last line a moment before its thread ends, and a client
    /// may answer that line at once (`go perft` after `Nodes searched`).
    fn finishes_within(&self, grace: Duration) -> bool {
        let deadline = Instant::now() + grace;
        while !self.is_finished() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    /// Stops the command and waits for its thread (a stopped count or
    /// search returns within a few thousand nodes).
    fn stop(self, out: &Output) {
        self.control.stop();
        self.join(out);
    }

    /// Waits for a finished (or stopped) command.
    fn join(self, out: &Output) {
        if self.handle.join().is_err() {
            out.notice(Notice::InternalError { what: self.what });
        }
    }
}

/// Sends each whole line written to it out as one `info string`, blanks
/// squeezed (bench pads its columns).
struct LineSink {
    out: Output,
    pending: Vec<u8>,
}

impl std::io::Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(at) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=at).collect();
            let text = String::from_utf8_lossy(&line);
            let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            self.out.notice(Notice::Relayed(&squeezed));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
