//! A one-line progress bar on stderr (`\r[#####     ] 12/50`), drawn only
//! when stderr is a terminal so logs and pipes stay clean. Hand-written: one
//! line of output does not justify a dependency.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const BAR_WIDTH: usize = 30;
/// Redraw at most this often (the bar is cheap, the terminal is not).
const REDRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    label: String,
    total: usize,
    done: usize,
    enabled: bool,
    last_drawn: Option<Instant>,
}

impl Progress {
    /// A bar that draws itself only if stderr is a terminal.
    pub fn new(label: impl Into<String>, total: usize) -> Progress {
        Progress::with_output(label, total, std::io::stderr().is_terminal())
    }

    pub fn with_output(label: impl Into<String>, total: usize, enabled: bool) -> Progress {
        Progress {
            label: label.into(),
            total,
            done: 0,
            enabled,
            last_drawn: None,
        }
    }

    /// One more unit of work is done.
    pub fn tick(&mut self) {
        self.done = (self.done + 1).min(self.total);
        let due = self.last_drawn.is_none_or(|t| t.elapsed() >= REDRAW_EVERY);
        if self.enabled && (due || self.done == self.total) {
            self.last_drawn = Some(Instant::now());
            let mut err = std::io::stderr().lock();
            // Progress is decoration: a failed write is not worth an error.
            let _ = write!(err, "\r{}", render(&self.label, self.done, self.total));
            let _ = err.flush();
        }
    }

    /// Erases the bar so the next output starts on a clean line.
    pub fn finish(&mut self) {
        if self.enabled && self.last_drawn.is_some() {
            let width = render(&self.label, self.total, self.total).chars().count();
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{}\r", " ".repeat(width));
            let _ = err.flush();
        }
        self.last_drawn = None;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `label [#####     ] done/total`.
pub fn render(label: &str, done: usize, total: usize) -> String {
    let filled = (done.min(total) * BAR_WIDTH)
        .checked_div(total)
        .unwrap_or(BAR_WIDTH);
    format!(
        "{label} [{}{}] {done}/{total}",
        "#".repeat(filled),
        " ".repeat(BAR_WIDTH - filled)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_in_proportion() {
        assert_eq!(render("d1", 0, 10), format!("d1 [{}] 0/10", " ".repeat(30)));
        assert_eq!(
            render("d1", 5, 10),
            format!("d1 [{}{}] 5/10", "#".repeat(15), " ".repeat(15))
        );
        assert_eq!(
            render("d1", 10, 10),
            format!("d1 [{}] 10/10", "#".repeat(30))
        );
        assert_eq!(render("x", 0, 0), format!("x [{}] 0/0", "#".repeat(30)));
    }

    #[test]
    fn a_disabled_bar_counts_but_never_draws() {
        let mut p = Progress::with_output("quiet", 3, false);
        for _ in 0..5 {
            p.tick();
        }
        assert_eq!(p.done, 3);
        assert!(p.last_drawn.is_none());
    }
}
