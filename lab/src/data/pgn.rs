//! Tuning data from existing games: PGN read by the `pgn-reader` crate
//! (tags, the main line's SAN moves, the result; comments, variations, NAGs,
//! `%` escape lines and annotation glyphs are understood and passed over) and
//! the positions of a game that pass the same filters as self-play,
//! labelled with its result.

use crate::data::datagen::RECORD_FROM_PLY;
use crate::data::sample::{GameResult, QuietCheck, is_noisy};
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Visitor};
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

/// Collects a game's tags, its main line and its result; variations are
/// skipped (the reader's default), comments and NAGs ignored.
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

/// The FENs a game gives: positions from `RECORD_FROM_PLY` on, not in
/// check, quiet by the quiescence test, whose move played is not a capture
/// or promotion. `Err` names a move that is illegal.
pub fn game_positions(game: &PgnGame, quiet: &mut QuietCheck) -> Result<Vec<String>, String> {
    let mut board = match game.tag("FEN") {
        Some(fen) => Board::from_fen(fen)?,
        None => Board::default(),
    };
    if let Some(variant) = game.tag("Variant")
        && !variant.eq_ignore_ascii_case("standard")
    {
        return Err(format!("variant '{variant}' is not supported"));
    }
    let mut fens = Vec::new();
    for (ply, san) in game.moves.iter().enumerate() {
        let m = san
            .san
            .to_move(board.pos())
            .map_err(|_| format!("illegal move '{san}' at ply {}", ply + 1))?;
        if ply as u32 >= RECORD_FROM_PLY && !is_noisy(m) && quiet.is_quiet(&board) {
            fens.push(board.fen());
        }
        board.play(m);
    }
    Ok(fens)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn an_unterminated_comment_names_its_game() {
        let err = parse_pgn("1. e4 e5 *\n\n1. d4 { never closed\n").unwrap_err();
        assert!(err.starts_with("game 2: "), "{err}");
        assert_eq!(parse_pgn("").unwrap(), []);
    }
}
