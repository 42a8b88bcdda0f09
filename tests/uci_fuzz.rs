//! A seeded stream fuzzer against the real binary: random sessions of valid
//! and malformed commands, random positions and moves, every option with
//! absurd values, and `go` raced by `isready`, `stop` and `ponderhit`. After
//! every step the engine must be alive and answer `isready` within 5 s, every
//! `go` must end in exactly one legal `bestmove` (checked like every search in
//! the UCI tests), and stdout must hold only protocol lines (checked on every
//! line read). `STOCKMAN_FUZZ_SESSIONS` and `STOCKMAN_FUZZ_SEED` set a longer
//! run by hand, e.g. `STOCKMAN_FUZZ_SESSIONS=100000 cargo test --test uci_fuzz`;
//! `STOCKMAN_FUZZ_FIRST` skips to the session a failure names.

mod common;

use common::engine_process::{EngineProcess, TIMEOUT, starts_with_word};
use common::search_check::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, PositionError};
use std::time::{Duration, Instant};

/// Sessions of a normal `cargo test` run (about 15 s on two loaded cores).
const DEFAULT_SESSIONS: u64 = 300;
const DEFAULT_SEED: u64 = 0x5eed_2021;
/// `readyok` must come within this, whatever runs.
const READY: Duration = Duration::from_secs(5);

/// SplitMix64: small, seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Options with values in range, out of range and not numbers at all.
const OPTIONS: &[(&str, &[&str])] = &[
    (
        "Hash",
        &[
            "1",
            "2",
            "16",
            "0",
            "-1",
            "65537",
            "x",
            "99999999999999999999",
            "",
        ],
    ),
    ("Threads", &["1", "2", "3", "256", "0", "257", "-4", "two"]),
    (
        "Move Overhead",
        &["0", "10", "100", "5000", "5001", "-1", "1e9"],
    ),
    ("MultiPV", &["1", "2", "5", "256", "0", "300"]),
    ("Ponder", &["true", "false", "maybe"]),
    ("UCI_ShowWDL", &["true", "false", "1"]),
    ("UCI_Chess960", &["true", "false"]),
    ("SyzygyPath", &["", "/nonexistent", "<empty>", "/dev/zero"]),
    (
        "EvalFile",
        &[
            "<built-in>",
            "/dev/zero",
            "/dev/stdin",
            "/nonexistent.nnue",
            "net/stockman.nnue",
            "/tmp",
        ],
    ),
    (
        "Algorithm",
        &["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL", "minimax"],
    ),
    ("Evaluation", &["Network", "Classical", "Random"]),
    ("Pure", &["true", "false"]),
    ("Clear Hash", &[""]),
    ("No Such Option", &["1"]),
];

/// `go` forms that end by themselves.
const FINITE_GOS: &[&str] = &[
    "go depth 1",
    "go depth 3",
    "go nodes 1",
    "go nodes 3000",
    "go movetime 1",
    "go movetime 30",
    "go wtime 0 btime 0",
    "go wtime 200 btime 200 winc 10 binc 10",
    "go btime 50 wtime 50 movestogo 1",
    "go wtime -100 btime -100",
    "go depth 2 nodes 500 movetime 20",
    "go depth 0",
    "go depth -5",
    "go mate 1 depth 3",
    "go nodes 2000 searchmoves",
    "go nodes 2000 searchmoves a1a1 zz",
];

/// `go` forms that need `stop` (or `ponderhit`).
const OPEN_GOS: &[&str] = &[
    "go infinite",
    "go depth 999999999999",
    "go",
    "go depth x",
    "go mate 3",
    "go ponder",
    "go ponder wtime 300 btime 300",
    "go ponder depth 2",
    "go infinite nodes 5 movetime 1",
    "GO INFINITE",
    "go bogus tokens here",
];

/// Input that is no command, or a broken one: answered with an `info string`
/// or nothing, never with anything else.
const MALFORMED: &[&str] = &[
    "xboard",
    "protover 2",
    "position",
    "position fen",
    "position fen 8/8/8 w - - 0 1",
    "position somewhere moves e2e4",
    "position startpos junk",
    "position fen kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 151 1",
    "setoption",
    "setoption name",
    "setoption Hash 5",
    "setoption name Hash value",
    "debug maybe",
    "debug on",
    "debug off",
    "register later",
    "d",
    "eval",
    "bench x",
    "bench -3",
    "bench 1000",
    "go perft 0",
    "go perft x",
    "go perft 99",
    "ponderhit",
    "stop",
    "",
    "   ",
    "\t\tisready_not",
];

/// The start position and a few varied ones, all valid.
fn base_positions() -> Vec<String> {
    let mut v = vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()];
    v.extend(common::SPECIAL_FENS.iter().map(|s| s.to_string()));
    v.extend(common::epd_fens("positions/bench.epd").into_iter().take(12));
    v
}

/// A random placement: two kings and up to 20 men anywhere. Often invalid;
/// the engine decides, and the test reads back what it holds.
fn random_fen(rng: &mut Rng) -> String {
    let mut board = [None::<char>; 64];
    let mut place = |rng: &mut Rng, piece: char| loop {
        let sq = rng.below(64) as usize;
        if board[sq].is_none() {
            board[sq] = Some(piece);
            break;
        }
    };
    place(rng, 'K');
    place(rng, 'k');
    for _ in 0..rng.below(21) {
        let piece = *rng.pick(&['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q']);
        place(rng, piece);
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    let side = rng.pick(&["w", "b"]);
    let clock = rng.pick(&["0", "7", "99", "150", "151", "-1", "4294967296"]);
    format!(
        "{} {side} - - {clock} {}",
        rows.join("/"),
        1 + rng.below(300)
    )
}

/// Random bytes with control characters and invalid UTF-8, never a command.
fn garbage(rng: &mut Rng) -> Vec<u8> {
    let longest = if rng.chance(5) { 20_000 } else { 60 };
    let len = rng.below(longest);
    let mut line = vec![b'#'];
    for _ in 0..len {
        let b = match rng.below(4) {
            0 => rng.below(32) as u8,
            1 => 0x80 + rng.below(128) as u8,
            _ => b' ' + rng.below(95) as u8,
        };
        if b != b'\n' {
            line.push(b);
        }
    }
    line.push(b'\n');
    line
}

/// What the test knows of the engine's position.
struct Model {
    /// The game, when every command that set it was valid; `None` when a
    /// random FEN was sent and only the engine knows whether it took it.
    game: Option<Game>,
    /// The last known game while `game` is `None`: the engine keeps it if it
    /// refused the random FEN(s) sent since.
    previous: Option<Game>,
    /// `UCI_Chess960` as last set (valid values only are tracked).
    chess960: bool,
}

impl Model {
    fn mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
    }
}

/// A position the engine also accepts: shakmaty's rules less impossible checks.
fn game_from_fen(fen: &str, mode: CastlingMode) -> Option<Game> {
    let pos: Chess = fen
        .parse::<Fen>()
        .ok()?
        .into_position(mode)
        .or_else(PositionError::ignore_impossible_check)
        .ok()?;
    Some(Game::from_pos(pos, mode))
}

/// Sends a `position` command; tracks what the engine will hold.
fn send_position(e: &mut EngineProcess, rng: &mut Rng, model: &mut Model, bases: &[String]) {
    if rng.chance(15) {
        let fen = random_fen(rng);
        e.send(&format!("position fen {fen}"));
        if let Some(game) = model.game.take() {
            model.previous = Some(game);
        }
        return;
    }
    let (head, start) = if rng.chance(40) {
        (
            "position startpos".to_string(),
            Game::from_pos(Chess::default(), model.mode()),
        )
    } else {
        let fen = rng.pick(bases).clone();
        let game = game_from_fen(&fen, model.mode()).expect("base positions are valid");
        (format!("position fen {fen}"), game)
    };
    // Random legal moves, sometimes with a bad one: the engine keeps the
    // position before it.
    let mut game = start;
    let mut moves = Vec::new();
    for _ in 0..rng.below(30) {
        let legal = game.pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        moves.push(game.uci(m));
        game.play(m);
    }
    if rng.chance(10) {
        // A bad move last: the engine keeps the game up to it.
        moves.push(
            rng.pick(&["e2e9", "zz", "a1a1", "e7e8x", "0000"])
                .to_string(),
        );
    }
    let line = if moves.is_empty() && rng.chance(50) {
        head
    } else {
        format!("{head} moves {}", moves.join(" "))
    };
    e.send(&line);
    // The model keeps the history, for the threefold check of PVs.
    model.game = Some(game);
}

/// The game to check a search against: the model's, after checking that the
/// engine holds the same position, or the engine's own when the model lost track.
fn game_for_search(e: &mut EngineProcess, model: &mut Model) -> Game {
    let fen = engine_fen(e);
    match &model.game {
        Some(game) => {
            let ours = Fen::from_position(&game.pos, EnPassantMode::Legal).to_string();
            if ours != fen {
                e.fail(&format!("the engine holds {fen}, the test expects {ours}"));
            }
            game.clone()
        }
        None => {
            // The engine refused the random FEN(s): the game before them
            // (its castling mode and history), else one of them, which has no
            // castling rights, so its mode changes no move's notation.
            let kept = model
                .previous
                .take()
                .filter(|g| Fen::from_position(&g.pos, EnPassantMode::Legal).to_string() == fen);
            let game = kept
                .or_else(|| game_from_fen(&fen, model.mode()))
                .unwrap_or_else(|| e.fail(&format!("the engine holds an unreadable FEN {fen}")));
            model.game = Some(game.clone());
            game
        }
    }
}

/// `isready` is answered within `READY`; returns the lines before `readyok`.
fn ready(e: &mut EngineProcess) -> Vec<String> {
    e.send("isready");
    let mut lines = e.read_until("readyok", READY);
    lines.pop();
    lines
}

/// The lines of the searches of one `go` (and of the extra `go`s raced
/// into it), each checked as its `bestmove` arrives.
struct Searches<'a> {
    game: &'a Game,
    pending: Vec<String>,
    bestmoves: u64,
    ignored: u64,
}

impl Searches<'_> {
    fn absorb(&mut self, e: &EngineProcess, lines: Vec<String>) {
        for l in lines {
            if l == "readyok" {
                continue;
            }
            if l.starts_with("info string go ignored") {
                self.ignored += 1;
            }
            let done = starts_with_word(&l, "bestmove");
            self.pending.push(l);
            if done {
                check_search(e, self.game, std::mem::take(&mut self.pending));
                self.bestmoves += 1;
            }
        }
    }
}

/// One `go`, raced by `isready`, `ponderhit`, `stop` and more `go`s: every
/// `go` that is not refused ("go ignored") ends in exactly one legal bestmove.
fn run_go(e: &mut EngineProcess, rng: &mut Rng, model: &mut Model) {
    let game = game_for_search(e, model);
    let open = rng.chance(35);
    let cmd = if open {
        *rng.pick(OPEN_GOS)
    } else {
        *rng.pick(FINITE_GOS)
    };
    let mut searches = Searches {
        game: &game,
        pending: Vec::new(),
        bestmoves: 0,
        ignored: 0,
    };
    let mut gos = 1;
    e.send(cmd);
    for _ in 0..rng.below(4) {
        if rng.chance(50) {
            std::thread::sleep(Duration::from_millis(rng.below(15)));
        }
        match rng.below(3) {
            0 => {
                let lines = ready(e);
                searches.absorb(e, lines);
            }
            1 => e.send("ponderhit"),
            _ => {
                // Refused while a search runs, a new search once it is over.
                e.send("go depth 1");
                gos += 1;
            }
        }
    }
    if open {
        std::thread::sleep(Duration::from_millis(rng.below(30)));
        e.send("stop");
    }
    if searches.bestmoves == 0 {
        let lines = e.read_until("bestmove", TIMEOUT);
        searches.absorb(e, lines);
    }
    // A raced go may still be searching: stop it; its bestmove is out
    // before the engine reads the next line, so before readyok.
    e.send("stop");
    let lines = ready(e);
    searches.absorb(e, lines);
    if !searches.pending.is_empty()
        && searches
            .pending
            .iter()
            .any(|l| !starts_with_word(l, "info string"))
    {
        e.fail(&format!(
            "search output after the last bestmove: {:?}",
            searches.pending
        ));
    }
    let expected = gos - searches.ignored;
    if searches.bestmoves != expected {
        e.fail(&format!(
            "{gos} go(s), {} refused, but {} bestmove(s)",
            searches.ignored, searches.bestmoves
        ));
    }
}

/// One random session, from start to `quit` or the end of input.
fn session(rng: &mut Rng, bases: &[String]) {
    let mut e = EngineProcess::spawn();
    if rng.chance(90) {
        e.handshake();
    }
    let mut model = Model {
        game: Some(Game::start()),
        previous: None,
        chess960: false,
    };
    for _ in 0..3 + rng.below(12) {
        match rng.below(12) {
            0 | 1 => send_position(&mut e, rng, &mut model, bases),
            2..=4 => run_go(&mut e, rng, &mut model),
            5 | 6 => {
                let (name, values) = rng.pick(OPTIONS);
                let value = rng.pick(values);
                if *name == "UCI_Chess960" {
                    // The engine reads its position again in the new mode.
                    model.chess960 = *value == "true";
                    let mode = model.mode();
                    for game in model.game.iter_mut().chain(model.previous.iter_mut()) {
                        game.mode = mode;
                    }
                }
                if value.is_empty() {
                    e.send(&format!("setoption name {name}"));
                } else {
                    e.send(&format!("setoption name {name} value {value}"));
                }
            }
            7 => {
                let line = *rng.pick(MALFORMED);
                e.send(line);
            }
            8 => e.send_raw(&garbage(rng)),
            9 => {
                // Long commands: run off the input thread, ended by stop.
                let cmd = if rng.chance(50) {
                    format!("go perft {}", 1 + rng.below(5))
                } else {
                    format!("bench {}", 1 + rng.below(3))
                };
                e.send(&cmd);
                std::thread::sleep(Duration::from_millis(rng.below(20)));
                e.send("stop");
            }
            10 => {
                e.send("ucinewgame");
            }
            _ => {
                ready(&mut e);
            }
        }
        // Whatever came, isready is answered and nothing but protocol lines
        // (checked as read) came first.
        for l in ready(&mut e) {
            if starts_with_word(&l, "bestmove") {
                e.fail(&format!("a bestmove without a go: {l}"));
            }
        }
    }
    if rng.chance(50) {
        e.send("quit");
    } else {
        e.close_stdin();
    }
    let status = e.wait_exit(READY);
    if !status.is_some_and(|s| s.success()) {
        e.fail(&format!("the engine did not exit cleanly: {status:?}"));
    }
}

#[test]
fn random_sessions_keep_the_engine_alive_and_correct() {
    let sessions = env_u64("STOCKMAN_FUZZ_SESSIONS", DEFAULT_SESSIONS);
    let seed = env_u64("STOCKMAN_FUZZ_SEED", DEFAULT_SEED);
    // To rerun a failed session alone: its number, with SESSIONS = number + 1.
    let first = env_u64("STOCKMAN_FUZZ_FIRST", 0);
    let bases = base_positions();
    let started = Instant::now();
    for i in first..sessions {
        // Each session has its own seed: a failure names the one to rerun.
        let session_seed = seed ^ i.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let mut rng = Rng(session_seed);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            session(&mut rng, &bases);
        }));
        if let Err(panic) = outcome {
            eprintln!(
                "fuzz: session {i} failed: rerun it with STOCKMAN_FUZZ_SEED={seed} \
                 STOCKMAN_FUZZ_FIRST={i} STOCKMAN_FUZZ_SESSIONS={}",
                i + 1
            );
            std::panic::resume_unwind(panic);
        }
        if sessions > DEFAULT_SESSIONS && (i + 1) % 100 == 0 {
            eprintln!(
                "fuzz: {} sessions, {:.0} s",
                i + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "fuzz: sessions {first}..{sessions} passed in {:.1} s (seed {seed})",
        started.elapsed().as_secs_f64()
    );
}
