//! The lab's progress bar on stderr (`label [#####>    ] 12/50 00:01:02 eta
//! 3m`), an `indicatif` bar drawn only when stderr is a terminal so logs,
//! pipes and the tests' captured output stay as they were. The crate brings
//! what the hand-written bar lacked: a time estimate, a rate-limited redraw
//! from any thread, log lines printed above the bar without tearing it.
//! Used by `compare`, `bstar` over positions, and by the tuning tools
//! (`datagen`, `label`, `train-net`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

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
        let target = if enabled {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let style = ProgressStyle::with_template(TEMPLATE)
            .expect("a valid template")
            .progress_chars("#> ");
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
    fn the_template_is_valid() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
    }
}
