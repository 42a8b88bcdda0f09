//! Tuning data from existing games: a tiny PGN reader (tags, SAN movetext
//! without comments, variations or NAGs, the result) and the positions of a
//! game that pass the same filters as self-play, labelled with its result.

use super::datagen::RECORD_FROM_PLY;
use super::sample::{GameResult, QuietCheck, is_noisy};
use crate::board::Board;
use shakmaty::san::SanPlus;

/// One game as read: its tags and its main-line moves in SAN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The result token that ended the movetext, if any.
    pub termination: Option<String>,
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
            .or_else(|| self.termination.as_deref().and_then(GameResult::from_pgn))
    }
}

/// `[Name "value"]` (the value unescaped).
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The main-line move tokens of some movetext and the result token.
fn movetext_tokens(text: &str) -> (Vec<String>, Option<String>) {
    let mut moves = Vec::new();
    let mut depth = 0; // variation nesting
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut termination = None;
    let mut flush = |token: &mut String, depth: i32| {
        let t = std::mem::take(token);
        if depth > 0 || t.is_empty() || t.starts_with('$') {
            return;
        }
        if matches!(t.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            termination = Some(t);
            return;
        }
        // Move numbers: "12." "12..." or glued to the move, "12.e4".
        let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
        let t = t.trim_start_matches('.');
        if !t.is_empty() {
            moves.push(t.to_string());
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut token, depth);
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut token, depth);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, depth);
                depth += 1;
            }
            ')' => {
                flush(&mut token, depth);
                depth = (depth - 1).max(0);
            }
            c if c.is_whitespace() => flush(&mut token, depth),
            c => token.push(c),
        }
    }
    flush(&mut token, depth);
    (moves, termination)
}

/// Every game of a PGN text (lenient: whatever looks like tags and movetext).
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut finish = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if tags.is_empty() && movetext.trim().is_empty() {
            return;
        }
        let (moves, termination) = movetext_tokens(movetext);
        games.push(PgnGame {
            tags: std::mem::take(tags),
            moves,
            termination,
        });
        movetext.clear();
    };
    for line in text.lines() {
        let trimmed = line.trim_start_matches('\u{feff}').trim();
        if trimmed.starts_with('[')
            && let Some(tag) = parse_tag(trimmed)
        {
            if !movetext.trim().is_empty() {
                finish(&mut tags, &mut movetext);
            }
            tags.push(tag);
        } else if !trimmed.starts_with('%') {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    finish(&mut tags, &mut movetext);
    games
}

/// The FENs a game gives: positions from `RECORD_FROM_PLY` on, not in
/// check, quiet by the quiescence test, whose move played is not a capture
/// or promotion. `Err` names a move that does not parse or is illegal.
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
    for (ply, text) in game.moves.iter().enumerate() {
        let san = SanPlus::from_ascii_prefix(text.as_bytes())
            .map_err(|_| format!("bad move '{text}'"))?
            .0;
        let m = san
            .san
            .to_move(board.pos())
            .map_err(|_| format!("illegal move '{text}' at ply {}", ply + 1))?;
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

    #[test]
    fn games_tags_and_moves() {
        let games = parse_pgn(PGN);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("test"));
        assert_eq!(games[0].result(), Some(GameResult::WhiteWins));
        assert_eq!(games[0].moves.len(), 85);
        assert_eq!(&games[0].moves[..3], ["e4", "e5", "Nf3"]);
        assert!(
            games[0].moves.contains(&"c4".to_string()),
            "glued move number"
        );
        assert!(!games[0].moves.iter().any(|m| m.starts_with('$')));
        // The variation (3... Nf6 4. O-O) is skipped: a6 follows Bb5.
        assert_eq!(&games[0].moves[4..7], ["Bb5", "a6", "Ba4"]);
        assert_eq!(games[1].moves, ["e4", "Kd7", "Kd2", "Ke6"]);
        assert_eq!(games[1].result(), Some(GameResult::Draw));
    }

    #[test]
    fn positions_follow_the_moves_and_the_filters() {
        let games = parse_pgn(PGN);
        let mut quiet = QuietCheck::new();
        let fens = game_positions(&games[0], &mut quiet).unwrap();
        assert!(!fens.is_empty() && fens.len() < 85 - RECORD_FROM_PLY as usize);
        for fen in &fens {
            assert!(!Board::from_fen(fen).unwrap().in_check());
        }
        // The short game has no ply past RECORD_FROM_PLY.
        assert!(game_positions(&games[1], &mut quiet).unwrap().is_empty());
        let mut broken = games[0].clone();
        broken.moves[4] = "Qh5xh7".into();
        assert!(game_positions(&broken, &mut quiet).is_err());
    }
}
