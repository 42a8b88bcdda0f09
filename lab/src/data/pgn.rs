//! Tuning data from existing games: PGN read by the `pgn-reader` crate
//! (tags, the main line's SAN moves and the comments after them, the result;
//! variations, NAGs, `%` escape lines and annotation glyphs are understood
//! and passed over), the engine score a move comment carries, and the
//! positions of a game that pass the same filters as self-play
//! (`filters`), labelled with its result.

use crate::data::filters::keep_position;
use crate::data::sample::{GameResult, QuietCheck};
use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::Move;
use std::ops::ControlFlow;
use stockman::board::Board;

/// The longest tag line read whole (the PGN standard's 255 bytes is short
/// for some sites' opening names and event titles).
const TAG_LINE_BYTES: usize = 4096;

/// One game as read: its tags and its main-line moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<SanPlus>,
    /// The comment after each move of `moves` (several joined by a space),
    /// if any; a comment before the first move is not kept.
    pub comments: Vec<Option<String>>,
    /// The result token that ended the movetext, if any.
    pub termination: Option<Outcome>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result from the `Result` tag, else from the movetext.
    pub fn result(&self) -> Option<GameResult> {
        self.tag("Result")
            .and_then(GameResult::from_pgn)
            .or_else(|| {
                self.termination
                    .and_then(|o| GameResult::from_pgn(o.as_str()))
            })
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.termination.is_none()
    }
}

/// Collects a game's tags, its main line, the comments after its moves and
/// its result; variations are skipped (the reader's default), NAGs ignored.
struct Collect;

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = PgnGame;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<PgnGame, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<PgnGame> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<PgnGame, PgnGame> {
        ControlFlow::Continue(PgnGame {
            tags,
            ..PgnGame::default()
        })
    }

    fn san(&mut self, game: &mut PgnGame, san_plus: SanPlus) -> ControlFlow<PgnGame> {
        game.moves.push(san_plus);
        game.comments.push(None);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut PgnGame, comment: RawComment<'_>) -> ControlFlow<PgnGame> {
        if let Some(last) = game.comments.last_mut() {
            let text = String::from_utf8_lossy(comment.as_bytes());
            let text = text.trim();
            match last {
                Some(before) => {
                    before.push(' ');
                    before.push_str(text);
                }
                None => *last = Some(text.to_string()),
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut PgnGame, outcome: Outcome) -> ControlFlow<PgnGame> {
        game.termination = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: PgnGame) -> PgnGame {
        game
    }
}

/// Every game of a PGN text. `Err` names the game that cannot be read (an
/// unterminated tag or comment).
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut reader = Reader::build(text.as_bytes())
        .set_supported_tag_line_length(TAG_LINE_BYTES)
        .finish();
    let mut games = Vec::new();
    loop {
        match reader.read_game(&mut Collect) {
            Ok(Some(game)) if game.is_empty() => {}
            Ok(Some(game)) => games.push(game),
            Ok(None) => return Ok(games),
            Err(e) => return Err(format!("game {}: {e}", games.len() + 1)),
        }
    }
}

/// The engine's score in a move comment, from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CommentScore {
    /// Centipawns (the comment gives pawns).
    Centipawns(i32),
    /// Mate in N moves (negative: the mover is mated).
    Mate(i32),
}

/// The score a move comment starts with, as engines and match runners write
/// it in pawns for the side that moved: fastchess and cutechess
/// `+0.12/14 0.333s` (score/depth time), OpenBench `+0.35 12/20 100 5000`
/// (score depth/seldepth time nodes), mates `+M5/12` or `-M3`. `None` for
/// a comment without one (`book`, `0.105s`, a note).
pub fn comment_score(comment: &str) -> Option<CommentScore> {
    let token = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|t| !t.is_empty())?;
    let score = token.split('/').next()?;
    let (sign, rest) = match score.as_bytes().first()? {
        b'+' => (1, &score[1..]),
        b'-' => (-1, &score[1..]),
        _ => (1, score),
    };
    if let Some(moves) = rest.strip_prefix(['M', '#']) {
        if moves.is_empty() || !moves.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: i32 = moves.parse().ok()?;
        return Some(CommentScore::Mate(sign * n));
    }
    let digits = rest.bytes().filter(u8::is_ascii_digit).count();
    let points = rest.bytes().filter(|&b| b == b'.').count();
    if digits == 0 || points > 1 || digits + points != rest.len() {
        return None;
    }
    let pawns: f64 = rest.parse().ok()?;
    let cp = (pawns * 100.0).round().min(1e9) as i32;
    Some(CommentScore::Centipawns(sign * cp))
}

/// The position a game starts from: its `FEN` tag (with Chess960 castling
/// in a `Chess960` game) or the standard start. `Err`: another variant, or
/// a FEN that cannot be read.
fn start_board(game: &PgnGame) -> Result<Board, String> {
    let chess960 = match game.tag("Variant") {
        None => false,
        Some(v) if v.eq_ignore_ascii_case("standard") => false,
        Some(v) if v.eq_ignore_ascii_case("chess960") || v.eq_ignore_ascii_case("fischerandom") => {
            true
        }
        Some(v) => return Err(format!("variant '{v}' is not supported")),
    };
    match game.tag("FEN") {
        Some(fen) => Board::from_fen_960(fen, chess960),
        None if chess960 => Err("a Chess960 game without a FEN tag".into()),
        None => Ok(Board::default()),
    }
}

/// Plays a game's main line, calling `f` with each ply (from 0), the
/// position before it and its move. `Err` names a move that is illegal (or
/// the start position that cannot be set up).
pub fn replay(game: &PgnGame, mut f: impl FnMut(usize, &Board, Move)) -> Result<(), String> {
    let mut board = start_board(game)?;
    for (ply, san) in game.moves.iter().enumerate() {
        let m = san
            .san
            .to_move(board.pos())
            .map_err(|_| format!("illegal move '{san}' at ply {}", ply + 1))?;
        f(ply, &board, m);
        board.play(m);
    }
    Ok(())
}

/// The FENs a game gives: the positions `keep_position` keeps. `Err` names
/// a move that is illegal.
pub fn game_positions(game: &PgnGame, quiet: &mut QuietCheck) -> Result<Vec<String>, String> {
    let mut fens = Vec::new();
    replay(game, |ply, board, m| {
        if keep_position(ply, board, m, quiet).is_ok() {
            fens.push(board.fen());
        }
    })?;
    Ok(fens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::filters::RECORD_FROM_PLY;

    const PGN: &str = r#"[Event "test"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 e5 2. Nf3 {book} Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Ba4 Nf6 5. O-O Be7
6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 $1 Nb8 10. d4 Nbd7 11.c4 c6 12. cxb5 axb5
13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7
19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7
25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6
31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4
38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43. Re6 1-0

[Event "second"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1. e4 Kd7 2. Kd2 ; a comment
Ke6 1/2-1/2
"#;

    fn sans(moves: &[SanPlus]) -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn games_tags_and_moves() {
        let games = parse_pgn(PGN).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("test"));
        assert_eq!(games[0].result(), Some(GameResult::WhiteWins));
        assert_eq!(games[0].moves.len(), 85);
        let moves = sans(&games[0].moves);
        assert_eq!(&moves[..3], ["e4", "e5", "Nf3"]);
        assert!(moves.contains(&"c4".to_string()), "glued move number");
        // The variation (3... Nf6 4. O-O) is skipped: a6 follows Bb5.
        assert_eq!(&moves[4..7], ["Bb5", "a6", "Ba4"]);
        assert_eq!(sans(&games[1].moves), ["e4", "Kd7", "Kd2", "Ke6"]);
        assert_eq!(games[1].result(), Some(GameResult::Draw));
    }

    #[test]
    fn positions_follow_the_moves_and_the_filters() {
        let games = parse_pgn(PGN).unwrap();
        let mut quiet = QuietCheck::new();
        let fens = game_positions(&games[0], &mut quiet).unwrap();
        assert!(!fens.is_empty() && fens.len() < 85 - RECORD_FROM_PLY as usize);
        for fen in &fens {
            assert!(!Board::from_fen(fen).unwrap().in_check());
        }
        // The short game has no ply past RECORD_FROM_PLY.
        assert!(game_positions(&games[1], &mut quiet).unwrap().is_empty());
        let mut broken = games[0].clone();
        broken.moves[4] = "Qh5xh7".parse().unwrap();
        assert!(game_positions(&broken, &mut quiet).is_err());
    }

    /// What the hand-written reader got wrong or never met: two tags on one
    /// line, escaped quotes, nested variations holding comments with
    /// parentheses, `$n` and `!?` glyphs, clock comments, `%` escape lines,
    /// a `;` comment holding a brace, a game without tags.
    const ANNOTATED: &str = r#"[Event "annotated \"quotes\""] [Site "?"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"] [SetUp "1"]
[Result "1-0"]

1. e4 $1 { [%clk 0:03:00] (not a variation) } Kd7!? (1... Ke7 $6 (1... Kf7
{ a comment } 2. Kf2) 2. Kf2 ; a { brace in a line comment
) 2. Kd2?? {Kd2 was} $2 Ke6
% an escape line: 3. Qh5
3. Ke3 1-0

1. d4 d5 *
"#;

    #[test]
    fn comments_variations_and_nags_leave_the_main_line() {
        let games = parse_pgn(ANNOTATED).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("annotated \"quotes\""));
        assert_eq!(g.tag("Site"), Some("?"));
        assert_eq!(g.tag("FEN"), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        assert_eq!(sans(&g.moves), ["e4", "Kd7", "Kd2", "Ke6", "Ke3"]);
        assert_eq!(g.result(), Some(GameResult::WhiteWins));
        let mut quiet = QuietCheck::new();
        assert!(game_positions(g, &mut quiet).is_ok());
        assert!(games[1].tags.is_empty());
        assert_eq!(sans(&games[1].moves), ["d4", "d5"]);
        assert_eq!(games[1].termination, Some(Outcome::Unknown));
        assert_eq!(games[1].result(), None);
    }

    #[test]
    fn comments_follow_their_moves() {
        let games = parse_pgn(ANNOTATED).unwrap();
        let c = &games[0].comments;
        assert_eq!(c.len(), games[0].moves.len());
        assert_eq!(c[0].as_deref(), Some("[%clk 0:03:00] (not a variation)"));
        assert_eq!(c[1], None, "the variation's comments are not Kd7's");
        assert_eq!(c[2].as_deref(), Some("Kd2 was"));
        let games = parse_pgn("{a game comment} 1. e4 {+0.31/12} {0.1s} e5 *").unwrap();
        assert_eq!(games[0].comments, [Some("+0.31/12 0.1s".to_string()), None]);
    }

    #[test]
    fn scores_in_comments() {
        use CommentScore::{Centipawns, Mate};
        for (comment, score) in [
            ("+0.12/14 0.333s", Some(Centipawns(12))),
            ("-0.33/17 0.410s", Some(Centipawns(-33))),
            (
                "0.00/89 0.307s, Draw by fifty moves rule",
                Some(Centipawns(0)),
            ),
            ("+0.35 12/20 100 5000", Some(Centipawns(35))),
            ("-1.5 9/14 20 900", Some(Centipawns(-150))),
            ("+11.63/16 0.233s", Some(Centipawns(1163))),
            ("+M5/12 0.2s", Some(Mate(5))),
            ("-M3 4/8 10 100", Some(Mate(-3))),
            ("+M1/245 0.003s, White mates", Some(Mate(1))),
            ("book", None),
            ("0.105s", None),
            ("", None),
            ("+/12", None),
            ("+M/3", None),
            ("1.2.3/4", None),
            ("inf/3", None),
            ("nan", None),
            ("-", None),
        ] {
            assert_eq!(comment_score(comment), score, "{comment:?}");
        }
    }

    #[test]
    fn chess960_games_replay_and_other_variants_are_refused() {
        let pgn = r#"[Variant "Chess960"]
[FEN "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1"]
[Result "*"]

1. O-O O-O 2. a3 a6 *

[Variant "Atomic"]

1. e4 *
"#;
        let games = parse_pgn(pgn).unwrap();
        let mut plies = 0;
        replay(&games[0], |_, _, _| plies += 1).unwrap();
        assert_eq!(plies, 4);
        let err = replay(&games[1], |_, _, _| ()).unwrap_err();
        assert!(err.contains("Atomic"), "{err}");
    }

    #[test]
    fn an_unterminated_comment_names_its_game() {
        let err = parse_pgn("1. e4 e5 *\n\n1. d4 { never closed\n").unwrap_err();
        assert!(err.starts_with("game 2: "), "{err}");
        assert_eq!(parse_pgn("").unwrap(), []);
    }
}
