//! Fault injection for the tests that drive the real binary: the environment
//! variable `STOCKMAN_FAULT` makes a search thread panic on purpose, so that
//! the recovery (one legal `bestmove` and an `info string`) can be checked.

use std::sync::OnceLock;

/// The faults that can be asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `main-panic`: the main search thread panics after its second iteration.
    MainPanic,
    /// `helper-panic`: every helper thread panics as it starts a search.
    HelperPanic,
}

impl Fault {
    fn parse(text: &str) -> Option<Fault> {
        match text.trim() {
            "main-panic" => Some(Fault::MainPanic),
            "helper-panic" => Some(Fault::HelperPanic),
            _ => None,
        }
    }
}

/// Is `fault` asked for? (The variable is read once.)
pub fn injected(fault: Fault) -> bool {
    static ASKED: OnceLock<Option<Fault>> = OnceLock::new();
    *ASKED.get_or_init(|| {
        std::env::var("STOCKMAN_FAULT")
            .ok()
            .and_then(|v| Fault::parse(&v))
    }) == Some(fault)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_names_parse() {
        assert_eq!(Fault::parse("main-panic"), Some(Fault::MainPanic));
        assert_eq!(Fault::parse(" helper-panic\n"), Some(Fault::HelperPanic));
        assert_eq!(Fault::parse("nothing"), None);
    }
}
