//! The lab's progress bar on stderr (`label [#####>    ] 12/50 00:01:02 eta
//! 3m`), an `indicatif` bar drawn only when stderr is a terminal so logs,
//! pipes and the tests' captured output stay as they were. The crate brings
//! what the hand-written bar lacked: a time estimate, a rate-limited redraw
//! from any thread, log lines printed above the bar without tearing it.
//! Used by `compare`, `bstar` over positions, and by the tuning tools
//! (`datagen`, `label`, `train-net`); datagen's estimate also heeds its
//! time limit.

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The bar's layout: the label, the bar, the count, the time so far and the
/// time estimate, then the caller's message (rates, errors).
const TEMPLATE: &str = "{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} eta {eta} {msg}";

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar that draws itself only if stderr is a terminal.
    pub fn new(label: impl Into<String>, total: usize) -> Progress {
        Progress::with_output(label, total, std::io::stderr().is_terminal())
    }

    pub fn with_output(label: impl Into<String>, total: usize, enabled: bool) -> Progress {
        Progress::build(label, total, enabled, None)
    }

    /// A bar (drawn only if stderr is a terminal) for work that also stops
    /// at `deadline`: its time estimate is the sooner of the two.
    pub fn with_deadline(
        label: impl Into<String>,
        total: usize,
        deadline: Option<Instant>,
    ) -> Progress {
        Progress::build(label, total, std::io::stderr().is_terminal(), deadline)
    }

    fn build(
        label: impl Into<String>,
        total: usize,
        enabled: bool,
        deadline: Option<Instant>,
    ) -> Progress {
        let target = if enabled {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let mut style = ProgressStyle::with_template(TEMPLATE)
            .expect("a valid template")
            .progress_chars("#> ");
        if let Some(deadline) = deadline {
            style = style.with_key(
                "eta",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let eta = sooner_eta(state.eta(), Some(deadline), Instant::now());
                    let _ = w.write_str(&human_duration(eta));
                },
            );
        }
        let bar = ProgressBar::with_draw_target(Some(total as u64), target)
            .with_style(style)
            .with_prefix(label.into());
        Progress { bar }
    }

    /// One more unit of work is done.
    pub fn tick(&self) {
        self.inc(1);
    }

    /// `n` more units of work are done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// `done` units of work are done in all.
    pub fn set_done(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Work that goes on from `done` units (a resumed run): the rate and
    /// the time estimate count only what is done from here.
    pub fn start_at(&self, done: u64) {
        self.bar.set_position(done);
        self.bar.reset_eta();
        self.bar.reset_elapsed();
    }

    /// The text after the time estimate.
    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// How many units are done.
    pub fn done(&self) -> u64 {
        self.bar.position()
    }

    /// Whether the bar is drawn.
    pub fn is_drawn(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// A line on stderr: above the bar when it is drawn, else as it is.
    pub fn log(&self, line: &str) {
        if self.is_drawn() {
            self.bar.println(line);
        } else {
            eprintln!("{line}");
        }
    }

    /// Erases the bar so the next output starts on a clean line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A duration as the bar shows it: `3 minutes`, `2 hours`.
pub fn human_duration(d: Duration) -> String {
    format!("{:#}", HumanDuration(d))
}

/// The time left: the work's estimate `eta`, or less when `deadline` comes
/// sooner (a run that stops at a time limit).
pub fn sooner_eta(eta: Duration, deadline: Option<Instant>, now: Instant) -> Duration {
    deadline.map_or(eta, |d| eta.min(d.saturating_duration_since(now)))
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_bar_counts_but_never_draws() {
        let p = Progress::with_output("quiet", 3, false);
        for _ in 0..2 {
            p.tick();
        }
        p.inc(1);
        assert_eq!(p.done(), 3);
        p.set_done(1);
        assert_eq!(p.done(), 1);
        assert!(!p.is_drawn());
        p.finish();
    }

    #[test]
    fn a_deadline_shortens_the_estimate_only_when_sooner() {
        let now = Instant::now();
        let minute = Duration::from_secs(60);
        assert_eq!(sooner_eta(minute, None, now), minute);
        assert_eq!(sooner_eta(minute, Some(now + 2 * minute), now), minute);
        assert_eq!(sooner_eta(minute, Some(now + minute / 2), now), minute / 2);
        assert_eq!(sooner_eta(minute, Some(now), now + minute), Duration::ZERO);
        let p = Progress::build("datagen", 10, false, Some(now + minute));
        p.start_at(4);
        assert_eq!(p.done(), 4);
    }

    #[test]
    fn the_template_is_valid() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
    }
}
