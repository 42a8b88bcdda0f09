//! The accumulator refresh cache (a "Finny table"): for each side and each
//! of its views (king bucket and mirror), the last hidden sums made in that
//! view and the board they are of. A side whose king changes bucket or
//! crosses the mirror line starts from there and adds the pieces that
//! differ, instead of summing every piece from scratch.

use super::accumulator::{Changes, add_board, apply, difference};
use super::{KingBuckets, Layers, View};
use shakmaty::{Board, Color};

/// One view's last sums.
struct Entry<const H: usize> {
    board: Board,
    values: [i16; H],
}

/// The last sums of each side's views, for one network.
pub(super) struct RefreshCache<const H: usize> {
    /// Per side (`Color as usize`), per `View::slot`: none until used.
    entries: [Vec<Option<Entry<H>>>; 2],
}

impl<const H: usize> RefreshCache<H> {
    /// Empty, with room for every view of `kings`.
    pub(super) fn new(kings: KingBuckets) -> RefreshCache<H> {
        let side = || (0..2 * kings.count()).map(|_| None).collect();
        RefreshCache {
            entries: [side(), side()],
        }
    }

    /// Sets `out` to `side`'s sums of `board` in `view` (a view of `net`,
    /// the network this cache is for), made from the view's last sums by
    /// the pieces that differ, or from scratch when that is cheaper.
    #[inline(always)]
    pub(super) fn refresh(
        &mut self,
        net: &Layers<H>,
        side: Color,
        view: View,
        board: &Board,
        out: &mut [i16; H],
    ) {
        let Some(slot) = self.entries[side as usize].get_mut(view.slot()) else {
            // A view of another network: no entry, the sums from scratch.
            *out = net.input_bias;
            add_board(out, net, view, board);
            return;
        };
        match slot {
            Some(entry) if difference(&entry.board, board) < board.occupied().count() => {
                let changes = Changes::between(&entry.board, board);
                apply(&mut entry.values, None, net, view, &changes);
                entry.board = board.clone();
                *out = entry.values;
            }
            _ => {
                *out = net.input_bias;
                add_board(out, net, view, board);
                *slot = Some(Entry {
                    board: board.clone(),
                    values: *out,
                });
            }
        }
    }
}

#[cfg(test)]
impl<const H: usize> RefreshCache<H> {
    /// The board of `side`'s last sums in `view`, if any.
    pub(super) fn board(&self, side: Color, view: View) -> Option<&Board> {
        let entry = self.entries[side as usize].get(view.slot())?;
        entry.as_ref().map(|e| &e.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Accumulator;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        pos.board().clone()
    }

    /// Refreshes from an empty entry, from a near one and from a far one
    /// all give the sums from scratch.
    #[test]
    fn refreshed_sums_are_the_sums_from_scratch() {
        let mut half = [1u8; 32];
        half[..4].fill(0);
        let kings = KingBuckets::mirrored_half(half).unwrap();
        let net = Layers::<128>::random_with(21, 1, kings);
        let mut cache = RefreshCache::<128>::new(kings);
        for fen in [
            "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
            "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2Q1RK1 b kq - 1 14",
            "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
            "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R b KQkq - 0 14",
        ] {
            let board = board(fen);
            let expected = Accumulator::new(&net, &board);
            for side in [Color::Black, Color::White] {
                let view = net.views(&board)[side as usize];
                let mut out = [0i16; 128];
                cache.refresh(&net, side, view, &board, &mut out);
                assert_eq!(out, expected.values[side as usize], "{fen}, {side}");
            }
        }
    }
}
