//! The two choices that define a search: the root strategy (`Algorithm`,
//! which back end drives the shared node procedure) and the `SearchMode`
//! (whether selective techniques may change the searched value).

use std::fmt;
use std::str::FromStr;

/// The root strategy: which windows the shared node procedure is asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Fail-soft negamax alpha-beta with memory, full window.
    AlphaBeta,
    /// Principal variation search with aspiration windows at the root.
    NegaScout,
    /// MTD(f): null-window passes converging from the previous iteration's value.
    MTDf,
    /// MT-SSS*: null-window passes from +infinity (upper bounds falling).
    SSS,
    /// MT-DUAL*: null-window passes from -infinity (lower bounds rising).
    DUAL,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] = [
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::MTDf,
        Algorithm::SSS,
        Algorithm::DUAL,
    ];

    /// The algorithm a search uses unless told otherwise (the `Algorithm`
    /// option's default).
    pub const DEFAULT: Algorithm = Algorithm::NegaScout;

    /// The names of `ALL`, in its order (the `Algorithm` option's values).
    pub const NAMES: [&'static str; Algorithm::ALL.len()] = {
        let mut names = [""; Algorithm::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Algorithm::ALL[i].name();
            i += 1;
        }
        names
    };

    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "AlphaBeta",
            Algorithm::NegaScout => "NegaScout",
            Algorithm::MTDf => "MTDf",
            Algorithm::SSS => "SSS",
            Algorithm::DUAL => "DUAL",
        }
    }
}

impl Default for Algorithm {
    fn default() -> Algorithm {
        Algorithm::DEFAULT
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Algorithm, String> {
        let wanted = s.trim();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                format!(
                    "unknown algorithm '{wanted}' (expected one of {})",
                    Algorithm::NAMES.join(", ")
                )
            })
    }
}

/// Whether selective techniques may change the searched value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// Everything that makes the engine play better.
    #[default]
    Normal,
    /// Exactly the depth-d minimax value (with quiescence): no pruning,
    /// reductions or extensions, and TT cutoffs only from equal depth.
    Pure,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_parse_case_insensitively() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().to_lowercase().parse::<Algorithm>(), Ok(a));
            assert_eq!(a.name().to_uppercase().parse::<Algorithm>(), Ok(a));
        }
        assert!("minimax".parse::<Algorithm>().is_err());
        for (a, name) in Algorithm::ALL.into_iter().zip(Algorithm::NAMES) {
            assert_eq!(a.name(), name);
        }
        assert_eq!(Algorithm::default(), Algorithm::NegaScout);
    }
}
