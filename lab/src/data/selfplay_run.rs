//! The games of a self-play run: `threads` workers each take the next game
//! number as soon as they are free, and this thread writes the games in
//! game order as they come in, writes a checkpoint every so often, stops
//! handing out games at the time limit and shows the progress.

use crate::data::checkpoint::Checkpoint;
use crate::data::datagen::{GameRecord, SelfPlay, SelfPlayer};
use crate::data::game_sink::Sink;
use crate::data::tallies::Totals;
use crate::progress::{Progress, human_duration};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};
use stockman::search::threads::{SEARCH_STACK_BYTES, panic_message};

/// The longest the writer waits for a game before it looks at the clock.
const TICK: Duration = Duration::from_millis(200);

/// What a run plays and how it writes.
pub struct RunPlan<'a> {
    pub cfg: &'a SelfPlay,
    pub games: u64,
    pub threads: usize,
    /// No game starts once the run (with the time before its resumption)
    /// has taken this long.
    pub time_limit: Option<Duration>,
    /// The least time between two checkpoints.
    pub checkpoint_every: Duration,
    pub checkpoint_path: PathBuf,
    /// What defines the run, as its checkpoints record it.
    pub run_line: String,
}

/// Where a run starts: game 0 of a new file, or where its checkpoint was.
pub struct Start {
    pub next_game: u64,
    pub totals: Totals,
    /// Time spent on the games before `next_game`.
    pub elapsed: Duration,
}

/// What a finished run did (all of it, resumptions included).
pub struct Done {
    pub totals: Totals,
    pub elapsed: Duration,
}

/// A game's number and the game, or why it could not be played.
type Finished = (u64, Result<GameRecord, String>);

/// Plays the games from `start` to the end (or the time limit) and writes
/// them to `sink` in game order.
pub fn play_games(plan: &RunPlan, start: Start, sink: &mut Sink) -> Result<Done, String> {
    let next = AtomicU64::new(start.next_game);
    // A run resumed past its time limit starts no game: it ends where its
    // checkpoint was (the writer's first look at the clock may come after a
    // worker has taken one).
    let stop = AtomicBool::new(plan.time_limit.is_some_and(|l| start.elapsed >= l));
    let (tx, rx) = channel::<Finished>();
    std::thread::scope(|scope| {
        for _ in 0..plan.threads {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            let spawned = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || play_until_stopped(plan, next, stop, tx));
            if let Err(e) = spawned {
                stop.store(true, Ordering::Relaxed);
                return Err(format!("cannot start threads: {e}"));
            }
        }
        drop(tx);
        let mut writer = Writer::new(plan, start, sink, &stop, &next);
        let result = writer.run(&rx);
        // On an error the workers finish their games and stop.
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// A worker: plays the next game not taken until there is none or the run
/// stops, sending each to the writer. Its memory is made once and kept
/// from game to game (made again after a game that panicked).
fn play_until_stopped(plan: &RunPlan, next: &AtomicU64, stop: &AtomicBool, tx: Sender<Finished>) {
    let mut player: Option<SelfPlayer> = None;
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.games {
            break;
        }
        let game = catch_unwind(AssertUnwindSafe(|| {
            let p = match player.take() {
                Some(p) => p,
                None => SelfPlayer::new(plan.cfg)?,
            };
            player.insert(p).play(index)
        }))
        .unwrap_or_else(|panic| {
            player = None;
            Err(format!("panicked: {}", panic_message(&*panic)))
        });
        if tx.send((index, game)).is_err() {
            break;
        }
    }
}

/// The writing side of a run.
struct Writer<'a> {
    plan: &'a RunPlan<'a>,
    sink: &'a mut Sink,
    stop: &'a AtomicBool,
    next: &'a AtomicU64,
    totals: Totals,
    /// The games before this one are written.
    written: u64,
    /// Games finished out of order, waiting for those before them.
    waiting: BTreeMap<u64, GameRecord>,
    /// Time spent before this resumption.
    before: Duration,
    started: Instant,
    checkpointed: u64,
    last_checkpoint: Instant,
    at_time_limit: bool,
    progress: Progress,
}

impl<'a> Writer<'a> {
    fn new(
        plan: &'a RunPlan<'a>,
        start: Start,
        sink: &'a mut Sink,
        stop: &'a AtomicBool,
        next: &'a AtomicU64,
    ) -> Writer<'a> {
        let now = Instant::now();
        let deadline = plan
            .time_limit
            .map(|limit| now + limit.saturating_sub(start.elapsed));
        let progress = Progress::with_deadline("datagen", plan.games as usize, deadline);
        progress.start_at(start.next_game);
        Writer {
            plan,
            sink,
            stop,
            next,
            totals: start.totals,
            written: start.next_game,
            waiting: BTreeMap::new(),
            before: start.elapsed,
            started: now,
            checkpointed: start.next_game,
            last_checkpoint: now,
            at_time_limit: false,
            progress,
        }
    }

    fn run(&mut self, rx: &Receiver<Finished>) -> Result<Done, String> {
        loop {
            self.watch_time_limit();
            match rx.recv_timeout(TICK) {
                Ok((index, game)) => self.take(index, game)?,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            let due = self.last_checkpoint.elapsed() >= self.plan.checkpoint_every;
            if due && self.written > self.checkpointed {
                self.checkpoint()?;
            }
        }
        if let Some(index) = self.waiting.keys().next() {
            return Err(format!(
                "game {index} finished but game {} never did",
                self.written
            ));
        }
        self.progress.finish();
        Ok(Done {
            totals: self.totals.clone(),
            elapsed: self.elapsed(),
        })
    }

    /// The run's time: before this resumption and since.
    fn elapsed(&self) -> Duration {
        self.before + self.started.elapsed()
    }

    /// At the time limit: no more games are handed out.
    fn watch_time_limit(&mut self) {
        let reached = self.plan.time_limit.is_some_and(|l| self.elapsed() >= l);
        if reached && !self.at_time_limit {
            self.at_time_limit = true;
            self.stop.store(true, Ordering::Relaxed);
            let started = self.next.load(Ordering::Relaxed).min(self.plan.games);
            self.progress.log(&format!(
                "datagen: --time-limit reached after {started} of {} games; \
                 no more are started, those in flight finish",
                self.plan.games
            ));
        }
    }

    /// A finished game: written with those before it once they are all in.
    fn take(&mut self, index: u64, game: Result<GameRecord, String>) -> Result<(), String> {
        let game = game.map_err(|e| format!("game {index}: {e}"))?;
        self.waiting.insert(index, game);
        while let Some(game) = self.waiting.remove(&self.written) {
            self.sink.game(&game)?;
            self.totals.add_game(&game);
            self.written += 1;
        }
        self.progress.set_done(self.written);
        self.progress.set_message(format!(
            "{} positions, {}",
            self.totals.positions,
            self.speed()
        ));
        Ok(())
    }

    /// `N positions/s (M per thread)` over the whole run.
    fn speed(&self) -> String {
        let per_second = self.totals.positions as f64 / self.elapsed().as_secs_f64().max(1e-3);
        format!(
            "{per_second:.0} positions/s ({:.1} per thread)",
            per_second / self.plan.threads as f64
        )
    }

    /// Puts the games written so far on disk, then the checkpoint that
    /// counts them, and logs the progress.
    fn checkpoint(&mut self) -> Result<(), String> {
        let bytes = self.sink.sync()?;
        Checkpoint {
            run: self.plan.run_line.clone(),
            next_game: self.written,
            bytes,
            elapsed: self.elapsed(),
            totals: self.totals.clone(),
        }
        .write(&self.plan.checkpoint_path)?;
        self.checkpointed = self.written;
        self.last_checkpoint = Instant::now();
        let secs = self.elapsed().as_secs_f64().max(1e-3);
        self.progress.log(&format!(
            "datagen: {}/{} games, {} positions, {} (White), {:.2} games/s, {}, eta {}",
            self.written,
            self.plan.games,
            self.totals.positions,
            self.totals.wdl(),
            self.written as f64 / secs,
            self.speed(),
            human_duration(self.eta())
        ));
        Ok(())
    }

    /// The time to the last game at the run's pace, or to the time limit if sooner.
    fn eta(&self) -> Duration {
        let secs = self.elapsed().as_secs_f64();
        let left = self.plan.games.saturating_sub(self.written) as f64;
        let by_games = Duration::try_from_secs_f64(left * secs / self.written.max(1) as f64)
            .unwrap_or(Duration::MAX);
        let by_time = self
            .plan
            .time_limit
            .map(|l| l.saturating_sub(self.elapsed()));
        by_time.map_or(by_games, |t| t.min(by_games))
    }
}
