//! The network's hidden layer for a position (`Accumulator`): both sides'
//! sums, each through the input weight set of its own king's bucket, made
//! from scratch or from another position's by the pieces that differ (the
//! kernels the evaluator and the refresh cache share).

use super::{Layers, View};
use arrayvec::ArrayVec;
use shakmaty::{Board, Color, Piece, Role, Square};

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

/// Both sides' hidden layers (index: `Color as usize`), before activation,
/// and the view each was summed in.
#[derive(Clone)]
pub struct Accumulator<const H: usize> {
    pub(super) values: [[i16; H]; 2],
    pub(super) views: [View; 2],
}

impl<const H: usize> Accumulator<H> {
    /// Computed from scratch.
    pub fn new(net: &Layers<H>, board: &Board) -> Accumulator<H> {
        let views = net.views(board);
        let mut values = [net.input_bias; 2];
        for (side, values) in values.iter_mut().enumerate() {
            add_board(values, net, views[side], board);
        }
        Accumulator { values, views }
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
}

/// Adds every piece of `board` to one side's `values`, seen through `view`.
// Wrapping arithmetic: the final sums fit in i16 (the trainer bounds the
// weights), so any intermediate wrap cancels out.
#[inline(always)]
pub(super) fn add_board<const H: usize>(
    values: &mut [i16; H],
    net: &Layers<H>,
    view: View,
    board: &Board,
) {
    let set = net.input_set(view);
    for (square, piece) in board {
        let row = &set[view.feature(piece, square)];
        for (v, w) in values.iter_mut().zip(row) {
            *v = v.wrapping_add(*w);
        }
    }
}

/// The most inputs in or out between two boards: every piece of one.
const MAX_CHANGES: usize = 32;

/// The (piece, square) inputs one board has and another has not.
pub(super) struct Changes {
    added: ArrayVec<(Piece, Square), MAX_CHANGES>,
    removed: ArrayVec<(Piece, Square), MAX_CHANGES>,
}

impl Changes {
    /// What turns `from` into `to`.
    #[inline(always)]
    pub(super) fn between(from: &Board, to: &Board) -> Changes {
        // Filled in place: lists built apart and then moved in cost a copy
        // of both on every evaluation.
        let mut changes = Changes {
            added: ArrayVec::new(),
            removed: ArrayVec::new(),
        };
        for piece in PIECES {
            let (before, after) = (from.by_piece(piece), to.by_piece(piece));
            // Both boards have at most 32 pieces: each list has room for
            // every one of them.
            let removed = (before & !after).into_iter().map(|square| (piece, square));
            changes.removed.extend(removed);
            let added = (after & !before).into_iter().map(|square| (piece, square));
            changes.added.extend(added);
        }
        changes
    }
}

/// Makes one side's `values` those of `source` (`None`: of `values`
/// itself) with `changes` applied, seen through `view`, which must be the
/// view both were summed in. The changes of one move (at most two inputs
/// in, two out) take one pass over the units; larger differences (a line
/// the slot has not followed) a pass per input.
#[inline(always)]
pub(super) fn apply<const H: usize>(
    values: &mut [i16; H],
    source: Option<&[i16; H]>,
    net: &Layers<H>,
    view: View,
    changes: &Changes,
) {
    // One bounds check for the set; a feature is below INPUTS by its
    // construction, so the loops below have no exit and keep the units in
    // registers across the rows.
    let set = net.input_set(view);
    let row = |&(piece, square): &(Piece, Square)| &set[view.feature(piece, square)];
    match (changes.added.as_slice(), changes.removed.as_slice()) {
        ([a], [r]) => fused(values, source, [row(a)], [row(r)]),
        ([a], [r, q]) => fused(values, source, [row(a)], [row(r), row(q)]),
        ([a, b], [r, q]) => fused(values, source, [row(a), row(b)], [row(r), row(q)]),
        (added, removed) => {
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
pub(super) fn difference(a: &Board, b: &Board) -> usize {
    PIECES
        .iter()
        .map(|&p| (a.by_piece(p) ^ b.by_piece(p)).count())
        .sum()
}
