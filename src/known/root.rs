//! Ranking the root moves by the tablebases: DTZ (WDL when a DTZ table is
//! missing) says which moves keep the root's result, so that the search,
//! choosing only among those, never turns a win into a draw or a draw into a
//! loss, and (under the fifty-move rule) converts a win in time.

use super::syzygy::{FiftyMoveRule, Tablebases};
use crate::board::Board;
use shakmaty::{Move, Position};
use shakmaty_syzygy::Wdl;

/// Ranks above every distance (Stockfish's MAX_DTZ).
const MAX_DTZ: i32 = 1 << 18;
/// Plies of the fifty-move rule.
const FIFTY_MOVES: i32 = 100;

/// The root's result by the tables, for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TbOutcome {
    Win,
    Draw,
    Loss,
}

/// Which table ranked the moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RankedBy {
    /// Distance to zeroing: wins are converted in time.
    Dtz,
    /// Win/draw/loss only (a DTZ table is missing): the result is kept.
    Wdl,
}

/// What the tables say about the root, and the moves that keep it.
#[derive(Clone, Debug)]
pub struct RootRanking {
    pub outcome: TbOutcome,
    pub ranked_by: RankedBy,
    /// The moves of the best rank (never empty), in the candidates' order.
    pub moves: Vec<Move>,
    /// Tablebase probes made.
    pub probes: u64,
}

impl RootRanking {
    /// Should the search still probe WDL in its nodes? Only when the moves
    /// were ranked by WDL alone and the root is won (Stockfish's rule: DTZ
    /// already steers the conversion, and a kept draw or loss needs no probe).
    pub fn search_probes(&self) -> bool {
        self.ranked_by == RankedBy::Wdl && self.outcome == TbOutcome::Win
    }
}

/// Ranks `candidates` (legal root moves) when the root is in the tables.
/// `None` when it is not (too many pieces, castling rights, a table missing).
pub fn rank_root_moves(
    board: &Board,
    tables: &Tablebases,
    candidates: &[Move],
    rule: FiftyMoveRule,
) -> Option<RootRanking> {
    let pos = board.pos();
    if candidates.is_empty()
        || pos.board().occupied().count() > tables.max_pieces()
        || pos.castles().any()
    {
        return None;
    }
    let mut probes = 0;
    let mut child = board.clone();
    let by_dtz: Option<Vec<i32>> = candidates
        .iter()
        .map(|&m| dtz_rank(board, &mut child, tables, m, &mut probes))
        .collect();
    let (ranks, ranked_by) = match by_dtz {
        Some(ranks) => (ranks, RankedBy::Dtz),
        None => {
            let ranks: Option<Vec<i32>> = candidates
                .iter()
                .map(|&m| wdl_rank(&mut child, tables, m, &mut probes))
                .collect();
            (ranks?, RankedBy::Wdl)
        }
    };
    let best = *ranks.iter().max()?;
    let win_bound = match rule {
        FiftyMoveRule::Counted => MAX_DTZ - FIFTY_MOVES,
        FiftyMoveRule::Ignored => 1,
    };
    let outcome = if best >= win_bound {
        TbOutcome::Win
    } else if best > -win_bound {
        TbOutcome::Draw
    } else {
        TbOutcome::Loss
    };
    let moves = candidates
        .iter()
        .zip(&ranks)
        .filter(|&(_, &r)| r == best)
        .map(|(&m, _)| m)
        .collect();
    Some(RootRanking {
        outcome,
        ranked_by,
        moves,
        probes,
    })
}

/// The DTZ rank of root move `m` (after Stockfish's `root_probe`): a win
/// ranks higher the sooner it zeroes, so that only the quickest wins are
/// kept and every move makes progress (an engine left to choose among all
/// winning moves can shuffle into a repetition); losses within the
/// fifty-move rule all rank the same, later ones above by their distance.
/// `child` is a scratch copy of `board`.
fn dtz_rank(
    board: &Board,
    child: &mut Board,
    tables: &Tablebases,
    m: Move,
    probes: &mut u64,
) -> Option<i32> {
    let clock = board.pos().halfmoves() as i32;
    child.play(m);
    let dtz = move_dtz(child, tables, probes);
    child.undo();
    let dtz = dtz?;
    Some(if dtz > 0 {
        MAX_DTZ - (dtz + clock)
    } else if dtz < 0 {
        if -dtz * 2 + clock < FIFTY_MOVES {
            -MAX_DTZ
        } else {
            -MAX_DTZ + (-dtz + clock)
        }
    } else {
        0
    })
}

/// The DTZ of the root after the move just played on `child`, for the side
/// that played it (plies to zeroing, that move counted).
fn move_dtz(child: &Board, tables: &Tablebases, probes: &mut u64) -> Option<i32> {
    let pos = child.pos();
    if pos.is_checkmate() {
        return Some(1);
    }
    *probes += 1;
    if pos.halfmoves() == 0 {
        return Some(match -tables.wdl(pos)? {
            Wdl::Win => 1,
            Wdl::CursedWin => 101,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -101,
            Wdl::Loss => -1,
        });
    }
    if child.is_draw() {
        return Some(0);
    }
    let dtz = -tables.dtz(pos)?.ignore_rounding().0;
    Some(dtz + dtz.signum())
}

/// The WDL rank of root move `m` (Stockfish's `root_probe_wdl`).
fn wdl_rank(child: &mut Board, tables: &Tablebases, m: Move, probes: &mut u64) -> Option<i32> {
    child.play(m);
    *probes += 1;
    let wdl = if child.pos().is_checkmate() {
        Some(Wdl::Win)
    } else if child.is_draw() {
        Some(Wdl::Draw)
    } else {
        tables.wdl(child.pos()).map(|w| -w)
    };
    child.undo();
    Some(match wdl? {
        Wdl::Win => MAX_DTZ,
        Wdl::CursedWin => MAX_DTZ - 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -MAX_DTZ + 101,
        Wdl::Loss => -MAX_DTZ,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(fen: &str, rule: FiftyMoveRule) -> (Board, RootRanking) {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let tables = Tablebases::load(dir).tables.expect("the test tables");
        let board = Board::from_fen(fen).unwrap();
        let moves = board.legal_moves().to_vec();
        let ranking = rank_root_moves(&board, &tables, &moves, rule).expect("in the tables");
        (board, ranking)
    }

    #[test]
    fn a_lost_queen_is_saved_only_by_the_capture() {
        let (board, r) = ranked("8/8/8/4k3/8/3r4/8/3QK3 b - - 0 1", FiftyMoveRule::Counted);
        assert_eq!(r.outcome, TbOutcome::Draw);
        let moves: Vec<String> = r.moves.iter().map(|&m| board.uci(m)).collect();
        assert_eq!(moves, ["d3d1"]);
        assert!(!r.search_probes());
    }

    #[test]
    fn a_win_past_the_fifty_move_rule_is_a_draw_only_when_it_counts() {
        // KQ v K with the clock at 90: no mate within 10 plies from here.
        let fen = "8/8/8/4k3/8/8/8/3QK3 w - - 90 80";
        assert_eq!(
            ranked(fen, FiftyMoveRule::Counted).1.outcome,
            TbOutcome::Draw
        );
        assert_eq!(
            ranked(fen, FiftyMoveRule::Ignored).1.outcome,
            TbOutcome::Win
        );
        let (_, r) = ranked("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", FiftyMoveRule::Counted);
        assert_eq!((r.outcome, r.ranked_by), (TbOutcome::Win, RankedBy::Dtz));
    }

    /// The tables know no position with castling rights (their results
    /// assume none): with a right, standard or Chess960 (the rook on b1
    /// beside the king, or in the corner), the root is not ranked; once the
    /// right is gone it is.
    #[test]
    fn castling_rights_keep_the_root_out_of_the_tables() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let tables = Tablebases::load(dir).tables.expect("the test tables");
        for (fen, chess960, rook_move) in [
            ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", false, "a1a2"),
            ("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", true, "b1b2"),
            ("4k3/8/8/8/8/8/8/1RK5 w B - 0 1", true, "b1b2"),
        ] {
            let mut board = Board::from_fen_960(fen, chess960).unwrap();
            assert!(board.legal_moves().iter().any(|m| m.is_castle()), "{fen}");
            let moves = board.legal_moves().to_vec();
            let rule = FiftyMoveRule::Counted;
            assert!(
                rank_root_moves(&board, &tables, &moves, rule).is_none(),
                "{fen}"
            );
            assert_eq!(tables.wdl(board.pos()), None, "{fen}");
            // The same pieces without the right: KR v K, a win.
            board.play_uci(rook_move).unwrap();
            board.play_uci("e8d7").unwrap();
            let moves = board.legal_moves().to_vec();
            let ranked = rank_root_moves(&board, &tables, &moves, rule).expect("in the tables");
            assert_eq!(ranked.outcome, TbOutcome::Win, "{fen}");
        }
    }
}
