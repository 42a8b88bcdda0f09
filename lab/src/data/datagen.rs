//! Self-play games for tuning data: each game starts from an opening (or,
//! for a seeded share of the games, a double Fischer random start) plus a
//! few seeded random plies, is played by the engine's own search (one
//! thread, node or depth limits, a fresh table per game), adjudicated, and
//! the positions that pass `filters` are kept with the score of the search
//! that played from them and labelled with its result. Game `i` depends
//! only on the seed and `i`, so a run is reproducible whatever the thread count.

use crate::data::dfrc::random_dfrc;
use crate::data::filters::{UnkeptCounts, keep_scored_position};
use crate::data::packed::{Record, clamp_score};
use crate::data::sample::{GameResult, QuietCheck, format_line, keep_at_most};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};
use std::sync::Arc;
use stockman::board::Board;
use stockman::nnue::Network;
use stockman::rng::{SplitMix64, mix};
use stockman::score::{Depth, Score};
use stockman::search::{Evaluation, Limits, PvLength, ReusableSearch, SearchParams, search};

/// A score at least this large (centipawns, either way) ...
pub const RESIGN_SCORE: i32 = 1000;
/// ... for this many plies in a row (both sides agreeing) ends the game.
pub const RESIGN_PLIES: usize = 4;
/// From this ply on, a score within this many centipawns of zero ...
pub const DRAW_FROM_PLY: u32 = 60;
pub const DRAW_SCORE: i32 = 10;
/// ... for this many plies in a row is adjudicated a draw.
pub const DRAW_PLIES: usize = 10;
/// Random plies are drawn again (up to `OPENING_TRIES` times) when the
/// first search finds the position further than this from balanced.
pub const OPENING_MAX_SCORE: i32 = 300;
pub const OPENING_TRIES: u32 = 20;
/// Mixed into a game's seed for the draw that decides whether it starts
/// from a DFRC position: a stream of its own, so the other games are the
/// very games a run without DFRC plays.
const DFRC_CHOICE_STREAM: u64 = 0xdf5c_0000_0000_0001;

/// How long each move is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// No search goes past `hard` nodes; with `soft`, iterative deepening
    /// ends after the iteration that passed `soft` nodes.
    Nodes {
        soft: Option<u64>,
        hard: u64,
    },
    Depth(Depth),
}

/// Everything that decides the games of a run.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub openings: Vec<Chess>,
    pub limit: MoveLimit,
    pub seed: u64,
    /// The share of the games (0 to 100 %) that start from a double
    /// Fischer random position instead of an opening.
    pub dfrc_percent: u8,
    pub random_plies: u32,
    /// Games reaching this many plies (after the random ones) are drawn.
    pub max_plies: u32,
    pub hash_mb: usize,
    /// Keep at most this many of a game's positions, drawn with the game's
    /// random generator after the game (which it does not change).
    pub per_game: Option<usize>,
    /// The players' evaluation, and the network when it is `Network`.
    pub evaluation: Evaluation,
    pub network: Arc<Network>,
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Checkmate,
    Stalemate,
    /// Repetition, fifty moves or insufficient material.
    DrawRule,
    Resigned,
    DrawAdjudicated,
    MaxLength,
}

impl Ending {
    pub const ALL: [Ending; 6] = [
        Ending::Checkmate,
        Ending::Stalemate,
        Ending::DrawRule,
        Ending::Resigned,
        Ending::DrawAdjudicated,
        Ending::MaxLength,
    ];

    /// As the summary names it.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::DrawRule => "draw rule",
            Ending::Resigned => "resigned",
            Ending::DrawAdjudicated => "draw adjudicated",
            Ending::MaxLength => "max length",
        }
    }
}

/// A recorded position and the score of the engine's search of it (the
/// one that chose the move played from it), in centipawns for White. A
/// position whose search found a mate is not recorded at all; any other
/// score beyond ±`MAX_SCORE` (a tablebase result) is clamped to it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub pos: Chess,
    pub score: i16,
}

impl Recorded {
    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }
}

/// One played game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub result: GameResult,
    pub ending: Ending,
    /// Plies played after the random ones.
    pub plies: u32,
    /// The positions recorded, in game order.
    pub positions: Vec<Recorded>,
    /// Did it start from a double Fischer random position?
    pub dfrc: bool,
    /// The positions the filters left out, by reason ...
    pub unkept: UnkeptCounts,
    /// ... and those that passed them but `per_game` did not choose.
    pub not_chosen: u64,
}

impl GameRecord {
    /// The data lines of the game (`<FEN> [result]`: no score).
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.positions
            .iter()
            .map(|p| format_line(&p.fen(), self.result))
    }

    /// The binary records of the game: position, score and result.
    pub fn records(&self) -> impl Iterator<Item = Record> + '_ {
        self.positions
            .iter()
            .map(|p| Record::of(&p.pos, Some(p.score), Some(self.result)))
    }
}

/// Searches one move with the game's table and ordering tables.
struct Player {
    search: ReusableSearch,
    params: SearchParams,
    limits: Limits,
}

impl Player {
    fn new(cfg: &SelfPlay) -> Result<Player, String> {
        let mut limits = Limits::default();
        match cfg.limit {
            MoveLimit::Nodes { soft, hard } => {
                limits.nodes = Some(hard);
                limits.soft_nodes = soft;
            }
            MoveLimit::Depth(d) => limits.depth = Some(d),
        }
        Ok(Player {
            search: ReusableSearch::new(cfg.hash_mb)?,
            params: SearchParams {
                move_overhead_ms: 0,
                evaluation: cfg.evaluation,
                network: Arc::clone(&cfg.network),
                // Only the move and the score are read: no searches to
                // lengthen a PV nobody sees.
                pv_length: PvLength::AsSearched,
                ..SearchParams::default()
            },
            limits,
        })
    }

    /// A fresh game: empty table and ordering tables.
    fn new_game(&mut self) {
        self.search.clear();
    }

    /// The best move and its score (side to move); the position has moves.
    fn think(&mut self, board: &Board) -> (shakmaty::Move, Score) {
        let (params, limits) = (&self.params, &self.limits);
        let result = self.search.run(board, params.mode, |s| {
            search(s, params, limits, &mut |_| {})
        });
        let best = result.best_move.unwrap_or_else(|| board.legal_moves()[0]);
        (best, result.score)
    }
}

/// One worker's memory for playing the games of a run one after another:
/// the player's table and ordering tables and the quietness test's,
/// allocated once. Each game starts from them cleared, as if new, so a game
/// depends on its number alone, whichever worker plays it and whatever it
/// played before.
pub struct SelfPlayer<'a> {
    cfg: &'a SelfPlay,
    player: Player,
    quiet: QuietCheck,
}

impl<'a> SelfPlayer<'a> {
    pub fn new(cfg: &'a SelfPlay) -> Result<SelfPlayer<'a>, String> {
        Ok(SelfPlayer {
            cfg,
            player: Player::new(cfg)?,
            quiet: QuietCheck::new(),
        })
    }

    /// Plays game `index` of the run.
    pub fn play(&mut self, index: u64) -> Result<GameRecord, String> {
        let cfg = self.cfg;
        let game_seed = mix(cfg.seed ^ mix(index.wrapping_add(1)));
        let dfrc = is_dfrc_game(cfg.dfrc_percent, game_seed);
        if cfg.openings.is_empty() && !dfrc {
            return Err("no opening positions".into());
        }
        self.quiet.clear();
        let mut rng = SplitMix64::new(game_seed);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut board = draw_start(cfg, dfrc, &mut rng);
            if random_plies(&mut board, cfg.random_plies, &mut rng).is_none() {
                if attempt >= OPENING_TRIES * 4 {
                    return Err("no playable start position after the random plies".into());
                }
                continue;
            }
            self.player.new_game();
            // Only drawn starts can be drawn again; given openings are played as they are.
            let picky = (cfg.random_plies > 0 || dfrc) && attempt < OPENING_TRIES;
            if let Some(mut record) =
                play_from(cfg, &mut self.player, &mut self.quiet, board, picky)
            {
                record.dfrc = dfrc;
                if let Some(n) = cfg.per_game {
                    let passed = record.positions.len();
                    keep_at_most(&mut record.positions, n, &mut rng);
                    record.not_chosen = (passed - record.positions.len()) as u64;
                }
                return Ok(record);
            }
        }
    }
}

/// Is the game drawn by rule: threefold repetition, fifty moves or
/// insufficient material?
fn drawn_by_rule(board: &Board) -> bool {
    let mut b = board.clone();
    // With the root here, only threefold repetitions of the game count.
    b.set_root();
    b.is_draw()
}

/// Plays `count` seeded random legal plies; `None` when the game ends first.
fn random_plies(board: &mut Board, count: u32, rng: &mut SplitMix64) -> Option<()> {
    for _ in 0..count {
        let moves = board.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let i = rng.in_range(0, moves.len() as i64 - 1) as usize;
        board.play(moves[i]);
    }
    (!board.legal_moves().is_empty() && !drawn_by_rule(board)).then_some(())
}

/// The outcome of the consecutive White-point-of-view scores so far, if
/// they adjudicate the game.
fn adjudicate(scores: &[i32], ply: u32) -> Option<(GameResult, Ending)> {
    let last = |n: usize| {
        scores
            .get(scores.len().saturating_sub(n)..)
            .filter(|s| s.len() == n)
    };
    if let Some(tail) = last(RESIGN_PLIES) {
        if tail.iter().all(|&s| s >= RESIGN_SCORE) {
            return Some((GameResult::WhiteWins, Ending::Resigned));
        }
        if tail.iter().all(|&s| s <= -RESIGN_SCORE) {
            return Some((GameResult::BlackWins, Ending::Resigned));
        }
    }
    if ply >= DRAW_FROM_PLY
        && let Some(tail) = last(DRAW_PLIES)
        && tail.iter().all(|&s| s.abs() <= DRAW_SCORE)
    {
        return Some((GameResult::Draw, Ending::DrawAdjudicated));
    }
    None
}

/// Does game `index` (whose seed is `game_seed`) start from a DFRC position?
fn is_dfrc_game(percent: u8, game_seed: u64) -> bool {
    percent > 0
        && SplitMix64::new(game_seed ^ DFRC_CHOICE_STREAM).in_range(0, 99) < i64::from(percent)
}

/// A start before the random plies: a DFRC position, or one of the openings.
fn draw_start(cfg: &SelfPlay, dfrc: bool, rng: &mut SplitMix64) -> Board {
    if dfrc {
        return Board::new(random_dfrc(rng), CastlingMode::Chess960);
    }
    let opening = &cfg.openings[rng.in_range(0, cfg.openings.len() as i64 - 1) as usize];
    Board::new(opening.clone(), CastlingMode::Standard)
}

/// Plays game `index` of the run with memory of its own (a worker keeps
/// its memory in a `SelfPlayer` instead).
pub fn play_game(cfg: &SelfPlay, index: u64) -> Result<GameRecord, String> {
    SelfPlayer::new(cfg)?.play(index)
}

/// Plays a game from `board`; `None` when `picky` and the start is too
/// unbalanced.
fn play_from(
    cfg: &SelfPlay,
    player: &mut Player,
    quiet: &mut QuietCheck,
    mut board: Board,
    picky: bool,
) -> Option<GameRecord> {
    let mut game = GameSoFar::default();
    let mut ply = 0;
    let (result, ending) = loop {
        if let Some(over) = game_over(&board, ply, cfg.max_plies) {
            break over;
        }
        let (best, score) = player.think(&board);
        if ply == 0 && picky && score.0.abs() > OPENING_MAX_SCORE {
            return None;
        }
        game.note(ply, &board, best, score, quiet);
        if let Some(adjudicated) = adjudicate(&game.white_scores, ply) {
            break adjudicated;
        }
        board.play(best);
        ply += 1;
    };
    Some(GameRecord {
        result,
        ending,
        plies: ply,
        positions: game.positions,
        dfrc: false,
        unkept: game.unkept,
        not_chosen: 0,
    })
}

/// The end of the game before the move of `ply`, if it has one: mate,
/// stalemate, a draw by rule, or the length limit.
fn game_over(board: &Board, ply: u32, max_plies: u32) -> Option<(GameResult, Ending)> {
    if board.legal_moves().is_empty() {
        return Some(if !board.in_check() {
            (GameResult::Draw, Ending::Stalemate)
        } else if board.turn().is_white() {
            (GameResult::BlackWins, Ending::Checkmate)
        } else {
            (GameResult::WhiteWins, Ending::Checkmate)
        });
    }
    if drawn_by_rule(board) {
        return Some((GameResult::Draw, Ending::DrawRule));
    }
    (ply >= max_plies).then_some((GameResult::Draw, Ending::MaxLength))
}

/// What a game in progress has gathered: the positions the filters kept,
/// with their scores, the count of those they left out, and every search
/// score from White's side (for adjudication).
#[derive(Default)]
struct GameSoFar {
    positions: Vec<Recorded>,
    unkept: UnkeptCounts,
    white_scores: Vec<i32>,
}

impl GameSoFar {
    /// Notes the search of `board` at `ply`: its best move and score.
    fn note(
        &mut self,
        ply: u32,
        board: &Board,
        best: shakmaty::Move,
        score: Score,
        quiet: &mut QuietCheck,
    ) {
        let white_score = if board.turn().is_white() {
            score.0
        } else {
            -score.0
        };
        match keep_scored_position(ply as usize, board, best, Some(score), quiet) {
            Ok(()) => self.positions.push(Recorded {
                pos: board.pos().clone(),
                score: clamp_score(white_score),
            }),
            Err(why) => self.unkept.count(why),
        }
        self.white_scores.push(white_score);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::dataset::parse_line;
    use crate::data::filters::RECORD_FROM_PLY;
    use crate::data::packed::MAX_SCORE;
    use shakmaty::Position;

    fn fens(g: &GameRecord) -> Vec<(String, i16)> {
        g.positions.iter().map(|p| (p.fen(), p.score)).collect()
    }

    fn config(nodes: u64) -> SelfPlay {
        SelfPlay {
            openings: vec![Chess::default()],
            limit: MoveLimit::Nodes {
                soft: None,
                hard: nodes,
            },
            seed: 7,
            dfrc_percent: 0,
            random_plies: 6,
            max_plies: 120,
            hash_mb: 1,
            per_game: None,
            evaluation: Evaluation::Network,
            network: Network::embedded(),
        }
    }

    #[test]
    fn a_kept_player_plays_each_game_as_a_fresh_one_would() {
        let cfg = SelfPlay {
            dfrc_percent: 50,
            ..config(300)
        };
        let fresh: Vec<GameRecord> = (0..4).map(|i| play_game(&cfg, i).unwrap()).collect();
        // One player, the games in another order: each after another game.
        let mut kept = SelfPlayer::new(&cfg).unwrap();
        for i in (0..4).rev() {
            let g = kept.play(i as u64).unwrap();
            let f = &fresh[i];
            assert_eq!(fens(&g), fens(f), "game {i}");
            assert_eq!(
                (g.result, g.ending, g.plies, g.dfrc),
                (f.result, f.ending, f.plies, f.dfrc)
            );
            assert_eq!(g.unkept, f.unkept, "game {i}");
        }
    }

    #[test]
    fn tiny_games_give_labelled_quiet_positions_and_repeat_exactly() {
        let cfg = config(200);
        let a: Vec<GameRecord> = (0..2).map(|i| play_game(&cfg, i).unwrap()).collect();
        let b: Vec<GameRecord> = (0..2).map(|i| play_game(&cfg, i).unwrap()).collect();
        let mut lines = 0;
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(fens(x), fens(y));
            assert_eq!((x.result, x.ending, x.plies), (y.result, y.ending, y.plies));
            assert!(x.plies > 0);
            for line in x.lines() {
                let (fen, result) = parse_line(&line).unwrap().unwrap();
                assert_eq!(result, x.result.white_score());
                let board = Board::from_fen(&fen).unwrap();
                assert!(!board.in_check(), "{line}");
                lines += 1;
            }
            for (r, p) in x.records().zip(&x.positions) {
                let back = Record::unpack(&r.pack().unwrap()).unwrap();
                assert_eq!(back.position().unwrap().board(), p.pos.board());
                assert_eq!(back.result, Some(x.result));
                assert!(back.score == Some(p.score) && p.score.abs() <= MAX_SCORE);
            }
        }
        assert!(lines > 0);
        // At most 3 per game: a subset of the same game's positions, in
        // order, the same every time.
        let few = SelfPlay {
            per_game: Some(3),
            ..cfg.clone()
        };
        for (i, full) in a.iter().enumerate() {
            let g = play_game(&few, i as u64).unwrap();
            assert_eq!((g.result, g.plies), (full.result, full.plies));
            assert_eq!(g.positions.len(), full.positions.len().min(3));
            let full = fens(full);
            let mut rest = full.iter();
            assert!(fens(&g).iter().all(|p| rest.any(|q| q == p)));
            assert_eq!(fens(&play_game(&few, i as u64).unwrap()), fens(&g));
        }
        assert!(a.iter().any(|g| g.positions.len() > 3));
        // Another seed plays other games.
        let other = SelfPlay { seed: 8, ..cfg };
        assert_ne!(fens(&play_game(&other, 0).unwrap()), fens(&a[0]));
    }

    /// Every searched position is kept, left out by a filter, or not chosen.
    fn searched_positions(g: &GameRecord) -> u64 {
        let u = g.unkept;
        g.positions.len() as u64
            + u.opening
            + u.in_check
            + u.mate_score
            + u.noisy
            + u.not_quiet
            + g.not_chosen
    }

    #[test]
    fn every_searched_position_is_accounted_for() {
        let few = SelfPlay {
            per_game: Some(2),
            ..config(200)
        };
        for i in 0..2 {
            let g = play_game(&few, i).unwrap();
            let adjudicated = matches!(g.ending, Ending::Resigned | Ending::DrawAdjudicated);
            assert_eq!(
                searched_positions(&g),
                u64::from(g.plies + u32::from(adjudicated))
            );
            assert_eq!(g.unkept.opening, u64::from(RECORD_FROM_PLY));
            assert!(g.not_chosen > 0);
        }
    }

    #[test]
    fn a_seeded_share_of_the_games_starts_from_dfrc_and_the_others_stay_as_they_were() {
        let seed = |i: u64| mix(7 ^ mix(i + 1));
        let share = |p| (0..1000).filter(|&i| is_dfrc_game(p, seed(i))).count();
        assert_eq!((share(0), share(100)), (0, 1000));
        let tenth = share(10);
        assert!((60..=140).contains(&tenth), "{tenth}");
        // A game that is not DFRC is the game a run without DFRC plays.
        let mixed = SelfPlay {
            dfrc_percent: 50,
            ..config(200)
        };
        let plain = config(200);
        let (mut dfrc, mut same) = (0, 0);
        for i in 0..6 {
            let g = play_game(&mixed, i).unwrap();
            assert_eq!(g.dfrc, is_dfrc_game(50, seed(i)));
            if g.dfrc {
                dfrc += 1;
            } else {
                assert_eq!(fens(&g), fens(&play_game(&plain, i).unwrap()));
                same += 1;
            }
        }
        assert!(dfrc > 0 && same > 0, "{dfrc} {same}");
    }

    #[test]
    fn dfrc_games_repeat_and_their_fens_read_back_with_chess960_castling() {
        let all_dfrc = SelfPlay {
            dfrc_percent: 100,
            openings: Vec::new(),
            ..config(200)
        };
        let mut odd_castling = 0;
        for i in 0..4 {
            let g = play_game(&all_dfrc, i).unwrap();
            assert!(g.dfrc);
            assert_eq!(fens(&g), fens(&play_game(&all_dfrc, i).unwrap()));
            for p in &g.positions {
                let (back, _) = stockman::board::parse_fen(&p.fen(), false).unwrap();
                assert_eq!(back.board(), p.pos.board(), "{}", p.fen());
                assert_eq!(back.turn(), p.pos.turn());
                let rights = p.pos.castles().castling_rights();
                assert_eq!(back.castles().castling_rights(), rights, "{}", p.fen());
                let standard = shakmaty::Bitboard::CORNERS;
                odd_castling += usize::from(rights.any() && !standard.is_superset(rights));
            }
        }
        assert!(
            odd_castling > 0,
            "no position kept a Chess960 castling right"
        );
        // Without openings, a game that is not DFRC cannot start.
        let none = SelfPlay {
            openings: Vec::new(),
            ..config(200)
        };
        assert!(play_game(&none, 0).is_err());
    }

    #[test]
    fn a_soft_node_limit_plays_other_games_repeatably() {
        let soft = SelfPlay {
            limit: MoveLimit::Nodes {
                soft: Some(100),
                hard: 400,
            },
            ..config(400)
        };
        let g = play_game(&soft, 0).unwrap();
        assert_eq!(fens(&g), fens(&play_game(&soft, 0).unwrap()));
        assert_ne!(fens(&g), fens(&play_game(&config(400), 0).unwrap()));
    }

    #[test]
    fn adjudication_rules() {
        assert_eq!(adjudicate(&[1200, 1100, 1000], 30), None);
        assert_eq!(
            adjudicate(&[0, 1200, 1100, 1000, 1500], 30),
            Some((GameResult::WhiteWins, Ending::Resigned))
        );
        assert_eq!(
            adjudicate(&[-1000, -1200, -30000, -1000], 30),
            Some((GameResult::BlackWins, Ending::Resigned))
        );
        let level = [5; DRAW_PLIES];
        assert_eq!(adjudicate(&level, DRAW_FROM_PLY - 1), None);
        assert_eq!(
            adjudicate(&level, DRAW_FROM_PLY),
            Some((GameResult::Draw, Ending::DrawAdjudicated))
        );
        let mut almost = level;
        almost[0] = 11;
        assert_eq!(adjudicate(&almost, 100), None);
    }

    fn from_fen(fen: &str, nodes: u64) -> SelfPlay {
        SelfPlay {
            openings: vec![Board::from_fen(fen).unwrap().pos().clone()],
            random_plies: 0,
            ..config(nodes)
        }
    }

    #[test]
    fn games_end_by_the_rules() {
        let mate_in_one = from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1000);
        let g = play_game(&mate_in_one, 0).unwrap();
        assert_eq!(
            (g.result, g.ending, g.plies),
            (GameResult::WhiteWins, Ending::Checkmate, 1)
        );
        // Bare kings: no game to play.
        assert!(play_game(&from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 100), 0).is_err());
        let short = SelfPlay {
            max_plies: 3,
            ..config(100)
        };
        let g = play_game(&short, 0).unwrap();
        assert_eq!(
            (g.result, g.ending, g.plies),
            (GameResult::Draw, Ending::MaxLength, 3)
        );
    }
}
