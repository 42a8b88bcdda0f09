//! Syzygy endgame tablebases: the loaded tables (`Tablebases`, shared
//! read-only between threads), loading a `SyzygyPath` with every problem
//! reported, and the WDL probe the search calls (`TbProbe`).

use super::table_files;
use crate::score::{Depth, Ply, Score};
use crate::tt::Bound;
use shakmaty::{Chess, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, Metric, SyzygyError, Tablebase, Wdl};
use std::collections::BTreeSet;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

/// Tables of this many pieces or fewer are opened and probed once when
/// loaded, so that a broken file is reported at once (bigger sets are many
/// hundreds of files: those are checked when first probed).
const CHECKED_MAX_PIECES: usize = 5;

/// How the fifty-move rule counts in tablebase results (`Syzygy50MoveRule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum FiftyMoveRule {
    /// A win the fifty-move rule frustrates is a draw (Stockfish's default).
    #[default]
    Counted,
    /// Cursed wins are wins and blessed losses are losses.
    Ignored,
}

/// The loaded tables.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    wdl_tables: usize,
    dtz_tables: usize,
    max_pieces: usize,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tablebases({} WDL, {} DTZ, up to {} pieces)",
            self.wdl_tables, self.dtz_tables, self.max_pieces
        )
    }
}

/// The outcome of loading a `SyzygyPath`: the tables (if any) and what was
/// wrong on the way.
pub struct Loaded {
    pub tables: Option<Arc<Tablebases>>,
    pub problems: Vec<String>,
}

impl Tablebases {
    /// Loads every table in the directories of `path` (`:`-separated;
    /// `<empty>` for none). Never fails: unusable files are left out and
    /// reported in `problems`.
    pub fn load(path: &str) -> Loaded {
        let found = table_files::find(path);
        let mut problems = found.problems;
        let mut files = found.files;
        let first = Tablebases::from_files(&files, &mut problems);
        let broken = first.broken_tables(&files, &mut problems);
        let tables = if broken.is_empty() {
            first
        } else {
            files.retain(|f| !broken.contains(f));
            Tablebases::from_files(&files, &mut Vec::new())
        };
        Loaded {
            tables: (tables.wdl_tables > 0).then(|| Arc::new(tables)),
            problems,
        }
    }

    fn from_files(files: &[PathBuf], problems: &mut Vec<String>) -> Tablebases {
        let mut tables = Tablebase::new();
        // By name: a table found in two directories counts once.
        let (mut wdl, mut dtz) = (BTreeSet::new(), BTreeSet::new());
        for file in files {
            let name = file.file_name().map(|n| n.to_os_string());
            match tables.add_file(file) {
                Ok(()) if file.extension().is_some_and(|e| e == "rtbw") => wdl.insert(name),
                Ok(()) => dtz.insert(name),
                Err(e) => {
                    problems.push(format!("{} not usable: {e}", file.display()));
                    false
                }
            };
        }
        let max_pieces = tables.max_pieces();
        Tablebases {
            tables,
            wdl_tables: wdl.len(),
            dtz_tables: dtz.len(),
            max_pieces,
        }
    }

    /// Probes one position of each small table (its own metric) and returns
    /// the files that failed; every failure is described in `problems`.
    fn broken_tables(&self, files: &[PathBuf], problems: &mut Vec<String>) -> BTreeSet<PathBuf> {
        let mut broken = BTreeSet::new();
        let mut messages = BTreeSet::new();
        for file in files {
            let Some(material) = file.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if material.len() - 1 > CHECKED_MAX_PIECES {
                continue;
            }
            let Some(pos) = super::syzygy_sample::position_of(material) else {
                continue;
            };
            let is_wdl = file.extension().is_some_and(|e| e == "rtbw");
            let probe = catch_unwind(AssertUnwindSafe(|| {
                if is_wdl {
                    self.tables.probe_wdl_after_zeroing(&pos).err()
                } else {
                    self.tables.probe_dtz(&pos).err()
                }
            }));
            let error = match probe {
                Ok(None) => continue,
                Ok(Some(e)) => e,
                Err(_) => {
                    messages.insert(format!(
                        "{} not usable: it crashed the prober",
                        file.display()
                    ));
                    broken.insert(file.clone());
                    continue;
                }
            };
            let own = match &error {
                SyzygyError::ProbeFailed {
                    metric,
                    material: m,
                    ..
                } => m.to_string() == material && (*metric == Metric::Wdl) == is_wdl,
                SyzygyError::MissingTable { .. } => false,
                _ => true,
            };
            if own {
                broken.insert(file.clone());
                messages.insert(format!("{} not usable: {error}", file.display()));
            } else {
                messages.insert(error.to_string());
            }
        }
        problems.extend(messages);
        broken
    }

    /// WDL tables loaded (one per material signature).
    pub fn count(&self) -> usize {
        self.wdl_tables
    }

    pub fn dtz_count(&self) -> usize {
        self.dtz_tables
    }

    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The WDL of a position reached by a capture or pawn move (or of any
    /// position, ignoring its fifty-move counter). `None` when the tables
    /// cannot say (too many pieces, castling rights, a missing or broken table).
    pub fn wdl(&self, pos: &Chess) -> Option<Wdl> {
        if pos.board().occupied().count() > self.max_pieces {
            return None;
        }
        guarded(|| self.tables.probe_wdl_after_zeroing(pos).ok())
    }

    /// The DTZ of a position: plies to the next capture or pawn move with
    /// best play, signed for the side to move (perhaps rounded, see
    /// `MaybeRounded`). `None` when the tables cannot say.
    pub fn dtz(&self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        if pos.board().occupied().count() > self.max_pieces {
            return None;
        }
        guarded(|| self.tables.probe_dtz(pos).ok())
    }
}

/// Runs a probe; a panic inside the crate (a table broken in a way its
/// checks miss) is an unknown result, never the engine's end.
fn guarded<T>(probe: impl FnOnce() -> Option<T>) -> Option<T> {
    catch_unwind(AssertUnwindSafe(probe)).ok().flatten()
}

/// The tablebase settings of the search (`SyzygyPath` and friends).
#[derive(Clone, Debug)]
pub struct SyzygyConfig {
    pub tables: Option<Arc<Tablebases>>,
    /// The least remaining depth at which the search probes (`SyzygyProbeDepth`).
    pub probe_depth: Depth,
    /// The most pieces probed (`SyzygyProbeLimit`).
    pub probe_limit: usize,
    pub fifty_move_rule: FiftyMoveRule,
}

pub const DEFAULT_PROBE_DEPTH: Depth = 1;
pub const DEFAULT_PROBE_LIMIT: usize = 7;

impl Default for SyzygyConfig {
    fn default() -> Self {
        SyzygyConfig {
            tables: None,
            probe_depth: DEFAULT_PROBE_DEPTH,
            probe_limit: DEFAULT_PROBE_LIMIT,
            fifty_move_rule: FiftyMoveRule::Counted,
        }
    }
}

impl SyzygyConfig {
    /// The probe the search makes in its nodes, if tables are loaded.
    pub fn search_probe(&self) -> Option<TbProbe> {
        let tables = self.tables.clone()?;
        let pieces = tables.max_pieces().min(self.probe_limit);
        (pieces > 0).then_some(TbProbe {
            tables,
            pieces,
            depth: self.probe_depth,
            fifty_move_rule: self.fifty_move_rule,
        })
    }
}

/// What a WDL probe in the search tells the node: a score and what it bounds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TbValue {
    pub score: Score,
    pub bound: Bound,
}

/// The search's WDL probe: when to probe and what a result is worth.
#[derive(Clone, Debug)]
pub struct TbProbe {
    tables: Arc<Tablebases>,
    /// Positions with more pieces are not probed.
    pieces: usize,
    depth: Depth,
    fifty_move_rule: FiftyMoveRule,
}

impl TbProbe {
    /// Does a node of this depth in `pos` get probed? Only right after a
    /// capture or pawn move (the WDL is then exact), within the tables' pieces.
    #[inline]
    pub fn wants(&self, pos: &Chess, depth: Depth) -> bool {
        depth >= self.depth
            && pos.halfmoves() == 0
            && pos.board().occupied().count() <= self.pieces
            && !pos.castles().any()
    }

    /// The value of `pos` at `ply` from the root, if the tables know it.
    pub fn value(&self, pos: &Chess, ply: Ply) -> Option<TbValue> {
        let wdl = self.tables.wdl(pos)?;
        Some(wdl_value(wdl, ply, self.fifty_move_rule))
    }
}

/// The search value of a WDL result `ply` plies from the root: wins and
/// losses in the tablebase band (lower and upper bounds: a mate may be
/// nearer), draws exact. Under the fifty-move rule cursed wins and blessed
/// losses are draws by a hair (Stockfish's ±2).
pub fn wdl_value(wdl: Wdl, ply: Ply, rule: FiftyMoveRule) -> TbValue {
    let counted = rule == FiftyMoveRule::Counted;
    let (score, bound) = match wdl {
        Wdl::Win => (Score::tb_win_in(ply), Bound::Lower),
        Wdl::CursedWin if !counted => (Score::tb_win_in(ply), Bound::Lower),
        Wdl::CursedWin => (Score(2), Bound::Exact),
        Wdl::Draw => (Score::DRAW, Bound::Exact),
        Wdl::BlessedLoss if counted => (Score(-2), Bound::Exact),
        Wdl::BlessedLoss | Wdl::Loss => (Score::tb_loss_in(ply), Bound::Upper),
    };
    TbValue { score, bound }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn wins_and_losses_bound_and_draws_are_exact() {
        let counted = FiftyMoveRule::Counted;
        let v = wdl_value(Wdl::Win, 3, counted);
        assert_eq!((v.score, v.bound), (Score::tb_win_in(3), Bound::Lower));
        let v = wdl_value(Wdl::Loss, 3, counted);
        assert_eq!((v.score, v.bound), (Score::tb_loss_in(3), Bound::Upper));
        assert_eq!(wdl_value(Wdl::Draw, 3, counted).bound, Bound::Exact);
        assert_eq!(wdl_value(Wdl::CursedWin, 3, counted).score, Score(2));
        let ignored = FiftyMoveRule::Ignored;
        assert_eq!(
            wdl_value(Wdl::CursedWin, 3, ignored).score,
            Score::tb_win_in(3)
        );
        assert_eq!(
            wdl_value(Wdl::BlessedLoss, 3, ignored).score,
            Score::tb_loss_in(3)
        );
    }

    #[test]
    fn the_search_probes_only_after_zeroing_moves_within_the_limit() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let tables = Tablebases::load(dir).tables.expect("the test tables");
        let mut config = SyzygyConfig {
            tables: Some(tables),
            ..SyzygyConfig::default()
        };
        let probe = config.search_probe().unwrap();
        let fresh = Board::from_fen("8/8/8/4k3/8/8/8/3QK3 b - - 0 1").unwrap();
        let later = Board::from_fen("8/8/8/4k3/8/8/8/3QK3 b - - 3 9").unwrap();
        assert!(probe.wants(fresh.pos(), 1));
        assert!(!probe.wants(later.pos(), 1));
        let v = probe.value(fresh.pos(), 2).unwrap();
        assert_eq!(v.score, Score::tb_loss_in(2));
        config.probe_limit = 2;
        assert!(!config.search_probe().unwrap().wants(fresh.pos(), 1));
        config.probe_limit = 0;
        assert!(config.search_probe().is_none());
    }

    /// The search never probes a position with castling rights, Chess960
    /// ones included, even right after a zeroing move within the pieces.
    #[test]
    fn the_search_does_not_probe_with_castling_rights() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let tables = Tablebases::load(dir).tables.expect("the test tables");
        let config = SyzygyConfig {
            tables: Some(tables),
            ..SyzygyConfig::default()
        };
        let probe = config.search_probe().unwrap();
        // (with the right, the same without, Chess960?)
        for (fen, bare, chess960) in [
            (
                "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
                "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                false,
            ),
            (
                "4k3/8/8/8/8/8/8/1RK5 w B - 0 1",
                "4k3/8/8/8/8/8/8/1RK5 w - - 0 1",
                true,
            ),
            (
                "1r2k3/8/8/8/8/8/8/4K3 b b - 0 1",
                "1r2k3/8/8/8/8/8/8/4K3 b - - 0 1",
                true,
            ),
        ] {
            let board = Board::from_fen_960(fen, chess960).unwrap();
            assert!(!probe.wants(board.pos(), 10), "{fen}");
            let without = Board::from_fen_960(bare, chess960).unwrap();
            assert!(probe.wants(without.pos(), 10), "{bare}");
        }
    }
}
