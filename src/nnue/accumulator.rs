//! The network's hidden layer for a position (`Accumulator`) and the
//! per-thread evaluator that keeps one per ply of the search line, each
//! derived from the nearest one by the pieces that differ (no hook into
//! making moves: any two positions' difference is exact).

use super::{Isa, Layers, Network, feature};
use crate::score::MAX_PLY;
use arrayvec::ArrayVec;
use shakmaty::{Board, Color, Piece, Role, Square};
use std::sync::Arc;

/// The twelve kinds of piece.
const PIECES: [Piece; 12] = {
    let mut all = [Piece {
        color: Color::White,
        role: Role::Pawn,
    }; 12];
    let mut i = 0;
    while i < 12 {
        all[i] = Piece {
            color: if i < 6 { Color::White } else { Color::Black },
            role: Role::ALL[i % 6],
        };
        i += 1;
    }
    all
};

/// Both sides' hidden layers (index: `Color as usize`), before activation.
#[derive(Clone)]
pub struct Accumulator<const H: usize> {
    values: [[i16; H]; 2],
}

impl<const H: usize> Accumulator<H> {
    /// Computed from scratch.
    pub fn new(net: &Layers<H>, board: &Board) -> Accumulator<H> {
        let mut acc = Accumulator {
            values: [net.input_bias; 2],
        };
        for (square, piece) in board {
            acc.add(net, piece, square);
        }
        acc
    }

    /// The evaluation in centipawns for `turn` of `board`, the position
    /// this accumulator is of (its piece count picks the output layer).
    #[inline(always)]
    pub fn evaluate(&self, net: &Layers<H>, board: &Board, turn: Color) -> i32 {
        let bucket = net.bucket(board.occupied().count());
        net.output(
            &self.values[turn as usize],
            &self.values[(!turn) as usize],
            bucket,
        )
    }

    // Wrapping arithmetic: the final sums fit in i16 (the trainer bounds the
    // weights), so any intermediate wrap cancels out.
    #[inline(always)]
    fn add(&mut self, net: &Layers<H>, piece: Piece, square: Square) {
        for perspective in [Color::Black, Color::White] {
            let row = &net.input[feature(perspective, piece, square)];
            for (v, w) in self.values[perspective as usize].iter_mut().zip(row) {
                *v = v.wrapping_add(*w);
            }
        }
    }

    /// Makes this the accumulator of `to` from `source`, that of `from`
    /// (`None`: this one is `from`'s). The changes of one move (at most two
    /// inputs in, two out) take one pass over each side's units; larger
    /// differences (a line the slot has not followed) a pass per input.
    #[inline(always)]
    fn update(
        &mut self,
        source: Option<&Accumulator<H>>,
        net: &Layers<H>,
        from: &Board,
        to: &Board,
    ) {
        let mut added = ArrayVec::<(Piece, Square), MAX_CHANGES>::new();
        let mut removed = ArrayVec::<(Piece, Square), MAX_CHANGES>::new();
        for piece in PIECES {
            let (before, after) = (from.by_piece(piece), to.by_piece(piece));
            // Both boards have at most 32 pieces: each list has room for
            // every one of them.
            removed.extend((before & !after).into_iter().map(|square| (piece, square)));
            added.extend((after & !before).into_iter().map(|square| (piece, square)));
        }
        for perspective in [Color::Black, Color::White] {
            let row = |&(piece, square): &(Piece, Square)| {
                &net.input[feature(perspective, piece, square)]
            };
            let side = perspective as usize;
            let values = &mut self.values[side];
            let source = source.map(|s| &s.values[side]);
            match (added.as_slice(), removed.as_slice()) {
                ([a], [r]) => fused(values, source, [row(a)], [row(r)]),
                ([a], [r, q]) => fused(values, source, [row(a)], [row(r), row(q)]),
                ([a, b], [r, q]) => fused(values, source, [row(a), row(b)], [row(r), row(q)]),
                _ => {
                    if let Some(source) = source {
                        *values = *source;
                    }
                    added.iter().for_each(|c| fused(values, None, [row(c)], []));
                    removed
                        .iter()
                        .for_each(|c| fused(values, None, [], [row(c)]));
                }
            }
        }
    }
}

/// The most inputs in or out between two boards: every piece of one.
const MAX_CHANGES: usize = 32;

/// `values = source + Σ added − Σ removed` (`source`: `None` for `values`
/// itself), each unit loaded and stored once.
#[inline(always)]
fn fused<const H: usize, const A: usize, const R: usize>(
    values: &mut [i16; H],
    source: Option<&[i16; H]>,
    added: [&[i16; H]; A],
    removed: [&[i16; H]; R],
) {
    let change = |i: usize, mut v: i16| {
        for row in added {
            v = v.wrapping_add(row[i]);
        }
        for row in removed {
            v = v.wrapping_sub(row[i]);
        }
        v
    };
    match source {
        Some(source) => {
            for (i, (v, s)) in values.iter_mut().zip(source).enumerate() {
                *v = change(i, *s);
            }
        }
        None => {
            for (i, v) in values.iter_mut().enumerate() {
                *v = change(i, *v);
            }
        }
    }
}

/// The number of (piece, square) inputs that differ between two boards.
#[inline(always)]
fn difference(a: &Board, b: &Board) -> usize {
    PIECES
        .iter()
        .map(|&p| (a.by_piece(p) ^ b.by_piece(p)).count())
        .sum()
}

struct Slot<const H: usize> {
    board: Board,
    accumulator: Accumulator<H>,
}

/// The accumulators of one width, a slot per ply.
struct Plies<const H: usize> {
    slots: Vec<Option<Slot<H>>>,
}

impl<const H: usize> Plies<H> {
    fn new() -> Plies<H> {
        Plies {
            slots: (0..=MAX_PLY + 1).map(|_| None).collect(),
        }
    }

    /// `board`'s evaluation for `turn` at `ply`, its accumulator made from
    /// the nearest one, computed with the widest vectors this CPU has.
    #[inline]
    fn evaluate(&mut self, net: &Layers<H>, board: &Board, turn: Color, ply: usize) -> i32 {
        self.evaluate_with(Isa::best(), net, board, turn, ply)
    }

    /// `evaluate` with the kernels compiled for `isa`, which this CPU must
    /// have (`Isa::supported`); the value is the same for every one.
    #[inline(always)]
    fn evaluate_with(
        &mut self,
        isa: Isa,
        net: &Layers<H>,
        board: &Board,
        turn: Color,
        ply: usize,
    ) -> i32 {
        match isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `isa` is one of `Isa::supported()`, the CPU's own.
            Isa::Avx512 => unsafe { self.evaluate_avx512(net, board, turn, ply) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx2 => unsafe { self.evaluate_avx2(net, board, turn, ply) },
            _ => self.evaluate_here(net, board, turn, ply),
        }
    }

    /// `evaluate` compiled for AVX2: the same code, with 256-bit vectors.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn evaluate_avx2(&mut self, net: &Layers<H>, board: &Board, turn: Color, ply: usize) -> i32 {
        self.evaluate_here(net, board, turn, ply)
    }

    /// `evaluate` compiled for AVX-512 (F and BW): 512-bit vectors of i16.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn evaluate_avx512(&mut self, net: &Layers<H>, board: &Board, turn: Color, ply: usize) -> i32 {
        self.evaluate_here(net, board, turn, ply)
    }

    #[inline(always)]
    fn evaluate_here(&mut self, net: &Layers<H>, board: &Board, turn: Color, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let (above, rest) = self.slots.split_at_mut(ply);
        let here = &mut rest[0];
        let parent = above.last().and_then(Option::as_ref);
        let own = here.as_ref().map(|s| difference(&s.board, board));
        let from_parent = parent.map(|s| difference(&s.board, board));
        let scratch = board.occupied().count();
        match (own, from_parent) {
            (Some(o), p) if o <= p.unwrap_or(usize::MAX) && o < scratch => {
                let slot = here.as_mut().expect("an own slot");
                slot.accumulator.update(None, net, &slot.board, board);
                slot.board = board.clone();
            }
            (_, Some(p)) if p < scratch => {
                let parent = parent.expect("a parent slot");
                match here {
                    Some(slot) => {
                        slot.accumulator.update(
                            Some(&parent.accumulator),
                            net,
                            &parent.board,
                            board,
                        );
                        slot.board = board.clone();
                    }
                    None => {
                        let mut accumulator = parent.accumulator.clone();
                        accumulator.update(None, net, &parent.board, board);
                        *here = Some(Slot {
                            board: board.clone(),
                            accumulator,
                        });
                    }
                }
            }
            _ => {
                *here = Some(Slot {
                    board: board.clone(),
                    accumulator: Accumulator::new(net, board),
                })
            }
        }
        here.as_ref()
            .expect("filled above")
            .accumulator
            .evaluate(net, board, turn)
    }
}

/// The slots of the network's own width.
enum Slots {
    Narrow(Plies<128>),
    Wide(Plies<256>),
}

/// One search thread's network evaluation: an accumulator per ply, each
/// made from the one a ply up (the parent) or its own last one (a sibling),
/// whichever differs less, or from scratch when that is cheaper.
pub struct NetworkEvaluator {
    net: Arc<Network>,
    slots: Slots,
}

impl Default for NetworkEvaluator {
    fn default() -> Self {
        NetworkEvaluator::new(Network::embedded())
    }
}

impl NetworkEvaluator {
    /// The network this evaluator computes.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    pub fn new(net: Arc<Network>) -> NetworkEvaluator {
        let slots = match *net {
            Network::Narrow(_) => Slots::Narrow(Plies::new()),
            Network::Wide(_) => Slots::Wide(Plies::new()),
        };
        NetworkEvaluator { net, slots }
    }

    /// The evaluation of `board` with `turn` to move, in centipawns for
    /// `turn`, reached at `ply` of the current line.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, turn: Color, ply: usize) -> i32 {
        match (&*self.net, &mut self.slots) {
            (Network::Narrow(net), Slots::Narrow(plies)) => plies.evaluate(net, board, turn, ply),
            (Network::Wide(net), Slots::Wide(plies)) => plies.evaluate(net, board, turn, ply),
            // `new` makes the slots of the network's width; were they ever
            // not, the value from scratch is still right.
            (net, _) => net.evaluate(board, turn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn scratch(pos: &Chess) -> i32 {
        Network::embedded().evaluate(pos.board(), pos.turn())
    }

    #[test]
    fn updates_along_a_line_match_evaluation_from_scratch() {
        updates_match_scratch(Network::embedded());
        updates_match_scratch(Arc::new(Network::Narrow(Layers::random(3, 1))));
        updates_match_scratch(Arc::new(Network::Wide(Layers::random(5, 1))));
        // Captures move the line through the output buckets.
        updates_match_scratch(Arc::new(Network::Narrow(Layers::random(9, 8))));
        updates_match_scratch(Arc::new(Network::Wide(Layers::random(11, 3))));
    }

    fn updates_match_scratch(net: Arc<Network>) {
        let mut evaluator = NetworkEvaluator::new(net.clone());
        walk_a_line(&net, |board, turn, ply| {
            evaluator.evaluate(board, turn, ply)
        });
    }

    /// Evaluates a game's positions with `evaluate` at their plies, each
    /// also as a sibling of another move, then far jumps, against `net`'s
    /// evaluation from scratch.
    fn walk_a_line(net: &Network, mut evaluate: impl FnMut(&Board, Color, usize) -> i32) {
        let scratch = |pos: &Chess| net.evaluate(pos.board(), pos.turn());
        // A game with captures, castling, en passant and promotions, each
        // ply evaluated at its own ply and then again as a sibling.
        let mut pos = Chess::default();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let got = evaluate(pos.board(), pos.turn(), ply);
            assert_eq!(got, scratch(&pos), "ply {ply}");
            // A sibling: another move from the parent, evaluated at ply + 1.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let sibling = pos
                .clone()
                .play(moves[(seed as usize / 7) % moves.len()])
                .unwrap();
            let got = evaluate(sibling.board(), sibling.turn(), ply + 1);
            assert_eq!(got, scratch(&sibling), "sibling at ply {ply}");
            pos = pos.play(moves[seed as usize % moves.len()]).unwrap();
        }
        // Far jumps and plies past the end are from scratch, still exact.
        let other = position("8/8/4k3/8/8/3QK3/8/8 w - - 0 1");
        assert_eq!(evaluate(other.board(), other.turn(), 5), scratch(&other));
        assert_eq!(
            evaluate(other.board(), other.turn(), 10_000),
            scratch(&other)
        );
    }

    #[test]
    fn every_instruction_set_this_cpu_has_gives_the_same_values() {
        let narrow = Network::Narrow(Layers::random(13, 8));
        let wide = Network::embedded();
        for isa in Isa::supported() {
            let Network::Narrow(layers) = &narrow else {
                unreachable!()
            };
            let mut plies = Plies::<128>::new();
            walk_a_line(&narrow, |b, t, p| plies.evaluate_with(isa, layers, b, t, p));
            let Network::Wide(layers) = &*wide else {
                panic!("the built-in network is 256 wide")
            };
            let mut plies = Plies::<256>::new();
            walk_a_line(&wide, |b, t, p| plies.evaluate_with(isa, layers, b, t, p));
        }
        assert_eq!(Isa::supported().last(), Some(&Isa::best()));
    }

    #[test]
    fn the_network_knows_material() {
        let start = scratch(&Chess::default());
        assert!(start.abs() < 60, "start position {start}");
        let queen_up = scratch(&position(
            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        ));
        assert!(queen_up > 500, "a queen up: {queen_up}");
        let queen_down = scratch(&position(
            "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
        ));
        assert!(queen_down < -500, "a queen down: {queen_down}");
    }
}
