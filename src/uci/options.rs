//! The UCI option table: every option the engine declares, each in one
//! `OptionDecl` of `DECLARATIONS` that holds its name, its kind (type,
//! default, range) and its `apply`, which stores a checked value in
//! `Options` and returns the `OptionEffect` the session acts on (resize or
//! clear the hash, load a network, tablebases or a book). `Options::set`
//! finds the declaration (ignoring case) and applies the value, with clear
//! errors for unknown names and bad or out-of-range values;
//! `Options::default()` applies every declaration's default, so no default
//! is written twice. `crate::uci::protocol` writes the `option` lines.
//!
//! Adding an option is one edit: its entry in `DECLARATIONS` (its place
//! there is its place in the answer to `uci`) and the field it sets in
//! `Options`, plus its test. A combo's values and default come from its
//! type (`Algorithm::NAMES`, `Algorithm::DEFAULT`). Only a new kind of
//! effect needs more: an `OptionEffect` variant and its handling in
//! `crate::session::engine`.

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

/// One option: its name, its kind (type, default, range) and what setting
/// it does.
#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: &'static str,
    pub kind: OptionKind,
    /// Stores a value `parse` checked against `kind` in `Options` and says
    /// what the session must do about the change.
    pub apply: fn(&mut Options, OptionValue) -> Result<OptionEffect, String>,
}

/// Every option, in the order `uci` lists them.
pub const DECLARATIONS: &[OptionDecl] = &[
    OptionDecl {
        name: "Hash",
        kind: OptionKind::Spin {
            default: HASH_DEFAULT_MB,
            min: HASH_MIN_MB,
            max: HASH_MAX_MB,
        },
        apply: |o, v| {
            o.hash_mb = v.spin()? as usize;
            Ok(OptionEffect::ResizeHash)
        },
    },
    OptionDecl {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: THREADS_MAX,
        },
        apply: |o, v| {
            o.threads = v.spin()? as usize;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "Clear Hash",
        kind: OptionKind::Button,
        apply: |_, _| Ok(OptionEffect::ClearHash),
    },
    OptionDecl {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: MOVE_OVERHEAD_MAX_MS,
        },
        apply: |o, v| {
            o.move_overhead_ms = v.spin()? as u64;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.ponder = v.check()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MULTIPV_MAX,
        },
        apply: |o, v| {
            o.multipv = v.spin()? as usize;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            let on = v.check()?;
            let changed = on != o.chess960;
            o.chess960 = on;
            Ok(if changed {
                OptionEffect::RereadPosition
            } else {
                OptionEffect::None
            })
        },
    },
    OptionDecl {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.show_wdl = v.check()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.limit_strength = v.check()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: strength::ELO_MIN,
            min: strength::ELO_MIN,
            max: strength::ELO_MAX,
        },
        apply: |o, v| {
            o.elo = v.spin()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: strength::SKILL_MAX,
            min: 0,
            max: strength::SKILL_MAX,
        },
        apply: |o, v| {
            o.skill_level = v.spin()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "UCI_AnalyseMode",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.analyse_mode = v.check()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "SyzygyPath",
        kind: OptionKind::Text {
            default: table_files::EMPTY_PATH,
        },
        apply: |o, v| {
            let v = v.text()?;
            let s = v.trim();
            let empty = s.is_empty() || s.eq_ignore_ascii_case(table_files::EMPTY_PATH);
            o.syzygy_path = if empty { table_files::EMPTY_PATH } else { s }.to_string();
            Ok(OptionEffect::LoadTablebases)
        },
    },
    OptionDecl {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: syzygy::DEFAULT_PROBE_DEPTH as i64,
            min: 1,
            max: 100,
        },
        apply: |o, v| {
            o.syzygy_probe_depth = v.spin()? as Depth;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check { default: true },
        apply: |o, v| {
            o.syzygy_fifty_move_rule = if v.check()? {
                FiftyMoveRule::Counted
            } else {
                FiftyMoveRule::Ignored
            };
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: syzygy::DEFAULT_PROBE_LIMIT as i64,
            min: 0,
            max: 7,
        },
        apply: |o, v| {
            o.syzygy_probe_limit = v.spin()? as usize;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "OwnBook",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.own_book = v.check()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "BookFile",
        kind: OptionKind::Text {
            default: BOOK_FILE_NONE,
        },
        apply: |o, v| {
            let v = v.text()?;
            let s = v.trim();
            let empty = s.is_empty() || s.eq_ignore_ascii_case(BOOK_FILE_NONE);
            o.book_file = if empty { BOOK_FILE_NONE } else { s }.to_string();
            Ok(OptionEffect::LoadBook)
        },
    },
    OptionDecl {
        name: "BookBestMove",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.book_pick = if v.check()? {
                BookPick::Best
            } else {
                BookPick::ByWeight
            };
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: EVAL_FILE_BUILT_IN,
        },
        apply: |o, v| {
            let v = v.text()?;
            let s = v.trim();
            let new = if s.is_empty() { EVAL_FILE_BUILT_IN } else { s };
            let previous = std::mem::replace(&mut o.eval_file, new.to_string());
            Ok(OptionEffect::LoadNetwork { previous })
        },
    },
    OptionDecl {
        name: "Algorithm",
        kind: OptionKind::Combo {
            default: Algorithm::DEFAULT.name(),
            vars: &Algorithm::NAMES,
        },
        apply: |o, v| {
            o.algorithm = v.combo()?.parse()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "Evaluation",
        kind: OptionKind::Combo {
            default: Evaluation::DEFAULT.name(),
            vars: &Evaluation::NAMES,
        },
        apply: |o, v| {
            o.evaluation = v.combo()?.parse()?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "MTGrain",
        kind: OptionKind::Spin {
            default: Grain::MT_DEFAULT.centipawns() as i64,
            min: 1,
            max: Grain::MAX as i64,
        },
        apply: |o, v| {
            o.mt_grain = Grain::new(v.spin()? as i32)?;
            Ok(OptionEffect::None)
        },
    },
    OptionDecl {
        name: "Pure",
        kind: OptionKind::Check { default: false },
        apply: |o, v| {
            o.pure = v.check()?;
            Ok(OptionEffect::None)
        },
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

impl OptionValue {
    /// The number of a `Spin` value.
    fn spin(self) -> Result<i64, String> {
        match self {
            OptionValue::Spin(n) => Ok(n),
            v => Err(v.unexpected()),
        }
    }

    /// The choice of a `Check` value.
    fn check(self) -> Result<bool, String> {
        match self {
            OptionValue::Check(b) => Ok(b),
            v => Err(v.unexpected()),
        }
    }

    /// The var of a `Combo` value.
    fn combo(self) -> Result<&'static str, String> {
        match self {
            OptionValue::Combo(var) => Ok(var),
            v => Err(v.unexpected()),
        }
    }

    /// The text of a `Text` value.
    fn text(self) -> Result<String, String> {
        match self {
            OptionValue::Text(s) => Ok(s),
            v => Err(v.unexpected()),
        }
    }

    /// A value of another type than the declaration's (`parse` never makes one).
    fn unexpected(&self) -> String {
        format!("unexpected value {self:?}")
    }
}

impl OptionKind {
    /// The declared default, as a value `apply` takes.
    pub fn default_value(&self) -> OptionValue {
        match self {
            OptionKind::Spin { default, .. } => OptionValue::Spin(*default),
            OptionKind::Check { default } => OptionValue::Check(*default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::Text { default } => OptionValue::Text(default.to_string()),
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Every declaration's default, applied in turn.
    fn default() -> Self {
        let mut options = Options::unset();
        for decl in DECLARATIONS {
            if let Err(message) = (decl.apply)(&mut options, decl.kind.default_value()) {
                panic!("option {}: its default is refused: {message}", decl.name);
            }
        }
        options
    }
}

impl Options {
    /// Placeholders, each overwritten by a declaration's default in
    /// `Options::default()` (the place to say an option's default is its
    /// declaration).
    fn unset() -> Options {
        Options {
            hash_mb: 0,
            threads: 0,
            move_overhead_ms: 0,
            ponder: false,
            multipv: 0,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: 0,
            skill_level: 0,
            analyse_mode: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_fifty_move_rule: FiftyMoveRule::default(),
            syzygy_probe_limit: 0,
            own_book: false,
            book_file: String::new(),
            book_pick: BookPick::default(),
            eval_file: String::new(),
            algorithm: Algorithm::default(),
            evaluation: Evaluation::default(),
            mt_grain: Grain::FULL,
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
    /// `UCI_Chess960` changed: the engine reads its last `position` command
    /// again, so that the board writes castling the new way.
    RereadPosition,
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
        let value = decl.parse(value)?;
        (decl.apply)(self, value)
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
                    assert!(vars.contains(default), "{}", d.name);
                    for var in *vars {
                        let mut o = Options::default();
                        assert!((d.apply)(&mut o, OptionValue::Combo(var)).is_ok(), "{var}");
                    }
                }
                _ => {}
            }
            let same_name = DECLARATIONS
                .iter()
                .filter(|other| other.name.eq_ignore_ascii_case(d.name))
                .count();
            assert_eq!(same_name, 1, "{}", d.name);
        }
        assert_eq!(Options::default().algorithm, Algorithm::NegaScout);
    }

    /// The text `uci` shows as the default of `kind` (`None` for a button).
    fn default_text(kind: &OptionKind) -> Option<String> {
        match kind {
            OptionKind::Spin { default, .. } => Some(default.to_string()),
            OptionKind::Check { default } => Some(default.to_string()),
            OptionKind::Combo { default, .. } => Some(default.to_string()),
            OptionKind::Button => None,
            OptionKind::Text { default } => Some(default.to_string()),
        }
    }

    #[test]
    fn every_default_round_trips_through_its_apply() {
        let defaults = Options::default();
        for d in DECLARATIONS {
            // The default `uci` shows is accepted as a value...
            let shown = default_text(&d.kind);
            assert_eq!(
                d.parse(shown.as_deref()),
                Ok(d.kind.default_value()),
                "{}",
                d.name
            );
            // ...and setting it changes nothing.
            let mut o = Options::default();
            assert!(
                (d.apply)(&mut o, d.kind.default_value()).is_ok(),
                "{}",
                d.name
            );
            assert_eq!(o, defaults, "{}", d.name);
            let mut o = Options::default();
            assert!(o.set(d.name, shown.as_deref()).is_ok(), "{}", d.name);
            assert_eq!(o, defaults, "{}", d.name);
        }
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
