//! `Board`: a `shakmaty::Chess` position plus what the search needs beside it —
//! the incrementally updated Zobrist (Polyglot) key, the key history of the game
//! and the search path, and the draw rules (repetition, fifty moves, material).

mod check;
mod key;

pub use check::{CheckSquares, gives_check};
pub use key::{full_key, next_key};

use crate::score::MAX_PLY;
use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, Move, MoveList, Position, PositionError,
    PositionErrorKinds,
};

/// How the key of a position treats en passant: only a legally capturable
/// en passant square is part of the position (FIDE repetition rules).
pub const EP_MODE: EnPassantMode = EnPassantMode::Legal;

/// Which repetitions end the game in a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum RepetitionRule {
    /// A position seen once since the search root (twofold), or twice in the
    /// game before it (threefold), is a draw: what engines play with.
    #[default]
    InSearch,
    /// Only the game before the root counts: a position that occurred twice
    /// there is a draw (threefold). The value is then a function of the
    /// position alone, as a transposition table assumes (Pure mode).
    GameHistoryOnly,
}

/// One entry of the board's stack: a position and its key.
#[derive(Clone, Debug)]
struct State {
    pos: Chess,
    key: u64,
    /// Was this position reached by a null move (the side to move passing)?
    after_null: bool,
}

/// A chess position with its game history. `play`/`undo` are copy-make over a
/// stack that is allocated once, so the search does not allocate.
#[derive(Clone, Debug)]
pub struct Board {
    stack: Vec<State>,
    /// Index in `stack` of the search root: repetitions at or after it are
    /// draws at twofold, earlier ones (game history) need threefold.
    root: usize,
    castling_mode: CastlingMode,
    /// Keys that occurred at least twice in the game up to the root, sorted.
    repeated_before_root: Vec<u64>,
}

const STACK_CAPACITY: usize = 1024;
/// Plies without a capture or pawn move after which the game is drawn.
const FIFTY_MOVE_PLIES: usize = 100;

impl Default for Board {
    fn default() -> Self {
        Board::new(Chess::default(), CastlingMode::Standard)
    }
}

impl Board {
    pub fn new(pos: Chess, castling_mode: CastlingMode) -> Board {
        let key = full_key(&pos);
        let mut stack = Vec::with_capacity(STACK_CAPACITY);
        stack.push(State {
            pos,
            key,
            after_null: false,
        });
        Board {
            stack,
            root: 0,
            castling_mode,
            repeated_before_root: Vec::new(),
        }
    }

    /// Parses a FEN (standard chess, or Chess960 when the castling rights
    /// need it; see `parse_fen`); errors are human-readable.
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        Board::from_fen_960(fen, false)
    }

    /// Parses a FEN, in Chess960 castling mode when `chess960` is set.
    pub fn from_fen_960(fen: &str, chess960: bool) -> Result<Board, String> {
        let (pos, mode) = parse_fen(fen, chess960)?;
        Ok(Board::new(pos, mode))
    }

    #[inline]
    fn top(&self) -> &State {
        self.stack.last().expect("board stack is never empty")
    }

    #[inline]
    pub fn pos(&self) -> &Chess {
        &self.top().pos
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.top().key
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.pos().turn()
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.castling_mode
    }

    /// Number of plies of game history (including the search path) on the stack.
    pub fn history_len(&self) -> usize {
        self.stack.len() - 1
    }

    /// A copy for a search: the game history only back to the last capture
    /// or pawn move (at most 100 plies: past that the fifty-move rule decides),
    /// which is all that repetitions can reach. A 12,000-ply game is copied to
    /// every search thread in microseconds instead of megabytes.
    pub fn search_copy(&self) -> Board {
        let last = self.stack.len() - 1;
        let reversible = (self.pos().halfmoves() as usize)
            .min(FIFTY_MOVE_PLIES)
            .min(last);
        let start = last - reversible;
        let mut stack = Vec::with_capacity(STACK_CAPACITY.max(reversible + 1 + MAX_PLY));
        stack.extend_from_slice(&self.stack[start..]);
        Board {
            stack,
            root: self.root.saturating_sub(start),
            castling_mode: self.castling_mode,
            repeated_before_root: self.repeated_before_root.clone(),
        }
    }

    /// Makes the current position the search root: later repetitions of
    /// positions reached from here count at twofold.
    pub fn set_root(&mut self) {
        self.root = self.stack.len() - 1;
        // The game so far, the root position included.
        let mut keys: Vec<u64> = self.stack[..=self.root].iter().map(|s| s.key).collect();
        keys.sort_unstable();
        self.repeated_before_root = keys
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        self.repeated_before_root.dedup();
    }

    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.pos().legal_moves()
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Plays a legal move (the caller guarantees legality).
    #[inline]
    pub fn play(&mut self, m: Move) {
        // The copy is made straight into its stack slot and played there:
        // building it on the side and pushing it would copy the position twice.
        let top = self.top();
        let child = State {
            pos: top.pos.clone(),
            key: top.key,
            after_null: false,
        };
        self.stack.push(child);
        let [parent, child] = self
            .stack
            .last_chunk_mut::<2>()
            .expect("a move was just pushed onto a non-empty stack");
        child.pos.play_unchecked(m);
        child.key = next_key(&parent.pos, &child.pos, parent.key, m);
    }

    /// The side to move passes (null-move pruning). Fails, leaving the board
    /// as it was, when passing is impossible (in check).
    pub fn play_null(&mut self) -> bool {
        let top = self.top();
        if top.pos.is_check() {
            return false;
        }
        let mut key = Zobrist64(top.key);
        key ^= Zobrist64::zobrist_for_white_turn();
        if let Some(sq) = top.pos.ep_square(EP_MODE) {
            key ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
        }
        match top.pos.clone().swap_turn() {
            Ok(pos) => {
                self.stack.push(State {
                    pos,
                    key: key.0,
                    after_null: true,
                });
                true
            }
            Err(_) => false,
        }
    }

    /// The position before the last move or null move (none at the start
    /// of the game).
    #[inline]
    pub fn parent(&self) -> Option<&Chess> {
        self.stack.len().checked_sub(2).map(|i| &self.stack[i].pos)
    }

    /// Was the current position reached by a null move?
    #[inline]
    pub fn after_null(&self) -> bool {
        self.top().after_null
    }

    /// Takes back the last move played with `play`.
    #[inline]
    pub fn undo(&mut self) {
        debug_assert!(self.stack.len() > 1, "undo past the start of the game");
        if self.stack.len() > 1 {
            self.stack.pop();
            if self.root >= self.stack.len() {
                self.root = self.stack.len() - 1;
            }
        }
    }

    /// Parses a move in UCI notation and plays it if it is legal.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, String> {
        let m = self.parse_uci(text)?;
        self.play(m);
        Ok(m)
    }

    /// Parses a move in UCI notation against this position.
    pub fn parse_uci(&self, text: &str) -> Result<Move, String> {
        let uci: shakmaty::uci::UciMove = text
            .parse()
            .map_err(|_| format!("malformed move '{text}'"))?;
        uci.to_move(self.pos())
            .map_err(|_| format!("illegal move '{text}'"))
    }

    /// A move in UCI notation for this board's castling mode.
    pub fn uci(&self, m: Move) -> String {
        m.to_uci(self.castling_mode).to_string()
    }

    pub fn fen(&self) -> String {
        shakmaty::fen::Fen::from_position(self.pos(), EnPassantMode::Legal).to_string()
    }

    /// Is the current position a draw by the fifty-move rule, insufficient
    /// material or repetition (twofold inside the search, threefold counting
    /// the game history)? Checkmate takes precedence over the fifty-move rule,
    /// which the caller handles by checking for mate first when it matters.
    pub fn is_draw(&self) -> bool {
        self.is_draw_by(RepetitionRule::InSearch)
    }

    /// `is_draw` with the given repetition rule.
    pub fn is_draw_by(&self, rule: RepetitionRule) -> bool {
        let pos = self.pos();
        if pos.halfmoves() >= 100 {
            // A checkmate delivered on the hundredth half-move still wins.
            return !(pos.is_check() && pos.legal_moves().is_empty());
        }
        let repeated = match rule {
            RepetitionRule::InSearch => self.is_repetition(),
            RepetitionRule::GameHistoryOnly => {
                self.repeated_before_root.binary_search(&self.key()).is_ok()
            }
        };
        repeated || pos.is_insufficient_material()
    }

    /// Repetition: the current key occurred before within the reversible
    /// moves, once since the root (twofold) or twice in all (threefold).
    pub fn is_repetition(&self) -> bool {
        let mut seen = 0;
        for i in self.earlier_occurrences() {
            if i >= self.root {
                return true;
            }
            seen += 1;
            if seen >= 2 {
                return true;
            }
        }
        false
    }

    /// The stack indices at which the current position occurred before,
    /// within the reversible moves (same side to move: every second ply
    /// from four back), the latest first.
    #[inline]
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.stack.len() - 1;
        let key = self.stack[n].key;
        let reversible = (self.stack[n].pos.halfmoves() as usize).min(n);
        (4..=reversible)
            .step_by(2)
            .map(move |back| n - back)
            .filter(move |&i| self.stack[i].key == key)
    }

    /// Has the game ended here by the rules, as a GUI or a match runner
    /// sees it: mate or stalemate, insufficient material, the fifty-move
    /// rule, or the third occurrence of the position (the game before the
    /// root and the moves since counted alike)?
    pub fn game_over_by_rule(&self) -> bool {
        let pos = self.pos();
        pos.halfmoves() >= 100
            || pos.is_insufficient_material()
            || self.occurrences() >= 3
            || pos.legal_moves().is_empty()
    }

    /// How often the current position has occurred within the reversible
    /// moves, this time included.
    fn occurrences(&self) -> usize {
        1 + self.earlier_occurrences().count()
    }

    /// Does the side to move have pieces other than pawns and the king?
    /// (Used to guard against zugzwang in null-move pruning.)
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        let b = self.pos().board();
        let ours = b.by_color(color);
        !((b.knights() | b.bishops() | b.rooks() | b.queens()) & ours).is_empty()
    }
}

/// Parses a FEN. Chess960 castling (moves written king takes rook) is used
/// when `chess960` is set or when the castling rights need it: standard
/// chess cannot castle with them (a king off the e-file, a rook off its
/// corner). The rights may be written either way, X-FEN (`KQkq`) or
/// Shredder-FEN (rook files, `HAha`). Errors are human-readable.
pub fn parse_fen(fen: &str, chess960: bool) -> Result<(Chess, CastlingMode), String> {
    let text = fen.trim();
    if text.is_empty() {
        return Err("empty FEN".into());
    }
    let parsed: Fen = text
        .parse()
        .map_err(|e| format!("invalid FEN '{text}': {e}"))?;
    check_halfmove_clock(text)?;
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::detect(parsed.as_setup())
    };
    let pos = to_position(parsed, mode).map_err(|e| format!("invalid FEN '{text}': {e}"))?;
    Ok((pos, mode))
}

/// The most a halfmove clock can show: the 75-move rule ends every game at
/// 150 plies without a capture or a pawn move.
pub const MAX_HALFMOVE_CLOCK: u64 = 150;

/// Refuses a halfmove clock (the fifth field) beyond `MAX_HALFMOVE_CLOCK`:
/// shakmaty would silently saturate 4294967296 to 4294967295.
fn check_halfmove_clock(text: &str) -> Result<(), String> {
    let Some(field) = text.split_whitespace().nth(4) else {
        return Ok(());
    };
    match field.parse::<u64>() {
        Ok(n) if n <= MAX_HALFMOVE_CLOCK => Ok(()),
        _ => Err(format!(
            "invalid FEN '{text}': halfmove clock '{field}' is not a number of plies in \
             0..={MAX_HALFMOVE_CLOCK} (the 75-move rule ends every game by then)"
        )),
    }
}

/// A position from a parsed FEN. Checks no last move could have given (two
/// aligned sliders) are tolerated: perft suites contain them and the move
/// generator handles them. More material than promotions allow (more than 8
/// pawns plus promoted pieces on a side) is refused: no game reaches it, and
/// it is what would let a position have more legal moves than the search's
/// fixed-size move lists hold.
fn to_position(fen: Fen, mode: CastlingMode) -> Result<Chess, String> {
    fen.into_position(mode)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| {
            let mut message = e.to_string();
            if e.kinds().contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
                message += " (a side has more pieces than its 8 pawns could have promoted to)";
            }
            message
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_move_key_matches_full_key() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let mut b = Board::from_fen(fen).unwrap();
            assert!(b.play_null());
            assert!(b.after_null());
            assert_eq!(b.key(), full_key(b.pos()));
            b.undo();
            assert_eq!(b.fen(), Board::from_fen(fen).unwrap().fen());
        }
        // No passing in check.
        let mut b = Board::from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").unwrap();
        assert!(!b.play_null());
        assert_eq!(b.history_len(), 0);
    }

    #[test]
    fn repetition_in_search_is_twofold_and_in_history_threefold() {
        let mut b = Board::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            b.play_uci(m).unwrap();
        }
        // Start position again, once before, all in game history.
        b.set_root();
        assert!(!b.is_repetition());
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            b.play_uci(m).unwrap();
        }
        // Third occurrence: a draw.
        assert!(b.is_repetition());
        let mut c = Board::default();
        c.set_root();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            c.play_uci(m).unwrap();
        }
        // Twofold after the root: a draw inside the search.
        assert!(c.is_repetition());
        // Not when only the game before the root counts.
        assert!(!c.is_draw_by(RepetitionRule::GameHistoryOnly));
        // The third occurrence in the first game counts under both rules.
        assert!(b.is_draw_by(RepetitionRule::GameHistoryOnly));
    }

    /// Chess960: a position seen before with other castling rights is
    /// another position (FIDE 9.2.3), not a repetition; with the same rights
    /// it repeats. Rooks and kings leave their squares and come back.
    #[test]
    fn repetitions_in_chess960_need_the_same_castling_rights() {
        let dfrc = crate::chess960::dfrc_fen(0, 959).unwrap();
        // (start, a cycle of moves that ends where it began, do the rights stay?)
        let cases = [
            // Rooks on the b- and g-files: each side's g-/b-file rook steps away.
            (
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                ["g1h1", "b8a8", "h1g1", "a8b8"],
                false,
            ),
            // King on the b-file beside its a-file rook: the kings step away.
            (
                "rk4r1/1ppppppp/8/8/8/8/1PPPPPPP/RK4R1 w GAga - 0 1",
                ["b1c1", "b8c8", "c1b1", "c8b8"],
                false,
            ),
            // A DFRC start, BBQNNRKR against RKRNNQBB (each king beside a
            // rook): the knights shuffle, the rights stay.
            (dfrc.as_str(), ["d1c3", "e8f6", "c3d1", "f6e8"], true),
        ];
        for (fen, cycle, rights_stay) in cases {
            let mut b = Board::from_fen_960(fen, true).unwrap();
            b.set_root();
            for m in cycle {
                b.play_uci(m).unwrap();
            }
            assert_eq!(b.fen().split(' ').next(), fen.split(' ').next());
            assert_eq!(b.is_repetition(), rights_stay, "{fen} after one cycle");
            for m in cycle {
                b.play_uci(m).unwrap();
            }
            // The rights are those of a cycle ago: a repetition either way.
            assert!(b.is_repetition(), "{fen} after two cycles");
            assert_eq!(b.occurrences(), if rights_stay { 3 } else { 2 }, "{fen}");
        }
    }

    /// Standard castling notation (e1g1) unless Chess960 is asked for or
    /// the castling rights need it, whichever way the FEN writes them.
    #[test]
    fn chess960_castling_only_when_asked_for_or_needed() {
        let cases = [
            // Rights of the corner rooks, the king on e1: standard chess.
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1g1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", false, "e1g1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true, "e1h1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", true, "e1h1"),
            // A king off the e-file, a rook off the corner: only Chess960.
            ("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", false, "b1h1"),
            ("4k3/8/8/8/8/8/8/RK5R w KQ - 0 1", false, "b1h1"),
            ("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", false, "e1f1"),
        ];
        for (fen, chess960, castle) in cases {
            let board = Board::from_fen_960(fen, chess960).unwrap();
            let kingside = board
                .legal_moves()
                .into_iter()
                .find(|m| m.is_castle() && m.to() > m.from().unwrap())
                .unwrap();
            assert_eq!(board.uci(kingside), castle, "{fen} {chess960}");
        }
    }

    #[test]
    fn fifty_moves_and_material() {
        assert!(
            Board::from_fen("8/8/8/4k3/8/8/4K3/8 w - - 0 1")
                .unwrap()
                .is_draw()
        );
        assert!(
            Board::from_fen("8/8/8/4k3/8/8/4K3/4R3 w - - 100 80")
                .unwrap()
                .is_draw()
        );
        assert!(
            !Board::from_fen("8/8/8/4k3/8/8/4K3/4R3 w - - 99 80")
                .unwrap()
                .is_draw()
        );
        // Mate on the hundredth half-move is still mate, not a draw.
        let mated = Board::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80").unwrap();
        assert!(mated.legal_moves().is_empty() && mated.in_check());
        assert!(!mated.is_draw());
    }

    #[test]
    fn bad_fen_is_an_error_not_a_panic() {
        assert!(Board::from_fen("").is_err());
        assert!(Board::from_fen("not a fen").is_err());
        assert!(Board::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0").is_ok());
    }

    #[test]
    fn a_search_copy_keeps_what_repetitions_need() {
        let mut b = Board::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"]
            .iter()
            .cycle()
            .take(4 * 300)
        {
            b.play_uci(m).unwrap();
        }
        // 1,200 plies of shuffling with no capture: the clock says 1,200, the
        // copy keeps 100 plies, and it still sees the start position repeat.
        let copy = b.search_copy();
        assert_eq!(copy.history_len(), 100);
        assert_eq!(copy.fen(), b.fen());
        assert_eq!(copy.key(), b.key());
        let mut b = Board::default();
        b.play_uci("e2e4").unwrap();
        for m in ["g8f6", "g1f3", "f6g8"] {
            b.play_uci(m).unwrap();
        }
        let mut copy = b.search_copy();
        assert_eq!(copy.history_len(), 3, "back to the pawn move");
        // The copy and the whole game agree on every repetition ahead.
        b.set_root();
        copy.set_root();
        let mut draws = 0;
        for m in ["f3g1", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6"] {
            b.play_uci(m).unwrap();
            copy.play_uci(m).unwrap();
            assert_eq!(copy.is_draw(), b.is_draw(), "after {m}");
            draws += usize::from(b.is_draw());
        }
        assert!(draws > 0);
    }

    #[test]
    fn absurd_halfmove_clocks_are_refused() {
        for clock in ["0", "99", "150"] {
            let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - {clock} 80");
            assert!(Board::from_fen(&fen).is_ok(), "{fen}");
        }
        for clock in ["151", "4294967296", "-1", "1e3"] {
            let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - {clock} 80");
            let err = Board::from_fen(&fen).expect_err(&fen);
            assert!(err.contains("halfmove clock"), "{err}");
        }
        // Four fields, no clocks: fine.
        assert!(Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").is_ok());
    }

    #[test]
    fn material_beyond_promotions_is_refused_and_promotions_are_not() {
        // 270 legal moves: more than any reachable position has.
        let err = Board::from_fen("kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1")
            .expect_err("28 white pieces");
        assert!(err.contains("too much material"), "{err}");
        // Nine pawns.
        assert!(Board::from_fen("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1").is_err());
        // Nine queens and every other piece, no pawn: what promotions allow (218 moves).
        let most = Board::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
        assert_eq!(most.legal_moves().len(), 218);
        // Three dark-squared bishops beside six pawns.
        assert!(Board::from_fen("4k3/8/8/8/8/B1B5/PPPPPP2/B3K3 w - - 0 1").is_ok());
        assert!(Board::from_fen("4k3/8/8/8/8/B1B5/PPPPPPP1/B3K3 w - - 0 1").is_err());
        // A check no last move could give is tolerated (perft suites have it).
        assert!(Board::from_fen("4k3/8/8/8/8/8/8/r3K2r w - - 0 1").is_ok());
    }

    #[test]
    fn bad_moves_are_errors() {
        let mut b = Board::default();
        assert!(b.play_uci("e2e5").is_err());
        assert!(b.play_uci("zz").is_err());
        assert!(b.play_uci("e2e4").is_ok());
        assert_eq!(b.history_len(), 1);
    }
}
