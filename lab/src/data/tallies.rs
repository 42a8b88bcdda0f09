//! The tallies of a datagen run: games and positions written, results,
//! DFRC starts, how games ended and why positions were left out; summed
//! game by game and carried across a resumed run by its checkpoint.

use crate::data::datagen::{Ending, GameRecord};
use crate::data::filters::UnkeptCounts;
use crate::data::sample::GameResult;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Games that started from a double Fischer random position.
    pub dfrc_games: u64,
    /// Games by how they ended, in `Ending::ALL`'s order.
    pub endings: [u64; Ending::ALL.len()],
    pub unkept: UnkeptCounts,
    /// Positions that passed the filters but `--per-game` did not choose.
    pub not_chosen: u64,
    /// PGN games left out: no result, or one that cannot be replayed.
    pub skipped: u64,
}

impl Totals {
    /// A game with `positions` written and its `result`.
    pub fn add(&mut self, result: GameResult, positions: usize) {
        self.games += 1;
        self.positions += positions as u64;
        *match result {
            GameResult::WhiteWins => &mut self.white_wins,
            GameResult::Draw => &mut self.draws,
            GameResult::BlackWins => &mut self.black_wins,
        } += 1;
    }

    /// A self-play game, written whole.
    pub fn add_game(&mut self, game: &GameRecord) {
        self.add(game.result, game.positions.len());
        self.dfrc_games += u64::from(game.dfrc);
        let ending = Ending::ALL.iter().position(|&e| e == game.ending);
        self.endings[ending.expect("every ending is listed")] += 1;
        self.unkept.add(&game.unkept);
        self.not_chosen += game.not_chosen;
    }

    /// `+W =D -L`.
    pub fn wdl(&self) -> String {
        format!("+{} ={} -{}", self.white_wins, self.draws, self.black_wins)
    }

    /// `checkmate 3, resigned 5, ...`: the endings that occurred.
    pub fn endings_text(&self) -> String {
        let seen: Vec<String> = Ending::ALL
            .iter()
            .zip(self.endings)
            .filter(|(_, n)| *n > 0)
            .map(|(e, n)| format!("{} {n}", e.name()))
            .collect();
        seen.join(", ")
    }

    /// Why the positions searched but not written were left out.
    pub fn unkept_text(&self) -> String {
        format!(
            "{}, {} not chosen by --per-game",
            self.unkept.describe(),
            self.not_chosen
        )
    }

    /// Every count with a name of its own, for a checkpoint to write and
    /// read back.
    pub fn named_counts(&mut self) -> Vec<(String, &mut u64)> {
        let mut counts: Vec<(String, &mut u64)> = vec![
            ("games".into(), &mut self.games),
            ("positions".into(), &mut self.positions),
            ("white-wins".into(), &mut self.white_wins),
            ("draws".into(), &mut self.draws),
            ("black-wins".into(), &mut self.black_wins),
            ("dfrc-games".into(), &mut self.dfrc_games),
            ("not-chosen".into(), &mut self.not_chosen),
            ("skipped".into(), &mut self.skipped),
        ];
        for (ending, n) in Ending::ALL.iter().zip(&mut self.endings) {
            counts.push((format!("ending-{}", ending.name().replace(' ', "-")), n));
        }
        for (name, n) in self.unkept.fields_mut() {
            counts.push((format!("unkept-{name}"), n));
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::filters::Unkept;

    #[test]
    fn games_add_up_by_result_ending_and_reason() {
        let mut unkept = UnkeptCounts::default();
        unkept.count(Unkept::Noisy);
        let game = GameRecord {
            result: GameResult::Draw,
            ending: Ending::Stalemate,
            plies: 30,
            positions: Vec::new(),
            dfrc: true,
            unkept,
            not_chosen: 2,
        };
        let mut t = Totals::default();
        t.add_game(&game);
        t.add_game(&game);
        t.add(GameResult::WhiteWins, 7);
        assert_eq!((t.games, t.positions, t.dfrc_games), (3, 7, 2));
        assert_eq!(t.wdl(), "+1 =2 -0");
        assert_eq!(t.endings_text(), "stalemate 2");
        assert_eq!((t.unkept.noisy, t.not_chosen), (2, 4));
        assert!(t.unkept_text().ends_with("4 not chosen by --per-game"));
        let names: Vec<String> = t.named_counts().into_iter().map(|(n, _)| n).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert!(names.contains(&"ending-draw-adjudicated".to_string()));
        assert!(names.iter().all(|n| !n.contains(' ')), "{names:?}");
    }
}
