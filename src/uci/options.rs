//! The UCI option table: every option the engine declares (name, type,
//! default, range), case-insensitive lookup, and typed values with clear
//! errors for unknown names and bad or out-of-range values.

use crate::known::syzygy::{self, FiftyMoveRule};
use crate::known::{BookPick, table_files};
use crate::score::Depth;
use crate::search::grain::Grain;
use crate::search::{Algorithm, Evaluation};
use crate::strength::{self, Strength, StrengthLimit};

pub const HASH_MIN_MB: i64 = 1;
pub const HASH_MAX_MB: i64 = 65_536;
pub const HASH_DEFAULT_MB: i64 = 16;
pub const THREADS_MAX: i64 = 256;
pub const MOVE_OVERHEAD_MAX_MS: i64 = 5_000;
pub const MULTIPV_MAX: i64 = 256;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    Button,
    Text {
        default: &'static str,
    },
}

#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: &'static str,
    pub kind: OptionKind,
}

const ALGORITHM_VARS: &[&str] = &["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"];
const EVALUATION_VARS: &[&str] = &["Network", "Classical"];

/// Every option, in the order `uci` lists them.
pub const DECLARATIONS: &[OptionDecl] = &[
    OptionDecl {
        name: "Hash",
        kind: OptionKind::Spin {
            default: HASH_DEFAULT_MB,
            min: HASH_MIN_MB,
            max: HASH_MAX_MB,
        },
    },
    OptionDecl {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: THREADS_MAX,
        },
    },
    OptionDecl {
        name: "Clear Hash",
        kind: OptionKind::Button,
    },
    OptionDecl {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: MOVE_OVERHEAD_MAX_MS,
        },
    },
    OptionDecl {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MULTIPV_MAX,
        },
    },
    OptionDecl {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: strength::ELO_MIN,
            min: strength::ELO_MIN,
            max: strength::ELO_MAX,
        },
    },
    OptionDecl {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: strength::SKILL_MAX,
            min: 0,
            max: strength::SKILL_MAX,
        },
    },
    OptionDecl {
        name: "UCI_AnalyseMode",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "SyzygyPath",
        kind: OptionKind::Text {
            default: table_files::EMPTY_PATH,
        },
    },
    OptionDecl {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: syzygy::DEFAULT_PROBE_DEPTH as i64,
            min: 1,
            max: 100,
        },
    },
    OptionDecl {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check { default: true },
    },
    OptionDecl {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: syzygy::DEFAULT_PROBE_LIMIT as i64,
            min: 0,
            max: 7,
        },
    },
    OptionDecl {
        name: "OwnBook",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "BookFile",
        kind: OptionKind::Text {
            default: BOOK_FILE_NONE,
        },
    },
    OptionDecl {
        name: "BookBestMove",
        kind: OptionKind::Check { default: false },
    },
    OptionDecl {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: EVAL_FILE_BUILT_IN,
        },
    },
    OptionDecl {
        name: "Algorithm",
        kind: OptionKind::Combo {
            default: "NegaScout",
            vars: ALGORITHM_VARS,
        },
    },
    OptionDecl {
        name: "Evaluation",
        kind: OptionKind::Combo {
            default: "Network",
            vars: EVALUATION_VARS,
        },
    },
    OptionDecl {
        name: "MTGrain",
        kind: OptionKind::Spin {
            default: Grain::MT_DEFAULT.centipawns() as i64,
            min: 1,
            max: Grain::MAX as i64,
        },
    },
    OptionDecl {
        name: "Pure",
        kind: OptionKind::Check { default: false },
    },
];

/// A checked value for a declared option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    Combo(&'static str),
    Button,
    Text(String),
}

impl OptionDecl {
    /// The `option name ... type ...` line for `uci`.
    pub fn declaration(&self) -> String {
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                super::protocol::spin_option(self.name, default, min, max)
            }
            OptionKind::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            OptionKind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!(
                    "option name {} type combo default {default}{vars}",
                    self.name
                )
            }
            OptionKind::Button => format!("option name {} type button", self.name),
            OptionKind::Text { default } => {
                format!("option name {} type string default {default}", self.name)
            }
        }
    }
}

fn need<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("option {name} needs a value"))
}

impl OptionDecl {
    /// Checks `value` against the declaration.
    pub fn parse(&self, value: Option<&str>) -> Result<OptionValue, String> {
        let name = self.name;
        match &self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::Spin { min, max, .. } => {
                let v = need(name, value)?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("option {name}: '{v}' is not a whole number"))?;
                if n < *min || n > *max {
                    return Err(format!("option {name}: {n} is outside {min}..{max}"));
                }
                Ok(OptionValue::Spin(n))
            }
            OptionKind::Check { .. } => match need(name, value)?.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                v => Err(format!("option {name}: '{v}' is not true or false")),
            },
            OptionKind::Combo { vars, .. } => {
                let v = need(name, value)?;
                vars.iter()
                    .find(|var| var.eq_ignore_ascii_case(v))
                    .map(|var| OptionValue::Combo(var))
                    .ok_or_else(|| {
                        format!("option {name}: '{v}' is not one of {}", vars.join(", "))
                    })
            }
            OptionKind::Text { .. } => Ok(OptionValue::Text(value.unwrap_or("").to_string())),
        }
    }
}

/// Finds a declared option by name, ignoring case and surrounding blanks.
pub fn find(name: &str) -> Option<&'static OptionDecl> {
    let name = name.trim();
    DECLARATIONS
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
}

/// `BookFile`'s value for no book (so is an empty value).
pub const BOOK_FILE_NONE: &str = "<empty>";

/// `EvalFile`'s value for the network built into the binary (so is an empty value).
pub const EVAL_FILE_BUILT_IN: &str = "<built-in>";

/// The current value of every option.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub multipv: usize,
    pub chess960: bool,
    pub show_wdl: bool,
    pub limit_strength: bool,
    pub elo: i64,
    pub skill_level: i64,
    /// Accepted (GUIs send it); the search is the same either way.
    pub analyse_mode: bool,
    pub syzygy_path: String,
    pub syzygy_probe_depth: Depth,
    pub syzygy_fifty_move_rule: FiftyMoveRule,
    pub syzygy_probe_limit: usize,
    pub own_book: bool,
    /// A Polyglot book file, or `BOOK_FILE_NONE`.
    pub book_file: String,
    pub book_pick: BookPick,
    /// A network file for `Evaluation Network`, or `EVAL_FILE_BUILT_IN`.
    pub eval_file: String,
    pub algorithm: Algorithm,
    pub evaluation: Evaluation,
    /// The evaluation's grain for the MT back ends (MTDf, SSS, DUAL).
    pub mt_grain: Grain,
    pub pure: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH_DEFAULT_MB as usize,
            threads: 1,
            move_overhead_ms: 10,
            ponder: false,
            multipv: 1,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: strength::ELO_MIN,
            skill_level: strength::SKILL_MAX,
            analyse_mode: false,
            syzygy_path: table_files::EMPTY_PATH.to_string(),
            syzygy_probe_depth: syzygy::DEFAULT_PROBE_DEPTH,
            syzygy_fifty_move_rule: FiftyMoveRule::Counted,
            syzygy_probe_limit: syzygy::DEFAULT_PROBE_LIMIT,
            own_book: false,
            book_file: BOOK_FILE_NONE.to_string(),
            book_pick: BookPick::ByWeight,
            eval_file: EVAL_FILE_BUILT_IN.to_string(),
            algorithm: Algorithm::default(),
            evaluation: Evaluation::default(),
            mt_grain: Grain::MT_DEFAULT,
            pure: false,
        }
    }
}

impl Options {
    /// The strength `UCI_LimitStrength`, `UCI_Elo` and `Skill Level` ask for.
    pub fn strength(&self) -> Strength {
        Strength::new(if self.limit_strength {
            StrengthLimit::ByElo(self.elo)
        } else {
            StrengthLimit::BySkill(self.skill_level)
        })
    }
}

/// What the engine must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    None,
    ResizeHash,
    ClearHash,
    /// `EvalFile` changed: the engine reads the network (and puts the old
    /// value back if it cannot).
    LoadNetwork {
        previous: String,
    },
    /// `SyzygyPath` changed: the engine loads the tables it names.
    LoadTablebases,
    /// `BookFile` changed: the engine reads the book.
    LoadBook,
}

impl Options {
    /// Applies `setoption name <name> [value <value>]`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, String> {
        let Some(decl) = find(name) else {
            // A tuning build's search constants (never in a normal build).
            return match crate::search::tunables::spsa::set_option(name, value) {
                Some(taken) => taken.map(|()| OptionEffect::None),
                None => Err(format!("unknown option '{}'", name.trim())),
            };
        };
        let v = decl.parse(value)?;
        match (decl.name, v) {
            ("Hash", OptionValue::Spin(n)) => {
                self.hash_mb = n as usize;
                return Ok(OptionEffect::ResizeHash);
            }
            ("Threads", OptionValue::Spin(n)) => self.threads = n as usize,
            ("Clear Hash", OptionValue::Button) => return Ok(OptionEffect::ClearHash),
            ("Move Overhead", OptionValue::Spin(n)) => self.move_overhead_ms = n as u64,
            ("Ponder", OptionValue::Check(b)) => self.ponder = b,
            ("MultiPV", OptionValue::Spin(n)) => self.multipv = n as usize,
            ("UCI_Chess960", OptionValue::Check(b)) => self.chess960 = b,
            ("UCI_ShowWDL", OptionValue::Check(b)) => self.show_wdl = b,
            ("UCI_LimitStrength", OptionValue::Check(b)) => self.limit_strength = b,
            ("UCI_Elo", OptionValue::Spin(n)) => self.elo = n,
            ("Skill Level", OptionValue::Spin(n)) => self.skill_level = n,
            ("UCI_AnalyseMode", OptionValue::Check(b)) => self.analyse_mode = b,
            ("SyzygyPath", OptionValue::Text(s)) => {
                let s = s.trim();
                let empty = s.is_empty() || s.eq_ignore_ascii_case(table_files::EMPTY_PATH);
                self.syzygy_path = if empty { table_files::EMPTY_PATH } else { s }.to_string();
                return Ok(OptionEffect::LoadTablebases);
            }
            ("SyzygyProbeDepth", OptionValue::Spin(n)) => self.syzygy_probe_depth = n as Depth,
            ("Syzygy50MoveRule", OptionValue::Check(b)) => {
                self.syzygy_fifty_move_rule = if b {
                    FiftyMoveRule::Counted
                } else {
                    FiftyMoveRule::Ignored
                }
            }
            ("SyzygyProbeLimit", OptionValue::Spin(n)) => self.syzygy_probe_limit = n as usize,
            ("OwnBook", OptionValue::Check(b)) => self.own_book = b,
            ("BookFile", OptionValue::Text(s)) => {
                let s = s.trim();
                let empty = s.is_empty() || s.eq_ignore_ascii_case(BOOK_FILE_NONE);
                self.book_file = if empty { BOOK_FILE_NONE } else { s }.to_string();
                return Ok(OptionEffect::LoadBook);
            }
            ("BookBestMove", OptionValue::Check(b)) => {
                self.book_pick = if b {
                    BookPick::Best
                } else {
                    BookPick::ByWeight
                }
            }
            ("EvalFile", OptionValue::Text(s)) => {
                let s = s.trim();
                let new = if s.is_empty() { EVAL_FILE_BUILT_IN } else { s };
                let previous = std::mem::replace(&mut self.eval_file, new.to_string());
                return Ok(OptionEffect::LoadNetwork { previous });
            }
            ("Algorithm", OptionValue::Combo(a)) => self.algorithm = a.parse()?,
            ("Evaluation", OptionValue::Combo(e)) => self.evaluation = e.parse()?,
            ("MTGrain", OptionValue::Spin(n)) => self.mt_grain = Grain::new(n as i32)?,
            ("Pure", OptionValue::Check(b)) => self.pure = b,
            (n, v) => return Err(format!("option {n}: unexpected value {v:?}")),
        }
        Ok(OptionEffect::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent() {
        for d in DECLARATIONS {
            match &d.kind {
                OptionKind::Spin { default, min, max } => {
                    assert!(min <= default && default <= max, "{}", d.name)
                }
                OptionKind::Combo { default, vars } => {
                    assert!(vars.contains(default), "{}", d.name)
                }
                _ => {}
            }
            assert!(
                d.declaration()
                    .starts_with(&format!("option name {} type ", d.name))
            );
        }
        for name in ALGORITHM_VARS {
            assert!(name.parse::<Algorithm>().is_ok());
        }
        assert_eq!(Algorithm::default().name(), "NegaScout");
    }

    #[test]
    fn names_match_case_insensitively() {
        let mut o = Options::default();
        assert_eq!(o.set("move overhead", Some("250")), Ok(OptionEffect::None));
        assert_eq!(o.move_overhead_ms, 250);
        assert_eq!(o.set("HASH", Some("64")), Ok(OptionEffect::ResizeHash));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.set("clear hash", None), Ok(OptionEffect::ClearHash));
        assert_eq!(o.set("algorithm", Some("mtdf")), Ok(OptionEffect::None));
        assert_eq!(o.algorithm, Algorithm::MTDf);
    }

    #[test]
    fn bad_values_are_rejected_and_leave_the_value() {
        let mut o = Options::default();
        assert!(o.set("Hash", Some("lots")).is_err());
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("100000")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert_eq!(o.hash_mb, 16);
        assert!(o.set("Ponder", Some("yes")).is_err());
        assert!(o.set("Algorithm", Some("Minimax")).is_err());
        assert!(o.set("No Such Option", Some("1")).is_err());
        assert!(o.set("MultiPV", Some("-3")).is_err());
        for bad in ["0", "101", "-8", "fine"] {
            assert!(o.set("MTGrain", Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(o.mt_grain, Grain::MT_DEFAULT);
    }

    #[test]
    fn mt_grain_takes_centipawns() {
        let mut o = Options::default();
        assert_eq!(o.set("mtgrain", Some("16")), Ok(OptionEffect::None));
        assert_eq!(o.mt_grain.centipawns(), 16);
        assert_eq!(o.set("MTGrain", Some("1")), Ok(OptionEffect::None));
        assert_eq!(o.mt_grain, Grain::FULL);
    }
}
