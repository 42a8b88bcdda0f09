//! Move ordering shared by every back end: the TT move first, then winning
//! captures (MVV-LVA, checked by SEE), killer moves, quiet moves by the
//! history heuristic (Schaeffer 1989), and losing captures last.

use super::capture_history::CaptureHistory;
use super::continuation::{ContinuationHistory, LineContext, PieceTo};
use super::escapes::{EscapeBonus, LesserAttacks};
use super::history::History;
use super::see::see_at_least;
use crate::eval::{SEE_VALUE, role_index};
use crate::score::{MAX_PLY, Ply};
use crate::search::tunables::CAPTURE_HISTORY_DIVISOR;
use crate::tp;
use crate::tt::PackedMove;
use arrayvec::ArrayVec;
use shakmaty::{Move, MoveList, Role, Square};

/// Sort keys of the stages; each stage's scores stay inside its band.
const TT_MOVE_KEY: i32 = 3_000_000;
const GOOD_CAPTURE_KEY: i32 = 2_000_000;
const KILLER_KEY: i32 = 1_000_000;
const COUNTER_MOVE_KEY: i32 = 999_999;
const BAD_CAPTURE_KEY: i32 = -2_000_000;

/// Two killer moves per ply: quiet moves that recently caused a cutoff there.
pub struct Killers {
    table: [[Option<Move>; 2]; MAX_PLY + 1],
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            table: [[None; 2]; MAX_PLY + 1],
        }
    }
}

impl Killers {
    pub fn get(&self, ply: Ply) -> [Option<Move>; 2] {
        self.table[ply.min(MAX_PLY)]
    }

    pub fn record(&mut self, ply: Ply, m: Move) {
        let slot = &mut self.table[ply.min(MAX_PLY)];
        if slot[0] != Some(m) {
            slot[1] = slot[0];
            slot[0] = Some(m);
        }
    }

    pub fn clear(&mut self) {
        self.table = [[None; 2]; MAX_PLY + 1];
    }
}

/// Most valuable victim, least valuable attacker.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, |r| SEE_VALUE[role_index(r)]);
    let promo = m.promotion().map_or(0, |r| SEE_VALUE[role_index(r)]);
    let attacker = SEE_VALUE[role_index(m.role())];
    (victim + promo) * 16 - attacker / 16
}

/// A move's fields, read at once: each accessor of shakmaty's `Move`
/// matches on its kind again, and the picker asks several per move
/// (reading them once saved 3.2 % of `stockman bench`'s instructions).
#[derive(Copy, Clone)]
struct MoveParts {
    kind: u32,
    role: Role,
    from: Option<Square>,
    to: Square,
    capture: Option<Role>,
    promotion: Option<Role>,
}

impl MoveParts {
    #[inline(always)]
    fn of(m: Move) -> MoveParts {
        let (kind, role, from, to, capture, promotion) = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => (0, role, Some(from), to, capture, promotion),
            Move::EnPassant { from, to } => (1, Role::Pawn, Some(from), to, Some(Role::Pawn), None),
            Move::Castle { king, rook } => (2, Role::King, Some(king), rook, None, None),
            Move::Put { role, to } => (3, role, None, to, None, None),
        };
        MoveParts {
            kind,
            role,
            from,
            to,
            capture,
            promotion,
        }
    }

    /// `PackedMove::pack` of the move.
    #[inline(always)]
    fn packed(self) -> PackedMove {
        PackedMove::of_squares(self.from, self.to, self.promotion)
    }

    /// `is_tactical` of the move.
    #[inline(always)]
    fn is_tactical(self) -> bool {
        self.capture.is_some() || self.promotion == Some(Role::Queen)
    }

    /// The move as one number, equal for two moves exactly when the moves
    /// are equal (below `u32::MAX`, which stands for no move).
    #[inline(always)]
    fn identity(self) -> u32 {
        let role = |r: Option<Role>| r.map_or(0, |r| r as u32);
        let from = self.from.map_or(64, |s| s as u32);
        self.kind
            | (self.role as u32) << 2
            | from << 5
            | (self.to as u32) << 12
            | role(self.capture) << 18
            | role(self.promotion) << 21
    }
}

/// The capacity of shakmaty's `MoveList`: the most legal moves of any
/// position it accepts (a test checks the two agree).
pub const MAX_MOVES: usize = 270;

/// Hands out the legal moves of a node best-first. Keys are assigned once,
/// then each call picks the best remaining (moves after a cutoff are never
/// sorted). The keys sit in their own array beside the moves, so the scan for
/// the largest reads only them (measured: 7 % less CPU time for `bench`).
pub struct MovePicker {
    /// The move generator's own list type: it holds every move a node can have.
    moves: MoveList,
    keys: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

/// Whether a capture is kept, sorted as good or bad, by its exchange value.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum CaptureOrder {
    /// Good captures (SEE >= 0) before quiet moves, bad ones after.
    BySee,
    /// All captures by MVV-LVA only (no SEE).
    MvvLvaOnly,
}

/// What the picker needs to know of the node.
pub struct OrderingContext<'a> {
    pub pos: &'a shakmaty::Chess,
    pub tt_move: PackedMove,
    pub killers: [Option<Move>; 2],
    pub history: &'a History,
    /// The squares the opponent attacks (the history's threat cases).
    pub threats: shakmaty::Bitboard,
    /// Continuation history and the line it is read along.
    pub continuation: Option<(&'a ContinuationHistory, LineContext)>,
    /// The quiet reply that last refuted the previous move.
    pub counter_move: Option<Move>,
    pub captures: CaptureOrder,
    /// Orders captures of equal victims (MVV-LVA alone without it).
    pub capture_history: Option<&'a CaptureHistory>,
}

impl MovePicker {
    /// A picker with no moves yet; `fill` or `fill_tactical` scores them in
    /// place. Search nodes build their picker this way: returning a filled
    /// one by value copies its whole move array (kilobytes per node).
    pub const fn empty() -> MovePicker {
        MovePicker {
            moves: MoveList::new_const(),
            keys: ArrayVec::new_const(),
            next: 0,
        }
    }

    pub fn new(moves: &MoveList, ctx: &OrderingContext<'_>) -> MovePicker {
        let mut picker = MovePicker::empty();
        picker.fill(moves, ctx);
        picker
    }

    /// Replaces the moves with `moves`, scored for `ctx`.
    pub fn fill(&mut self, moves: &MoveList, ctx: &OrderingContext<'_>) {
        self.fill_with_escapes(moves, ctx, EscapeBonus::tuned());
    }

    /// `fill`, with `escape` for the quiet moves out of an attack.
    #[inline(always)]
    fn fill_with_escapes(
        &mut self,
        moves: &MoveList,
        ctx: &OrderingContext<'_>,
        escape: EscapeBonus,
    ) {
        let turn = shakmaty::Position::turn(ctx.pos);
        self.moves.clear();
        self.keys.clear();
        self.next = 0;
        let identity = |m: Option<Move>| m.map_or(u32::MAX, |m| MoveParts::of(m).identity());
        let killers = [identity(ctx.killers[0]), identity(ctx.killers[1])];
        let counter_move = identity(ctx.counter_move);
        // Worked out at the first quiet move that needs it.
        let mut lesser: Option<LesserAttacks> = None;
        for &m in moves {
            let parts = MoveParts::of(m);
            let key = if !ctx.tt_move.is_none() && parts.packed() == ctx.tt_move {
                TT_MOVE_KEY
            } else if parts.is_tactical() {
                let winning =
                    ctx.captures == CaptureOrder::MvvLvaOnly || see_at_least(ctx.pos, m, 0);
                let order = mvv_lva(m)
                    + ctx
                        .capture_history
                        .map_or(0, |h| h.get(turn, m) / tp!(CAPTURE_HISTORY_DIVISOR));
                if winning {
                    GOOD_CAPTURE_KEY + order
                } else {
                    BAD_CAPTURE_KEY + order
                }
            } else {
                let id = parts.identity();
                if id == killers[0] {
                    KILLER_KEY + 1
                } else if id == killers[1] {
                    KILLER_KEY
                } else if id == counter_move {
                    COUNTER_MOVE_KEY
                } else {
                    let from = parts.from.unwrap_or(parts.to);
                    let escaping = match parts.role {
                        Role::Pawn | Role::King => 0,
                        _ if !escape.any() => 0,
                        role => lesser
                            .get_or_insert_with(|| LesserAttacks::of(ctx.pos))
                            .escape_bonus(escape, role, from, parts.to),
                    };
                    escaping
                        + ctx.history.get_squares(turn, from, parts.to, ctx.threats)
                        + ctx.continuation.map_or(0, |(c, line)| {
                            c.get(&line, PieceTo::of_role(turn, parts.role, parts.to))
                        })
                }
            };
            self.moves.push(m);
            self.keys.push(key);
        }
    }

    /// Replaces the moves with the captures and promotions of `moves`, by
    /// MVV-LVA; with `skip_losing`, captures that lose material by SEE are
    /// left out.
    pub fn fill_tactical(&mut self, moves: &MoveList, pos: &shakmaty::Chess, skip_losing: bool) {
        self.moves.clear();
        self.keys.clear();
        self.next = 0;
        for &m in moves {
            if skip_losing && !see_at_least(pos, m, 0) {
                continue;
            }
            self.moves.push(m);
            self.keys.push(mvv_lva(m));
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        // The first of equal keys wins, and the best is swapped to the front.
        let keys = &self.keys[self.next..];
        let (mut best, mut top) = (0, *keys.first()?);
        for (i, &k) in keys.iter().enumerate().skip(1) {
            if k > top {
                (best, top) = (i, k);
            }
        }
        let best = self.next + best;
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::continuation::ContinuationHistory;
    use crate::search::tactical_moves::is_tactical;
    use shakmaty::Position;

    /// The ordering context of `pos` with no TT move, killers, counter move
    /// or continuation history, and `history` for the quiet moves.
    fn without_tables<'a>(pos: &'a shakmaty::Chess, history: &'a History) -> OrderingContext<'a> {
        OrderingContext {
            pos,
            tt_move: PackedMove::NONE,
            killers: [None, None],
            history,
            threats: shakmaty::Bitboard::EMPTY,
            continuation: None,
            counter_move: None,
            captures: CaptureOrder::BySee,
            capture_history: None,
        }
    }

    #[test]
    fn the_picker_holds_the_longest_move_list() {
        assert_eq!(MoveList::new().capacity(), MAX_MOVES);
        // 270 legal moves (the board refuses this material; shakmaty does not).
        let pos: shakmaty::Chess = "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_too_much_material)
            .unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), MAX_MOVES);
        let history = History::default();
        let ctx = without_tables(&pos, &history);
        assert_eq!(MovePicker::new(&moves, &ctx).count(), MAX_MOVES);
        let mut picker = MovePicker::empty();
        picker.fill_tactical(&moves, &pos, false);
        assert_eq!(picker.count(), MAX_MOVES, "it keeps what it is given");
    }

    /// The escape bonuses of the SPRT of 2026-12-07 (docs/results/matches.md).
    const TESTED_ESCAPES: EscapeBonus = EscapeBonus {
        queen: 32768,
        rook: 16384,
        minor: 8192,
    };

    /// The white queen on d4, attacked by the pawn on e5 and the knight on c6.
    const QUEEN_ATTACKED: &str = "r1bqkbnr/pppp2pp/2n5/4pp2/3Q4/8/PPP1PPPP/RNB1KBNR w KQkq - 0 4";

    /// The quiet moves of `fen` in the picker's order, with empty tables
    /// and `escape`.
    fn quiets_in_order(fen: &str, escape: EscapeBonus) -> Vec<String> {
        let board = Board::from_fen(fen).unwrap();
        let moves = board.legal_moves();
        let history = History::default();
        let ctx = without_tables(board.pos(), &history);
        let mut picker = MovePicker::empty();
        picker.fill_with_escapes(&moves, &ctx, escape);
        picker
            .filter(|&m| !is_tactical(m))
            .map(|m| board.uci(m))
            .collect()
    }

    /// A piece attacked by a lesser one is moved out of reach first: with
    /// empty tables the escapes come before every other quiet move, and a
    /// move to a square the lesser piece still attacks gains nothing.
    #[test]
    fn quiet_moves_that_take_a_piece_out_of_a_lesser_attack_come_first() {
        let queen = quiets_in_order(QUEEN_ATTACKED, TESTED_ESCAPES);
        let first = &queen[0];
        assert!(first.starts_with("d4"), "{queen:?}");
        let escapes = queen.iter().take_while(|m| m.starts_with("d4")).count();
        // Not to b4 (the knight), c5 (the bishop on f8), e4, f4, g4 (the
        // pawns on e5 and f5), b6 or d6 (the pawns on a7 and c7).
        for attacked in ["d4b4", "d4c5", "d4e4", "d4f4", "d4g4", "d4b6", "d4d6"] {
            let at = queen.iter().position(|m| m == attacked);
            assert!(at.is_none_or(|i| i >= escapes), "{attacked} in {queen:?}");
        }
        assert_eq!(escapes, 9, "{queen:?}");
        // A rook attacked by a knight: the rook's safe moves lead.
        let rook = quiets_in_order("4k3/8/8/8/2n5/8/R7/4K3 w - - 0 1", TESTED_ESCAPES);
        assert!(rook[0].starts_with("a2") && rook[0] != "a2a3", "{rook:?}");
        // A bishop attacked by a pawn.
        let bishop = quiets_in_order("4k3/8/8/2p5/3B4/8/8/4K3 w - - 0 1", TESTED_ESCAPES);
        assert!(
            bishop[0].starts_with("d4") && bishop[0] != "d4b6" && bishop[0] != "d4d6",
            "{bishop:?}"
        );
    }

    /// By default no escape gains anything: the picker orders the quiet
    /// moves as without the bonus (`ESCAPE_BONUS_*` wait for a decision).
    #[test]
    fn by_default_an_escape_is_ordered_by_its_history_alone() {
        let none = EscapeBonus {
            queen: 0,
            rook: 0,
            minor: 0,
        };
        assert!(!none.any() && TESTED_ESCAPES.any());
        assert_eq!(
            quiets_in_order(QUEEN_ATTACKED, EscapeBonus::tuned()),
            quiets_in_order(QUEEN_ATTACKED, none)
        );
        assert_ne!(
            quiets_in_order(QUEEN_ATTACKED, TESTED_ESCAPES),
            quiets_in_order(QUEEN_ATTACKED, none)
        );
    }

    /// perft through the move picker: it must lose and duplicate no move.
    fn picker_perft(board: &mut Board, depth: u32, history: &History) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = board.legal_moves();
        let tt_move = moves
            .first()
            .map_or(PackedMove::NONE, |&m| PackedMove::pack(m));
        let ctx = OrderingContext {
            pos: board.pos(),
            tt_move,
            killers: [moves.last().copied(), None],
            history,
            threats: shakmaty::Bitboard::EMPTY,
            continuation: None,
            counter_move: moves.get(1).copied(),
            captures: CaptureOrder::BySee,
            capture_history: None,
        };
        let picked: Vec<Move> = MovePicker::new(&moves, &ctx).collect();
        assert_eq!(picked.len(), moves.len());
        for m in &moves {
            assert_eq!(picked.iter().filter(|&&p| p == *m).count(), 1);
        }
        let mut n = 0;
        for m in picked {
            board.play(m);
            n += picker_perft(board, depth - 1, history);
            board.undo();
        }
        n
    }

    /// `MoveParts` reads what the `Move` accessors read, and its identity
    /// tells two moves apart exactly when they differ: over the legal moves
    /// of positions with castling (standard and Chess960), en passant and
    /// promotions, each against every other.
    #[test]
    fn move_parts_agree_with_the_move() {
        let mut fens: Vec<(&str, bool)> = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ]
        .iter()
        .map(|&f| (f, false))
        .collect();
        fens.extend(
            crate::chess960::CASTLING_POSITIONS
                .iter()
                .map(|&(_, f)| (f, true)),
        );
        let mut moves = Vec::new();
        for (fen, chess960) in fens {
            let b = Board::from_fen_960(fen, chess960).unwrap();
            for m in b.legal_moves() {
                let parts = MoveParts::of(m);
                assert_eq!(parts.packed(), PackedMove::pack(m), "{m}");
                assert_eq!(parts.is_tactical(), is_tactical(m), "{m}");
                assert_eq!(
                    (parts.role, parts.from, parts.to),
                    (m.role(), m.from(), m.to())
                );
                assert_eq!(
                    (parts.capture, parts.promotion),
                    (m.capture(), m.promotion())
                );
                assert!(parts.identity() < u32::MAX);
                moves.push(m);
            }
        }
        assert!(moves.iter().any(|m| m.is_castle()) && moves.iter().any(|m| m.is_en_passant()));
        for a in &moves {
            for b in &moves {
                let same = MoveParts::of(*a).identity() == MoveParts::of(*b).identity();
                assert_eq!(same, a == b, "{a} against {b}");
            }
        }
    }

    #[test]
    fn perft_through_picker_equals_plain_perft() {
        let history = History::default();
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                3,
                8902,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
                97862,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
        ];
        for (fen, depth, expected) in cases {
            let mut b = Board::from_fen(fen).unwrap();
            assert_eq!(picker_perft(&mut b, depth, &history), expected, "{fen}");
        }
    }

    #[test]
    fn order_is_tt_then_good_captures_then_killers_then_quiets_then_bad_captures() {
        // White: Qd1 can take a defended pawn on d5 (bad), Nc3xd5? no: e4xd5 (good).
        let b = Board::from_fen("4k3/8/2p5/3p4/4P3/8/8/3QK1N1 w - - 0 1").unwrap();
        let moves = b.legal_moves();
        let killer = b.parse_uci("g1f3").unwrap();
        let tt = b.parse_uci("e1f2").unwrap();
        let history = History::default();
        let ctx = OrderingContext {
            pos: b.pos(),
            tt_move: PackedMove::pack(tt),
            killers: [Some(killer), None],
            history: &history,
            threats: shakmaty::Bitboard::EMPTY,
            continuation: None,
            counter_move: None,
            captures: CaptureOrder::BySee,
            capture_history: None,
        };
        let order: Vec<String> = MovePicker::new(&moves, &ctx).map(|m| b.uci(m)).collect();
        assert_eq!(order[0], "e1f2");
        assert_eq!(order[1], "e4d5");
        assert_eq!(order[2], "g1f3");
        assert_eq!(order.last().unwrap(), "d1d5");
        assert_eq!(b.pos().legal_moves().len(), order.len());
    }

    /// The order of `b`'s legal moves under the given TT move, killers,
    /// counter move and histories (checked to hand out each move once).
    fn order_of(
        b: &Board,
        tt_move: PackedMove,
        killers: [Option<Move>; 2],
        counter_move: Option<Move>,
        history: &History,
        continuation: Option<(&ContinuationHistory, LineContext)>,
    ) -> Vec<Move> {
        let moves = b.legal_moves();
        let ctx = OrderingContext {
            pos: b.pos(),
            tt_move,
            killers,
            history,
            threats: shakmaty::Bitboard::EMPTY,
            continuation,
            counter_move,
            captures: CaptureOrder::BySee,
            capture_history: None,
        };
        let order: Vec<Move> = MovePicker::new(&moves, &ctx).collect();
        assert_eq!(order.len(), moves.len(), "{}", b.fen());
        assert!(moves.iter().all(|m| order.contains(m)), "{}", b.fen());
        order
    }

    /// Castling, which shakmaty writes as the king taking its own rook, is a
    /// quiet move to the ordering in every Chess960 shape: never among the
    /// captures (nor valued as one by SEE or MVV-LVA), and first of the quiet
    /// moves as the TT move, a killer, the counter move or the best of the
    /// butterfly and continuation histories.
    #[test]
    fn castling_is_ordered_as_the_quiet_move_it_is() {
        let mut castles = 0;
        for (what, fen) in crate::chess960::CASTLING_POSITIONS {
            let b = Board::from_fen_960(fen, true).unwrap();
            let (pos, turn) = (b.pos(), b.turn());
            let moves = b.legal_moves();
            let tactical = |m: &&Move| is_tactical(**m);
            let good = moves
                .iter()
                .filter(tactical)
                .filter(|m| see_at_least(pos, **m, 0))
                .count();
            let bad = moves.iter().filter(tactical).count() - good;
            let quiets: Vec<Move> = moves.iter().copied().filter(|m| !is_tactical(*m)).collect();
            let history = History::default();
            let at = |order: Vec<Move>, m: Move| order.iter().position(|&o| o == m).unwrap();
            for c in moves.iter().copied().filter(|m| m.is_castle()) {
                castles += 1;
                assert!(!is_tactical(c), "{what}");
                assert!(
                    see_at_least(pos, c, 0) && !see_at_least(pos, c, 1),
                    "{what}"
                );
                assert!(mvv_lva(c) < 0, "{what}: MVV-LVA counts no victim");
                let none = PackedMove::NONE;
                let plain = at(order_of(&b, none, [None; 2], None, &history, None), c);
                assert!((good..moves.len() - bad).contains(&plain), "{what}");
                let tt = order_of(&b, PackedMove::pack(c), [None; 2], None, &history, None);
                assert_eq!(tt[0], c, "{what}");
                let killer = order_of(&b, none, [Some(c), None], None, &history, None);
                assert_eq!(at(killer, c), good, "{what}");
                let counter = order_of(&b, none, [None; 2], Some(c), &history, None);
                assert_eq!(at(counter, c), good, "{what}");
                let mut rewarded = History::default();
                rewarded.reward(turn, c, &quiets, 10, shakmaty::Bitboard::EMPTY);
                let by_history = order_of(&b, none, [None; 2], None, &rewarded, None);
                assert_eq!(at(by_history, c), good, "{what}");
                let mut continuation = ContinuationHistory::default();
                let line = [Some(PieceTo::new(!turn, c)), None];
                continuation.reward(&line, turn, c, &quiets, 10);
                let line_context = Some((&continuation, line));
                let by_line = order_of(&b, none, [None; 2], None, &history, line_context);
                assert_eq!(at(by_line, c), good, "{what}");
            }
        }
        assert_eq!(castles, 12);
    }

    /// A castling move remembered from another position (a killer, counter
    /// or TT move) where it is illegal here (castling through an attacked
    /// square, off a shielding rook) is never handed out: the picker orders
    /// only the node's legal moves.
    #[test]
    fn a_castling_move_illegal_here_is_never_picked() {
        let history = History::default();
        for (what, fen) in crate::chess960::CASTLING_POSITIONS {
            let b = Board::from_fen_960(fen, true).unwrap();
            let Some(king) = b.pos().board().king_of(b.turn()) else {
                continue;
            };
            let rights = b.pos().castles().castling_rights() & b.pos().us();
            for rook in rights {
                let castle = Move::Castle { king, rook };
                let legal = b.legal_moves().contains(&castle);
                let order = order_of(
                    &b,
                    PackedMove::pack(castle),
                    [Some(castle), None],
                    Some(castle),
                    &history,
                    None,
                );
                assert_eq!(order.contains(&castle), legal, "{what}");
                assert_eq!(order[0] == castle, legal, "{what}");
            }
        }
    }
}
