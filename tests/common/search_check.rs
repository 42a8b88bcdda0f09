//! The checks every UCI test applies to a search, shared by the tests that
//! drive the real binary: the test's own view of the game (legality, canonical
//! notation, the end of the game), the parsing of `info` lines, and one
//! `bestmove` per `go` with a scored `info` line and legal PVs before it.
#![allow(dead_code)]

use super::engine_process::{EngineProcess, TIMEOUT, starts_with_word};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

// ---------------------------------------------------------------------------
// The test's own view of the game, to check the engine's moves against.

#[derive(Clone)]
pub struct Game {
    pub pos: Chess,
    pub mode: CastlingMode,
    /// Keys of every position of the game so far, the current one last.
    pub keys: Vec<u64>,
}

pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Game {
    pub fn start() -> Game {
        Game::from_pos(Chess::default(), CastlingMode::Standard)
    }

    pub fn from_pos(pos: Chess, mode: CastlingMode) -> Game {
        let keys = vec![key(&pos)];
        Game { pos, mode, keys }
    }

    pub fn fen(fen: &str) -> Game {
        Game::fen_mode(fen, CastlingMode::Standard)
    }

    pub fn fen_mode(fen: &str, mode: CastlingMode) -> Game {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("test FEN parses")
            .into_position(mode)
            .expect("test FEN is legal");
        Game::from_pos(pos, mode)
    }

    pub fn with_moves(mut self, moves: &[&str]) -> Game {
        for m in moves {
            let mv = self.parse_move(m).expect("test move is legal");
            self.play(mv);
        }
        self
    }

    /// A move the engine printed: legal here and in canonical notation.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| format!("'{text}' is not UCI move notation"))?;
        let m = uci
            .to_move(&self.pos)
            .map_err(|_| format!("'{text}' is illegal in {}", self.fen_string()))?;
        let canonical = self.uci(m);
        if canonical != text {
            return Err(format!("'{text}' should be written '{canonical}'"));
        }
        Ok(m)
    }

    pub fn play(&mut self, m: Move) {
        self.pos.play_unchecked(m);
        self.keys.push(key(&self.pos));
    }

    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.mode).to_string()
    }

    pub fn fen_string(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    /// Over by rule: checkmate, stalemate, insufficient material, fifty moves, threefold.
    pub fn is_over(&self) -> bool {
        let current = *self.keys.last().expect("at least one position");
        self.pos.is_game_over()
            || self.pos.halfmoves() >= 100
            || self.keys.iter().filter(|&&k| k == current).count() >= 3
    }

    pub fn position_command(&self) -> String {
        // Always by FEN: the repetition history does not matter for the test positions.
        format!("position fen {}", self.fen_string())
    }
}

// ---------------------------------------------------------------------------
// What a search printed.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

#[derive(Clone, Debug)]
pub struct Info {
    pub line: String,
    pub depth: Option<u32>,
    pub multipv: u32,
    pub score: Option<Score>,
    pub wdl: Option<(u32, u32, u32)>,
    pub pv: Vec<String>,
}

pub fn parse_info(line: &str) -> Info {
    let t: Vec<&str> = line.split(' ').collect();
    let mut info = Info {
        line: line.to_string(),
        depth: None,
        multipv: 1,
        score: None,
        wdl: None,
        pv: Vec::new(),
    };
    let mut i = 1;
    while i < t.len() {
        match t[i] {
            "depth" => info.depth = t.get(i + 1).and_then(|v| v.parse().ok()),
            "multipv" => info.multipv = t.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(0),
            "score" => {
                let v: Option<i64> = t.get(i + 2).and_then(|v| v.parse().ok());
                info.score = match (t.get(i + 1), v) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            "wdl" => {
                let n: Vec<u32> = t[i + 1..]
                    .iter()
                    .take(3)
                    .filter_map(|v| v.parse().ok())
                    .collect();
                if n.len() == 3 {
                    info.wdl = Some((n[0], n[1], n[2]));
                }
            }
            "pv" => {
                info.pv = t[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    info
}

#[derive(Debug)]
pub struct Search {
    /// Every line up to and including `bestmove`.
    pub lines: Vec<String>,
    /// The search `info` lines (not `info string`).
    pub infos: Vec<Info>,
    /// `None` for `bestmove (none)`.
    pub best: Option<String>,
    pub ponder: Option<String>,
}

impl Search {
    pub fn info_strings(&self) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|l| starts_with_word(l, "info string"))
            .map(String::as_str)
            .collect()
    }

    pub fn max_depth(&self) -> u32 {
        self.infos.iter().filter_map(|i| i.depth).max().unwrap_or(0)
    }

    /// The last line of the principal variation (multipv 1) with a score.
    pub fn final_info(&self) -> &Info {
        self.infos
            .iter()
            .rev()
            .find(|i| i.multipv == 1 && i.score.is_some())
            .expect("checked: a scored info line exists")
    }
}

/// Sends `cmd` (a `go`), reads the search to its `bestmove` and checks it.
pub fn go(e: &mut EngineProcess, game: &Game, cmd: &str) -> Search {
    e.send(cmd);
    finish(e, game)
}

/// Reads a search to its `bestmove`, checks it, and checks that nothing but
/// `info string` follows before `readyok`.
pub fn finish(e: &mut EngineProcess, game: &Game) -> Search {
    finish_after(e, game, Vec::new())
}

/// [`finish`] for a search that already printed `earlier` lines.
pub fn finish_after(e: &mut EngineProcess, game: &Game, earlier: Vec<String>) -> Search {
    let mut lines = earlier;
    lines.extend(e.read_until("bestmove", TIMEOUT));
    let search = check_search(e, game, lines);
    expect_quiet(e);
    search
}

/// After a `bestmove`: `isready` is answered, and no search output comes
/// first (no second `bestmove`, no stale `info`).
pub fn expect_quiet(e: &mut EngineProcess) {
    for l in e.sync() {
        if starts_with_word(&l, "bestmove")
            || (starts_with_word(&l, "info") && !starts_with_word(&l, "info string"))
        {
            e.fail(&format!("search output after bestmove: {l}"));
        }
    }
}

pub fn check_search(e: &EngineProcess, game: &Game, lines: Vec<String>) -> Search {
    let last = lines.last().expect("read_until returns the bestmove line");
    let words: Vec<&str> = last.split(' ').collect();
    let (best, ponder) = match words.as_slice() {
        ["bestmove", "(none)"] => (None, None),
        ["bestmove", m] => (Some(m.to_string()), None),
        ["bestmove", m, "ponder", p] => (Some(m.to_string()), Some(p.to_string())),
        _ => e.fail(&format!("malformed bestmove line: {last}")),
    };
    let infos: Vec<Info> = lines
        .iter()
        .filter(|l| starts_with_word(l, "info") && !starts_with_word(l, "info string"))
        .map(|l| parse_info(l))
        .collect();
    for l in &lines[..lines.len() - 1] {
        if !starts_with_word(l, "info") {
            e.fail(&format!("unexpected line during a search: {l}"));
        }
    }
    let search = Search {
        lines: lines.clone(),
        infos,
        best,
        ponder,
    };
    if !search.infos.iter().any(|i| i.score.is_some()) {
        e.fail("no 'info ... score ...' line before bestmove");
    }
    for info in &search.infos {
        check_pv(e, game, info);
    }
    let legal = game.pos.legal_moves();
    match &search.best {
        None => {
            if !legal.is_empty() {
                e.fail("bestmove (none) although there are legal moves");
            }
            let expected = if game.pos.is_check() {
                "info depth 0 score mate 0"
            } else {
                "info depth 0 score cp 0"
            };
            if !search.lines.iter().any(|l| l == expected) {
                e.fail(&format!("no '{expected}' before bestmove (none)"));
            }
        }
        Some(best) => {
            let m = game
                .parse_move(best)
                .unwrap_or_else(|err| e.fail(&format!("bestmove: {err}")));
            let info = search.final_info();
            if info.pv.first() != Some(best) {
                e.fail(&format!(
                    "the last PV ({}) does not start with the bestmove {best}",
                    info.line
                ));
            }
            if let Some(p) = &search.ponder {
                let mut after = game.clone();
                after.play(m);
                if let Err(err) = after.parse_move(p) {
                    e.fail(&format!("ponder move: {err}"));
                }
            }
        }
    }
    search
}

/// Every PV move is legal and canonical, and the PV stops at the end of the game.
pub fn check_pv(e: &EngineProcess, game: &Game, info: &Info) {
    let mut g = game.clone();
    for (i, text) in info.pv.iter().enumerate() {
        // The root may be over by rule (a claimable draw): the engine moves anyway.
        if i > 0 && g.is_over() {
            e.fail(&format!(
                "PV goes on after the game ended (move {} '{text}'): {}",
                i + 1,
                info.line
            ));
        }
        match g.parse_move(text) {
            Ok(m) => g.play(m),
            Err(err) => e.fail(&format!("PV move {}: {err}: {}", i + 1, info.line)),
        }
    }
    if let Some((w, d, l)) = info.wdl
        && w + d + l != 1000
    {
        e.fail(&format!("wdl does not sum to 1000: {}", info.line));
    }
}

/// A fresh engine after `uci`/`uciok` and `isready`/`readyok`.
pub fn engine() -> EngineProcess {
    let mut e = EngineProcess::spawn();
    e.handshake();
    e.sync();
    e
}

pub fn set_position(e: &mut EngineProcess, game: &Game) {
    e.send(&game.position_command());
}

/// The FEN the engine holds, from `d`.
pub fn engine_fen(e: &mut EngineProcess) -> String {
    e.send("d");
    let line = e.expect_line(
        "'info string fen ...'",
        |l| l.starts_with("info string fen "),
        TIMEOUT,
    );
    e.sync();
    line["info string fen ".len()..].to_string()
}

/// Sends a line that is wrong in some way: the engine says so in an
/// `info string`, prints nothing else, and stays responsive.
pub fn bad_input(e: &mut EngineProcess, line: &str) {
    e.send(line);
    let response = e.sync();
    for l in &response {
        if !starts_with_word(l, "info string") {
            e.fail(&format!("unexpected answer to bad input {line:?}: {l}"));
        }
    }
    if response.is_empty() {
        e.fail(&format!(
            "no 'info string' explains what was wrong with {line:?}"
        ));
    }
}

/// Sends a line that should be ignored without a word or with an `info string`.
pub fn ignored_input(e: &mut EngineProcess, line: &str) {
    e.send(line);
    for l in e.sync() {
        if !starts_with_word(&l, "info string") {
            e.fail(&format!("unexpected answer to {line:?}: {l}"));
        }
    }
}
