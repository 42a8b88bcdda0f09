//! The per-thread network evaluator: one accumulator per ply of the search
//! line, each derived from the nearest one by the pieces that differ (no
//! hook into making moves: any two positions' difference is exact); a side
//! whose king changed bucket or mirror starts from the refresh cache.

use super::accumulator::{Changes, apply, difference};
use super::king_buckets::PLAIN_VIEWS;
use super::refresh_cache::RefreshCache;
use super::{Accumulator, Isa, Layers, Network};
use crate::score::MAX_PLY;
use shakmaty::{Board, Color};
use std::sync::Arc;

struct Slot<const H: usize> {
    board: Board,
    accumulator: Accumulator<H>,
}

/// The accumulators of one width, a slot per ply, and the refresh cache.
struct Plies<const H: usize> {
    slots: Vec<Option<Slot<H>>>,
    cache: RefreshCache<H>,
}

/// Makes `target` the accumulator of `to` from `source`, that of `from`
/// (`None`: `target` itself is `from`'s). A side that sees `to` in the
/// view it saw `from` in takes the pieces that differ; a side whose king
/// changed bucket or mirror is refreshed from the cache.
#[inline(always)]
fn derive<const H: usize>(
    target: &mut Accumulator<H>,
    source: Option<&Accumulator<H>>,
    net: &Layers<H>,
    (from, to): (&Board, &Board),
    cache: &mut RefreshCache<H>,
) {
    let changes = Changes::between(from, to);
    if net.kings.is_none() {
        // Every accumulator is in the plain views: both sides take the
        // changes, each in a view known here (as fast as before king buckets).
        for side in [Color::Black, Color::White] {
            let i = side as usize;
            let source = source.map(|s| &s.values[i]);
            apply(&mut target.values[i], source, net, PLAIN_VIEWS[i], &changes);
        }
        return;
    }
    let views = net.views(to);
    let before = source.map_or(target.views, |s| s.views);
    for side in [Color::Black, Color::White] {
        let i = side as usize;
        if before[i] == views[i] {
            let source = source.map(|s| &s.values[i]);
            apply(&mut target.values[i], source, net, views[i], &changes);
        } else {
            cache.refresh(net, side, views[i], to, &mut target.values[i]);
        }
    }
    target.views = views;
}

/// Makes `target` the accumulator of `board`, both sides from the cache.
#[inline(always)]
fn refresh<const H: usize>(
    target: &mut Accumulator<H>,
    net: &Layers<H>,
    board: &Board,
    cache: &mut RefreshCache<H>,
) {
    let views = net.views(board);
    for side in [Color::Black, Color::White] {
        let i = side as usize;
        cache.refresh(net, side, views[i], board, &mut target.values[i]);
    }
    target.views = views;
}

impl<const H: usize> Plies<H> {
    fn new(net: &Layers<H>) -> Plies<H> {
        Plies {
            slots: (0..=MAX_PLY + 1).map(|_| None).collect(),
            cache: RefreshCache::new(net.kings),
        }
    }

    /// `board`'s evaluation for `turn` at `ply`, its accumulator made from
    /// the nearest one, computed with the widest vectors this CPU has.
    // Always inlined: the five widths' copies are each a dispatch and a
    // call; out of line they cost a call more per evaluation.
    #[inline(always)]
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

    /// The accumulator of the slot at `ply` made from its own last one or
    /// the parent's, whichever differs less from `board`, or refreshed
    /// from the cache when both differ in as many inputs as it has pieces.
    #[inline(always)]
    fn evaluate_here(&mut self, net: &Layers<H>, board: &Board, turn: Color, ply: usize) -> i32 {
        let Plies { slots, cache } = self;
        let ply = ply.min(slots.len() - 1);
        let (above, rest) = slots.split_at_mut(ply);
        let here = &mut rest[0];
        let parent = above.last().and_then(Option::as_ref);
        let own = here.as_ref().map(|s| difference(&s.board, board));
        let from_parent = parent.map(|s| difference(&s.board, board));
        let scratch = board.occupied().count();
        match (own, from_parent) {
            (Some(o), p) if o <= p.unwrap_or(usize::MAX) && o < scratch => {
                let slot = here.as_mut().expect("an own slot");
                derive(
                    &mut slot.accumulator,
                    None,
                    net,
                    (&slot.board, board),
                    cache,
                );
                slot.board = board.clone();
            }
            (_, Some(p)) if p < scratch => {
                let parent = parent.expect("a parent slot");
                let boards = (&parent.board, board);
                match here {
                    Some(slot) => {
                        let source = Some(&parent.accumulator);
                        derive(&mut slot.accumulator, source, net, boards, cache);
                        slot.board = board.clone();
                    }
                    None => {
                        let mut accumulator = parent.accumulator.clone();
                        derive(&mut accumulator, None, net, boards, cache);
                        *here = Some(Slot {
                            board: board.clone(),
                            accumulator,
                        });
                    }
                }
            }
            _ => match here {
                Some(slot) => {
                    refresh(&mut slot.accumulator, net, board, cache);
                    slot.board = board.clone();
                }
                None => {
                    let mut accumulator = Accumulator {
                        values: [net.input_bias; 2],
                        views: net.views(board),
                    };
                    refresh(&mut accumulator, net, board, cache);
                    *here = Some(Slot {
                        board: board.clone(),
                        accumulator,
                    });
                }
            },
        }
        here.as_ref()
            .expect("filled above")
            .accumulator
            .evaluate(net, board, turn)
    }
}

/// The slots of the network's own width.
enum Slots {
    H128(Plies<128>),
    H256(Plies<256>),
    H512(Plies<512>),
    H768(Plies<768>),
    H1024(Plies<1024>),
}

/// One search thread's network evaluation: an accumulator per ply, each
/// made from the one a ply up (the parent) or its own last one (a sibling),
/// whichever differs less, or refreshed when that is cheaper.
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
        let slots = match &*net {
            Network::H128(l) => Slots::H128(Plies::new(l)),
            Network::H256(l) => Slots::H256(Plies::new(l)),
            Network::H512(l) => Slots::H512(Plies::new(l)),
            Network::H768(l) => Slots::H768(Plies::new(l)),
            Network::H1024(l) => Slots::H1024(Plies::new(l)),
        };
        NetworkEvaluator { net, slots }
    }

    /// The evaluation of `board` with `turn` to move, in centipawns for
    /// `turn`, reached at `ply` of the current line.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, turn: Color, ply: usize) -> i32 {
        match (&*self.net, &mut self.slots) {
            (Network::H128(net), Slots::H128(plies)) => plies.evaluate(net, board, turn, ply),
            (Network::H256(net), Slots::H256(plies)) => plies.evaluate(net, board, turn, ply),
            (Network::H512(net), Slots::H512(plies)) => plies.evaluate(net, board, turn, ply),
            (Network::H768(net), Slots::H768(plies)) => plies.evaluate(net, board, turn, ply),
            (Network::H1024(net), Slots::H1024(plies)) => plies.evaluate(net, board, turn, ply),
            // `new` makes the slots of the network's width; were they ever
            // not, the value from scratch is still right.
            (net, _) => net.evaluate(board, turn),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::king_buckets::examples;
    use crate::nnue::{KingBuckets, with_layers};
    use shakmaty::{CastlingMode, Chess, Position, Role, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn scratch(pos: &Chess) -> i32 {
        Network::embedded().evaluate(pos.board(), pos.turn())
    }

    /// Where the lines start: the game from the start, and two where the
    /// kings walk (castling still possible in the second).
    const STARTS: [&str; 3] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R3K2R w KQkq - 0 1",
        "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
    ];

    /// Networks of every width, with and without output and king buckets.
    fn networks() -> Vec<Network> {
        let kings = examples();
        vec![
            Network::H128(Layers::random(3, 1)),
            Network::H256(Layers::random(5, 1)),
            Network::H128(Layers::random(9, 8)),
            Network::H256(Layers::random(11, 3)),
            Network::H128(Layers::random_with(13, 8, kings[0])),
            Network::H256(Layers::random_with(15, 8, kings[1])),
            Network::H128(Layers::random_with(17, 1, kings[2])),
            Network::H512(Layers::random_with(19, 4, kings[3])),
            Network::H768(Layers::random_with(21, 8, kings[4])),
            Network::H1024(Layers::random_with(23, 8, kings[1])),
        ]
    }

    #[test]
    fn updates_along_a_line_match_evaluation_from_scratch() {
        let mut networks = networks();
        networks.push((*Network::embedded()).clone());
        for net in networks {
            let net = Arc::new(net);
            let mut crossings = 0;
            for start in STARTS {
                let mut evaluator = NetworkEvaluator::new(net.clone());
                crossings += walk_a_line(&net, start, |board, turn, ply| {
                    evaluator.evaluate(board, turn, ply)
                });
            }
            if net.kings().count() > 1 || net.kings().mirrored() {
                assert!(crossings > 20, "{net:?}: {crossings} view changes");
            }
        }
    }

    /// Plays a random line from `start`, a king move half the time when
    /// there is one, evaluating each position with `evaluate` at its ply,
    /// each also as a sibling of another move, then far jumps, against
    /// `net`'s evaluation from scratch; returns how often a side's view
    /// (king bucket or mirror) changed from one position to the next.
    fn walk_a_line(
        net: &Network,
        start: &str,
        mut evaluate: impl FnMut(&Board, Color, usize) -> i32,
    ) -> usize {
        let scratch = |pos: &Chess| net.evaluate(pos.board(), pos.turn());
        let views = |pos: &Chess| with_layers!(net, l => l.views(pos.board()));
        let mut pos = position(start);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize
        };
        let mut crossings = 0;
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let got = evaluate(pos.board(), pos.turn(), ply);
            assert_eq!(got, scratch(&pos), "{net:?}, ply {ply} of {start}");
            // A sibling: another move from the parent, evaluated at ply + 1.
            let sibling = pos.clone().play(moves[random() % moves.len()]).unwrap();
            let got = evaluate(sibling.board(), sibling.turn(), ply + 1);
            assert_eq!(got, scratch(&sibling), "{net:?}, sibling at ply {ply}");
            let kings: Vec<_> = moves.iter().filter(|m| m.role() == Role::King).collect();
            let next = if !kings.is_empty() && random() % 2 == 0 {
                *kings[random() % kings.len()]
            } else {
                moves[random() % moves.len()]
            };
            let before = views(&pos);
            pos = pos.play(next).unwrap();
            crossings += before
                .iter()
                .zip(views(&pos))
                .filter(|(a, b)| **a != *b)
                .count();
        }
        // Far jumps and plies past the end are from the cache, still exact.
        let other = position("8/8/4k3/8/8/3QK3/8/8 w - - 0 1");
        assert_eq!(evaluate(other.board(), other.turn(), 5), scratch(&other));
        assert_eq!(
            evaluate(other.board(), other.turn(), 10_000),
            scratch(&other)
        );
        crossings
    }

    #[test]
    fn every_instruction_set_this_cpu_has_gives_the_same_values() {
        let mut networks = networks();
        networks.push((*Network::embedded()).clone());
        for isa in Isa::supported() {
            for net in &networks {
                for start in STARTS {
                    with_layers!(net, l => walk_with(isa, net, l, start));
                }
            }
        }
        assert_eq!(Isa::supported().last(), Some(&Isa::best()));
    }

    fn walk_with<const H: usize>(isa: Isa, net: &Network, layers: &Layers<H>, start: &str) {
        let mut plies = Plies::new(layers);
        walk_a_line(net, start, |b, t, p| {
            plies.evaluate_with(isa, layers, b, t, p)
        });
    }

    /// A side's king crossing into another bucket leaves the other side's
    /// sums to the incremental update: after the move, the sums from the
    /// cache and from the update are each the sums from scratch.
    #[test]
    fn a_king_move_across_buckets_refreshes_its_own_side_only() {
        let kings = KingBuckets::new(std::array::from_fn(|sq| (sq / 8) as u8), 8, false).unwrap();
        let net = Layers::<128>::random_with(29, 1, kings);
        let before = position("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
        let after = position("4k3/8/8/8/8/8/3PK3/8 b - - 1 1");
        let mut plies = Plies::new(&net);
        plies.evaluate(&net, before.board(), before.turn(), 0);
        let (old, new) = (net.views(before.board()), net.views(after.board()));
        assert_ne!(old[Color::White as usize], new[Color::White as usize]);
        assert_eq!(old[Color::Black as usize], new[Color::Black as usize]);
        let got = plies.evaluate(&net, after.board(), after.turn(), 1);
        let expected = Accumulator::new(&net, after.board());
        assert_eq!(got, expected.evaluate(&net, after.board(), after.turn()));
        let slot = plies.slots[1].as_ref().unwrap();
        assert_eq!(slot.accumulator.values, expected.values);
        assert_eq!(slot.accumulator.views, new);
        // White's side went through the cache, whose entry for its new
        // view now holds the board after the move; Black's entry was left
        // at the first board (refreshed then, from an empty cache).
        let held = |side: Color| plies.cache.board(side, new[side as usize]);
        assert_eq!(held(Color::White), Some(after.board()));
        assert_eq!(held(Color::Black), Some(before.board()));
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
