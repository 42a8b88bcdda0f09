//! Conversations with the real `stockman` binary through pipes, as GUIs and
//! match runners hold them (see shared/UCI.md): the handshake, every form of
//! `go`, infinite and ponder searches, bad input of every kind, terminal
//! positions, options, perft, and the hygiene of every line printed.
//!
//! Each search is checked the same way: exactly one `bestmove`, an
//! `info ... score ...` line before it, the PV's first move equal to the
//! best move, every move legal and in canonical UCI notation (lowercase
//! promotions, `e1g1` or king-takes-rook for Chess960), no PV past the end
//! of the game, and no `info` after `bestmove`.

mod common;

use common::engine_process::{EngineProcess, TIMEOUT, is_perft_line, starts_with_word};
use common::search_check::*;
use shakmaty::{CastlingMode, Position};
use std::time::Duration;

const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White mates in two: Kc7 Ka7, Ra1#.
const MATE_IN_TWO: &str = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
/// White mates in one: Rd8#.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
/// Black's only move Kb8 is answered by Rh8#.
const MATED_IN_ONE: &str = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
/// Black is checkmated (back rank).
const CHECKMATED: &str = "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1";
/// Black is stalemated.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
/// exd8=Q wins the rook: the best move is a promotion.
const PROMOTION: &str = "3r4/4P3/8/8/8/2k5/8/K7 w - - 0 1";

// ---------------------------------------------------------------------------
// Handshake and options.

#[test]
fn handshake_declares_every_option() {
    let mut e = EngineProcess::spawn();
    let lines = e.handshake();
    let name = lines.iter().position(|l| l.starts_with("id name Stockman"));
    let author = lines.iter().position(|l| l.starts_with("id author "));
    assert!(
        matches!((name, author), (Some(0), Some(1))),
        "id name, id author first: {lines:?}"
    );
    let expected = [
        "option name Hash type spin default 16 min 1 max ",
        "option name Threads type spin default 1 min 1 max ",
        "option name Clear Hash type button",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max ",
        "option name UCI_Chess960 type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1320 min 1320 max 3000",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_AnalyseMode type check default false",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookBestMove type check default false",
        "option name EvalFile type string default <built-in>",
        "option name Algorithm type combo default NegaScout var AlphaBeta var NegaScout var MTDf var SSS var DUAL",
        "option name Evaluation type combo default Network var Network var Classical",
        "option name MTGrain type spin default 8 min 1 max 100",
        "option name Pure type check default false",
    ];
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for want in expected {
        assert!(
            options
                .iter()
                .any(|l| l.as_str() == want || (want.ends_with(' ') && l.starts_with(want))),
            "missing '{want}' in {options:#?}"
        );
    }
    assert_eq!(options.len(), expected.len(), "{options:#?}");
    assert_eq!(
        lines.len(),
        2 + options.len(),
        "only id and option lines: {lines:#?}"
    );
    for l in &options {
        check_declaration(l);
    }
    assert!(e.sync().is_empty());
    // A second `uci` gets the same answer.
    assert_eq!(e.handshake(), lines);
}

/// What python-chess checks: spin default within min..max, combo default among the vars.
fn check_declaration(line: &str) {
    let (_, typed) = line.split_once(" type ").expect("option has a type");
    let t: Vec<&str> = typed.split(' ').collect();
    let field = |name: &str| t.iter().position(|w| *w == name).map(|i| t[i + 1]);
    match t[0] {
        "spin" => {
            let n = |f: &str| -> i64 {
                field(f)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("{line}: {f}"))
            };
            assert!(
                n("min") <= n("default") && n("default") <= n("max"),
                "{line}"
            );
        }
        "combo" => {
            let default = field("default").expect("combo default");
            let vars: Vec<&str> = t
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1])
                .collect();
            assert!(vars.contains(&default), "{line}");
        }
        "check" => assert!(matches!(field("default"), Some("true" | "false")), "{line}"),
        "button" => assert_eq!(t.len(), 1, "{line}"),
        "string" => assert!(field("default").is_some(), "{line}"),
        other => panic!("unknown option type {other}: {line}"),
    }
}

#[test]
fn options_take_effect() {
    let mut e = engine();
    let start = Game::start();

    // Names are case-insensitive; buttons come without a value.
    for line in [
        "setoption name Hash value 64",
        "setoption name hash value 32",
        "setoption name Clear Hash",
        "setoption name clear hash",
        "setoption name Move Overhead value 100",
        "setoption name move overhead value 0",
        "setoption name Threads value 1",
        "setoption name Ponder value true",
        "setoption name SyzygyPath value /no/such/dir",
        "setoption name SyzygyPath value <empty>",
        "setoption name Pure value false",
        "setoption name Evaluation value Classical",
        "setoption name evaluation value network",
    ] {
        ignored_input(&mut e, line);
    }
    set_position(&mut e, &start);
    go(&mut e, &start, "go depth 3");

    // The algorithm in use is named in an info string.
    for algorithm in ["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"] {
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        let s = go(&mut e, &start, "go depth 3");
        let named = format!("info string algorithm {algorithm}");
        assert!(
            s.info_strings().contains(&named.as_str()),
            "{named} missing: {:#?}",
            s.lines
        );
    }
    e.send("setoption name algorithm value mtdf");
    let s = go(&mut e, &start, "go depth 2");
    assert!(s.info_strings().contains(&"info string algorithm MTDf"));
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut e = engine();
    e.send("setoption name MultiPV value 3");
    let game = Game::fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 4");
    assert_eq!(s.max_depth(), 4);
    for depth in 1..=4 {
        let lines: Vec<&Info> = s.infos.iter().filter(|i| i.depth == Some(depth)).collect();
        let numbers: Vec<u32> = lines.iter().map(|i| i.multipv).collect();
        assert_eq!(numbers, [1, 2, 3], "depth {depth}: {lines:#?}");
        let firsts: Vec<&String> = lines.iter().map(|i| &i.pv[0]).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "depth {depth}: first moves not distinct {firsts:?}"
        );
        let key = |i: &Info| match i.score.expect("scored") {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        };
        assert!(
            key(lines[0]) >= key(lines[1]) && key(lines[1]) >= key(lines[2]),
            "depth {depth}: not best first {lines:#?}"
        );
    }
    // Fewer legal moves than lines: one line per move.
    let two_moves = Game::fen("k7/8/1K6/8/8/8/8/7R b - - 0 1"); // only Kb8
    set_position(&mut e, &two_moves);
    let s = go(&mut e, &two_moves, "go depth 3");
    assert!(s.infos.iter().all(|i| i.multipv == 1), "{:#?}", s.lines);
    // Back to one line.
    e.send("setoption name MultiPV value 1");
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 3");
    assert!(s.infos.iter().all(|i| i.multipv == 1), "{:#?}", s.lines);
}

#[test]
fn show_wdl_adds_wdl_summing_to_a_thousand() {
    let mut e = engine();
    e.send("setoption name UCI_ShowWDL value true");
    for fen in [STARTPOS_FEN, MATE_IN_ONE, MATED_IN_ONE] {
        let game = Game::fen(fen);
        set_position(&mut e, &game);
        let s = go(&mut e, &game, "go depth 3");
        for i in s.infos.iter().filter(|i| i.score.is_some()) {
            assert!(i.wdl.is_some(), "no wdl: {}", i.line);
            assert!(i.line.contains(" wdl "), "{}", i.line);
        }
        match s.final_info().score {
            Some(Score::Mate(m)) if m > 0 => assert_eq!(s.final_info().wdl, Some((1000, 0, 0))),
            Some(Score::Mate(_)) => assert_eq!(s.final_info().wdl, Some((0, 0, 1000))),
            _ => {}
        }
    }
    e.send("setoption name UCI_ShowWDL value false");
    let game = Game::start();
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 2");
    assert!(s.infos.iter().all(|i| i.wdl.is_none()), "{:#?}", s.lines);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = engine();
    e.send("setoption name UCI_Chess960 value true");

    // The standard start position in Chess960 mode: O-O is e1h1.
    let game = Game::fen_mode(STARTPOS_FEN, CastlingMode::Chess960)
        .with_moves(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    assert_eq!(engine_fen(&mut e), game.fen_string());
    let perft = perft_lines(&mut e, 1);
    assert!(perft.iter().any(|l| l == "e1h1: 1"), "{perft:#?}");
    assert!(!perft.iter().any(|l| l.starts_with("e1g1")), "{perft:#?}");
    let s = go(&mut e, &game, "go depth 3 searchmoves e1h1");
    assert_eq!(s.best.as_deref(), Some("e1h1"));
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1");
    let castled = game.clone().with_moves(&["e1h1"]);
    assert_eq!(engine_fen(&mut e), castled.fen_string());
    assert!(castled.fen_string().contains("RNBQ1RK1"));

    // Real Chess960 positions: the first of the suite where castling is legal.
    let suite = common::epd_fens("positions/perft-chess960.epd");
    let mut tried = 0;
    for fen in &suite {
        let game = Game::fen_mode(fen, CastlingMode::Chess960);
        let Some(castle) = game.pos.legal_moves().into_iter().find(|m| m.is_castle()) else {
            continue;
        };
        let text = game.uci(castle);
        set_position(&mut e, &game);
        assert_eq!(engine_fen(&mut e), game.fen_string());
        let perft = perft_lines(&mut e, 1);
        assert!(perft.contains(&format!("{text}: 1")), "{text}: {perft:#?}");
        let s = go(&mut e, &game, &format!("go depth 3 searchmoves {text}"));
        assert_eq!(s.best.as_deref(), Some(text.as_str()));
        go(&mut e, &game, "go depth 4");
        e.send(&format!("{} moves {text}", game.position_command()));
        let after = game.clone().with_moves(&[&text]);
        assert_eq!(engine_fen(&mut e), after.fen_string());
        tried += 1;
        if tried == 3 {
            break;
        }
    }
    assert_eq!(tried, 3, "the suite has positions with castling");
}

/// `go perft N`: its time as one `info string`, the move lines, a blank
/// line, `Nodes searched: N` last (a client may answer that line at once, so
/// nothing of the count follows it: the `isready` after it sees only
/// `readyok`).
fn perft_lines(e: &mut EngineProcess, depth: u32) -> Vec<String> {
    e.send(&format!("go perft {depth}"));
    let mut lines = e.read_until("Nodes", TIMEOUT);
    assert!(
        lines
            .first()
            .is_some_and(|l| l.starts_with("info string Time: ")),
        "{lines:#?}"
    );
    lines.remove(0);
    let n = lines.len();
    assert!(n >= 3, "{lines:#?}");
    assert!(
        lines[..n - 2].iter().all(|l| is_perft_line(l)),
        "{lines:#?}"
    );
    assert_eq!(lines[n - 2], "", "blank line before the total");
    let total: u64 = lines[..n - 2]
        .iter()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines[n - 1], format!("Nodes searched: {total}"));
    let after = e.sync();
    assert!(after.is_empty(), "after perft: {after:#?}");
    lines
}

#[test]
fn perft_prints_stockfish_style() {
    let mut e = engine();
    e.send("position startpos");
    let lines = perft_lines(&mut e, 3);
    assert_eq!(lines.len(), 20 + 2);
    assert!(lines.contains(&"e2e4: 600".to_string()), "{lines:#?}");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    // Kiwipete, with castling and en passant about.
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let lines = perft_lines(&mut e, 2);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 2039");
    assert!(lines.contains(&"e1g1: 43".to_string()), "{lines:#?}");
}

// ---------------------------------------------------------------------------
// Every form of `go`.

#[test]
fn every_go_form_gives_one_legal_bestmove() {
    let mut e = engine();
    let start = Game::start();
    let middle = Game::fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9");
    let black = Game::fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4");

    for game in [&start, &middle, &black] {
        for cmd in [
            "go depth 3",
            "go nodes 5000",
            "go movetime 100",
            "go wtime 2000 btime 2000",
            "go wtime 2000 btime 2000 winc 50 binc 50",
            "go wtime 2000 btime 2000 movestogo 20",
            "go btime 500 wtime 500 binc 20 winc 20 movestogo 1",
            "go depth 3 wtime 100000 btime 100000",
            "go wtime 100000 btime 100000 nodes 20000 depth 2",
            "go movetime 100000 depth 2",
            "go wtime -100 btime -100",
            "go wtime -100 btime -100 winc 0 binc 0 movestogo 0",
            "go wtime 0 btime 0",
            "go movetime 0",
            "go depth 0",
            "go nodes 0",
            "go depth -5",
            "go nodes 1",
            // Beyond every integer type: saturate, don't panic or overflow.
            "go depth 3 wtime 99999999999999999999 btime 99999999999999999999 movestogo 99999999999",
            "go movetime 9223372036854775807 depth 3",
            "go nodes 99999999999999999999999 depth 2",
        ] {
            set_position(&mut e, game);
            let s = go(&mut e, game, cmd);
            assert!(s.best.is_some(), "{cmd}");
            if cmd.contains("depth 3") {
                assert_eq!(s.max_depth(), 3, "{cmd}: {:#?}", s.lines);
            }
            if cmd.contains("depth 2") {
                assert!(s.max_depth() <= 2, "{cmd}: {:#?}", s.lines);
            }
        }
    }
    // fastchess may send only the clock of the side to move.
    set_position(&mut e, &start);
    go(&mut e, &start, "go wtime 1000 winc 10");
    set_position(&mut e, &black);
    go(&mut e, &black, "go btime 1000 binc 10");
    // Fractional numbers and a bare `go depth` do not derail the line.
    set_position(&mut e, &start);
    go(&mut e, &start, "go depth 2.0");
    go(&mut e, &start, "go depth movetime 50");
}

#[test]
fn go_mate_finds_the_mate() {
    let mut e = engine();
    let game = Game::fen(MATE_IN_TWO);
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go mate 2");
    let info = s.final_info();
    assert_eq!(info.score, Some(Score::Mate(2)), "{:#?}", s.lines);
    let mut g = game.clone();
    for m in &info.pv {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    assert_eq!(info.pv.len(), 3, "{}", info.line);
    assert!(g.pos.is_checkmate(), "{}", info.line);
    // The same without `mate`: a depth search also sees it.
    let s = go(&mut e, &game, "go depth 5");
    assert_eq!(s.final_info().score, Some(Score::Mate(2)), "{:#?}", s.lines);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = engine();
    let start = Game::start();
    set_position(&mut e, &start);
    for (cmd, allowed) in [
        ("go depth 4 searchmoves a2a3 h2h3", &["a2a3", "h2h3"][..]),
        ("go searchmoves b1c3 depth 3", &["b1c3"][..]),
        (
            "go searchmoves g2g4 f2f3 movetime 100",
            &["g2g4", "f2f3"][..],
        ),
        ("go depth 3 searchmoves e2e5 g1f3", &["g1f3"][..]),
    ] {
        let s = go(&mut e, &start, cmd);
        let best = s.best.clone().unwrap();
        assert!(allowed.contains(&best.as_str()), "{cmd}: {best}");
        for i in &s.infos {
            if let Some(first) = i.pv.first() {
                assert!(allowed.contains(&first.as_str()), "{cmd}: {}", i.line);
            }
        }
    }
    // Only an illegal move: the engine says so and searches all moves.
    let s = go(&mut e, &start, "go depth 2 searchmoves e2e5");
    assert!(!s.info_strings().is_empty(), "{:#?}", s.lines);
}

#[test]
fn promotions_are_lowercase() {
    let mut e = engine();
    let game = Game::fen(PROMOTION);
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 4");
    assert_eq!(s.best.as_deref(), Some("e7d8q"), "{:#?}", s.lines);
    // Black promotes too; and a promotion in `position ... moves` is accepted.
    e.send("position fen 8/8/8/8/8/2K5/4p3/7k b - - 0 1 moves e2e1n");
    assert_eq!(engine_fen(&mut e), "8/8/8/8/8/2K5/8/4n2k w - - 0 2");
}

// ---------------------------------------------------------------------------
// Searches that wait for the GUI: infinite and ponder.

/// Nothing but `info` for `period`, and `isready` answered meanwhile.
/// Returns the search's lines so far (without `readyok`).
#[must_use]
fn still_searching(e: &mut EngineProcess, period: Duration) -> Vec<String> {
    let mut lines = e.lines_during(period);
    e.send("isready");
    let mut answer = e.read_until("readyok", TIMEOUT);
    answer.pop();
    lines.extend(answer);
    lines.extend(e.lines_during(Duration::from_millis(50)));
    if let Some(l) = lines.iter().find(|l| !starts_with_word(l, "info")) {
        e.fail(&format!("the search should still run: {l}"));
    }
    lines
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = engine();
    for game in [
        Game::start(),
        Game::fen(MATE_IN_ONE),
        Game::fen(MATED_IN_ONE), // a single legal move
        Game::fen(CHECKMATED),   // no legal move at all
        Game::fen(STALEMATE),
    ] {
        set_position(&mut e, &game);
        e.send("go infinite");
        let before = still_searching(&mut e, Duration::from_millis(300));
        e.send("stop");
        finish_after(&mut e, &game, before);
    }
    // Clocks and depth given with `infinite` do not end it either.
    let game = Game::start();
    set_position(&mut e, &game);
    e.send("go wtime 100 btime 100 depth 1 infinite");
    let before = still_searching(&mut e, Duration::from_millis(300));
    e.send("stop");
    finish_after(&mut e, &game, before);
}

#[test]
fn ponderhit_turns_ponder_into_a_timed_search() {
    let mut e = engine();
    e.send("setoption name Ponder value true");
    // We played e2e4, expect e7e5: the GUI sends the position after the expected move.
    let game = Game::start().with_moves(&["e2e4", "e7e5"]);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 3000 btime 3000 winc 30 binc 30");
    let before = still_searching(&mut e, Duration::from_millis(300));
    e.send("ponderhit");
    // bestmove arrives without stop, within the clock (the timeout only catches hangs).
    finish_after(&mut e, &game, before);

    // Ponder with a depth limit: the search may finish early but still waits.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder depth 1 wtime 3000 btime 3000");
    let before = still_searching(&mut e, Duration::from_millis(300));
    e.send("ponderhit");
    finish_after(&mut e, &game, before);

    // The opponent played something else: stop, then a new search.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 3000 btime 3000 winc 30 binc 30");
    let before = still_searching(&mut e, Duration::from_millis(300));
    e.send("stop");
    finish_after(&mut e, &game, before);
    let other = Game::start().with_moves(&["e2e4", "c7c5"]);
    e.send("position startpos moves e2e4 c7c5");
    go(&mut e, &other, "go wtime 3000 btime 3000 winc 30 binc 30");

    // Pondering on a position without moves also waits.
    let mated = Game::fen(CHECKMATED);
    set_position(&mut e, &mated);
    e.send("go ponder wtime 3000 btime 3000");
    let before = still_searching(&mut e, Duration::from_millis(200));
    e.send("ponderhit");
    finish_after(&mut e, &mated, before);
}

#[test]
fn go_while_searching_is_ignored() {
    let mut e = engine();
    let game = Game::start();
    set_position(&mut e, &game);
    e.send("go infinite");
    e.send("go depth 1");
    let mut before = still_searching(&mut e, Duration::from_millis(200));
    // Neither position nor options change the running search.
    e.send("position fen 8/8/8/4k3/8/8/4K3/8 w - - 0 1");
    e.send("setoption name Clear Hash");
    before.extend(still_searching(&mut e, Duration::from_millis(100)));
    e.send("stop");
    finish_after(&mut e, &game, before);
    // The position sent during the search is the one now.
    assert_eq!(engine_fen(&mut e), "8/8/8/4k3/8/8/4K3/8 w - - 0 1");
}

/// A GUI sends the next `go` the moment it reads `bestmove`.
#[test]
fn go_right_after_bestmove_is_not_lost() {
    let mut e = engine();
    let mut game = Game::start();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..120 {
        if game.is_over() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let cmd = if ply % 2 == 0 {
            "go depth 1"
        } else {
            "go nodes 200"
        };
        e.send(cmd);
        let lines = e.read_until("bestmove", TIMEOUT);
        let s = check_search(&e, &game, lines);
        let best = s.best.expect("a move while the game is on");
        let m = game.parse_move(&best).unwrap();
        game.play(m);
        moves.push(best);
    }
    expect_quiet(&mut e);
}

// ---------------------------------------------------------------------------
// Bad input.

/// `eval` reports both static evaluations and leads with the one the
/// `Evaluation` option picks (Pure mode: the classical one); both see a
/// queen up as winning.
#[test]
fn eval_reports_both_evaluations_and_follows_the_option() {
    let mut e = EngineProcess::spawn();
    e.handshake();
    e.send("position fen 3qk3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1");
    let first = e.eval();
    assert_eq!(first.shown, first.network, "the network is the default");
    assert!(first.network > 300 && first.classical > 300, "{first:?}");
    e.send("setoption name Evaluation value Classical");
    let classical = e.eval();
    assert_eq!(classical.shown, classical.classical);
    // Pure mode searches with the classical evaluation whatever the option.
    e.send("setoption name Evaluation value Network");
    e.send("setoption name Pure value true");
    let pure = e.eval();
    assert_eq!(pure.shown, pure.classical);
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut e = EngineProcess::spawn();
    // Arena sends xboard first.
    bad_input(&mut e, "xboard");
    e.handshake();
    bad_input(&mut e, "foo bar");
    // Not UTF-8, and a very long line.
    e.send_raw(b"\xff\xfe garbage\n");
    assert!(e.sync().iter().all(|l| starts_with_word(l, "info string")));
    bad_input(&mut e, &"nonsense ".repeat(20_000));
    ignored_input(&mut e, "");
    ignored_input(&mut e, "   ");
    ignored_input(&mut e, "\t \t");
    ignored_input(&mut e, "stop");
    ignored_input(&mut e, "ponderhit");
    ignored_input(&mut e, "ucinewgame");
    ignored_input(&mut e, "register later");
    ignored_input(&mut e, "debug on");
    ignored_input(&mut e, "debug off");

    // A known position, then bad ones that must leave it unchanged.
    let base = Game::start().with_moves(&["e2e4", "c7c5"]);
    e.send("position startpos moves e2e4 c7c5");
    assert_eq!(engine_fen(&mut e), base.fen_string());
    for line in [
        "position",
        "position fen",
        "position somewhere",
        "position startpos garbage",
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen hello world",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves",
        "position fen kk6/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        if line.ends_with("moves") {
            // A legal bare-kings FEN with nothing after `moves` is fine.
            ignored_input(&mut e, line);
            e.send("position startpos moves e2e4 c7c5");
            continue;
        }
        bad_input(&mut e, line);
        assert_eq!(engine_fen(&mut e), base.fen_string(), "after {line:?}");
    }

    // Illegal or malformed moves: the legal prefix is applied.
    for (line, applied) in [
        (
            "position startpos moves e2e4 e7e5 e1e3 g1f3",
            &["e2e4", "e7e5"][..],
        ),
        ("position startpos moves e2e4 xyz g8f6", &["e2e4"][..]),
        ("position startpos moves e2e5", &[][..]),
        (
            "position startpos moves g1f3 g8f6 f3g1 f6g8 e7e5",
            &["g1f3", "g8f6", "f3g1", "f6g8"][..],
        ),
        (
            "position startpos moves e2e4 e7e5 e1g1",
            &["e2e4", "e7e5"][..],
        ),
        ("position startpos moves 0000", &[][..]),
        ("position startpos moves e7e8q", &[][..]),
    ] {
        bad_input(&mut e, line);
        let expected = Game::start().with_moves(applied);
        assert_eq!(engine_fen(&mut e), expected.fen_string(), "after {line:?}");
        // And the engine plays from there.
        go(&mut e, &expected, "go depth 2");
    }

    // `position startpos moves` with nothing after.
    ignored_input(&mut e, "position startpos moves");
    assert_eq!(engine_fen(&mut e), STARTPOS_FEN);
    // Keywords in any case; FEN case kept.
    ignored_input(
        &mut e,
        "POSITION FEN 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 MOVES e1c1",
    );
    assert_eq!(engine_fen(&mut e), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");

    // Option values out of range or of the wrong kind, unknown options.
    for line in [
        "setoption name Hash value abc",
        "setoption name Hash value -5",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999999",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Move Overhead value 1e3",
        "setoption name Move Overhead value 5001",
        "setoption name MultiPV value x",
        "setoption name MultiPV value 0",
        "setoption name UCI_ShowWDL value maybe",
        "setoption name UCI_Chess960 value",
        "setoption name Algorithm value Minimax",
        "setoption name Evaluation value Neural",
        "setoption name No Such Option value 3",
        "setoption name Fancy",
        "setoption name",
        "setoption",
        "setoption Hash 5",
        "debug maybe",
        "go perft 0",
        "go perft x",
        "go perft -1",
    ] {
        bad_input(&mut e, line);
    }
    // The bad values changed nothing: one line, the default algorithm, no WDL.
    let game = Game::start();
    e.send("position startpos");
    let s = go(&mut e, &game, "go depth 3");
    assert!(s.infos.iter().all(|i| i.multipv == 1 && i.wdl.is_none()));
    assert!(
        s.info_strings()
            .contains(&"info string algorithm NegaScout")
    );

    // Bad `go` tokens: reported, the rest of the line counts.
    let s = go(&mut e, &game, "go depth 2 bogus 7");
    assert!(!s.info_strings().is_empty(), "{:#?}", s.lines);
    let s = go(&mut e, &game, "go depth x movetime 50");
    assert!(!s.info_strings().is_empty(), "{:#?}", s.lines);
}

#[test]
fn go_before_any_position_searches_the_start_position() {
    let mut e = engine();
    go(&mut e, &Game::start(), "go depth 3");
    // Also without `uci` first.
    let mut e = EngineProcess::spawn();
    go(&mut e, &Game::start(), "go depth 2");
}

#[test]
fn crlf_line_endings_are_accepted() {
    let mut e = EngineProcess::spawn();
    e.send_raw(b"uci\r\n");
    e.read_until("uciok", TIMEOUT);
    e.send_raw(b"isready\r\n");
    e.read_until("readyok", TIMEOUT);
    e.send_raw(b"setoption name UCI_ShowWDL value true\r\n");
    e.send_raw(b"setoption name Clear Hash\r\n");
    e.send_raw(b"ucinewgame\r\n");
    e.send_raw(b"position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\r\n");
    assert_eq!(engine_fen(&mut e), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    e.send_raw(b"position startpos moves e2e4 e7e5\r\n");
    let game = Game::start().with_moves(&["e2e4", "e7e5"]);
    assert_eq!(engine_fen(&mut e), game.fen_string());
    e.send_raw(b"position startpos moves\r\n");
    assert_eq!(engine_fen(&mut e), STARTPOS_FEN);
    e.send_raw(b"go depth 3\r\n");
    let s = finish(&mut e, &Game::start());
    assert!(
        s.infos.iter().any(|i| i.wdl.is_some()),
        "ShowWDL value 'true\\r'"
    );
    e.send_raw(b"\r\n");
    e.send_raw(b"go infinite\r\n");
    let before = still_searching(&mut e, Duration::from_millis(100));
    e.send_raw(b"stop\r\n");
    finish_after(&mut e, &Game::start(), before);
    e.send_raw(b"quit\r\n");
    assert!(e.wait_exit(TIMEOUT).is_some_and(|s| s.success()));
}

#[test]
fn a_thousand_moves_of_knight_shuffling() {
    let mut e = engine();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().copied().cycle().take(1000).collect();
    let game = Game::start().with_moves(&moves);
    assert!(
        game.is_over(),
        "threefold repetition and fifty moves are on the board"
    );
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(engine_fen(&mut e), game.fen_string());
    for cmd in ["go depth 4", "go movetime 100", "go wtime 1000 btime 1000"] {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        go(&mut e, &game, cmd);
    }
    // With a pawn move at the end the game goes on normally.
    let mut longer = moves.clone();
    longer.push("e2e4");
    let game = Game::start().with_moves(&longer);
    e.send(&format!("position startpos moves {}", longer.join(" ")));
    go(&mut e, &game, "go depth 4");
}

// ---------------------------------------------------------------------------
// Ending the session.

#[test]
fn quit_during_go_infinite_exits_promptly() {
    let mut e = engine();
    e.send("position startpos");
    e.send("go infinite");
    let _ = still_searching(&mut e, Duration::from_millis(200));
    e.send("quit");
    let status = e.wait_exit(TIMEOUT);
    assert!(
        status.is_some_and(|s| s.success()),
        "quit during a search: {status:?}\n{}",
        e.transcript()
    );
}

#[test]
fn end_of_input_exits_with_status_zero() {
    // Idle.
    let mut e = engine();
    e.close_stdin();
    let status = e.wait_exit(TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");

    // In the middle of an infinite search.
    let mut e = engine();
    e.send("go infinite");
    let _ = still_searching(&mut e, Duration::from_millis(200));
    e.close_stdin();
    let status = e.wait_exit(TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");

    // Without ever saying anything.
    let mut e = EngineProcess::spawn();
    e.close_stdin();
    let status = e.wait_exit(TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(e.next_line(Duration::from_millis(100)).is_none());
}

// ---------------------------------------------------------------------------
// Terminal positions and mates.

#[test]
fn positions_without_moves_answer_bestmove_none() {
    let mut e = engine();
    for (fen, score) in [
        (CHECKMATED, "info depth 0 score mate 0"),
        (STALEMATE, "info depth 0 score cp 0"),
    ] {
        let game = Game::fen(fen);
        for cmd in [
            "go depth 3",
            "go movetime 50",
            "go wtime 1000 btime 1000",
            "go nodes 100",
            "go mate 3",
        ] {
            set_position(&mut e, &game);
            let s = go(&mut e, &game, cmd);
            assert_eq!(s.best, None, "{cmd}");
            let n = s.lines.len();
            assert_eq!(s.lines[n - 2], score, "{cmd}: {:#?}", s.lines);
            assert_eq!(s.lines[n - 1], "bestmove (none)");
        }
    }
    // Mate reached through `moves`: fool's mate.
    let game = Game::start().with_moves(&["f2f3", "e7e5", "g2g4", "d8h4"]);
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let s = go(&mut e, &game, "go depth 2");
    assert_eq!(s.best, None);
}

#[test]
fn mate_scores_count_moves_from_the_side_to_move() {
    let mut e = engine();
    let game = Game::fen(MATE_IN_ONE);
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 4");
    assert_eq!(s.best.as_deref(), Some("d1d8"));
    assert_eq!(s.final_info().score, Some(Score::Mate(1)), "{:#?}", s.lines);
    assert_eq!(s.final_info().pv, ["d1d8"], "the PV ends at mate");

    let game = Game::fen(MATED_IN_ONE);
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 4");
    assert_eq!(s.best.as_deref(), Some("a8b8"));
    assert_eq!(
        s.final_info().score,
        Some(Score::Mate(-1)),
        "{:#?}",
        s.lines
    );

    // Bare kings: a draw, the engine still moves.
    let game = Game::fen("8/8/8/4k3/8/8/4K3/8 w - - 0 1");
    set_position(&mut e, &game);
    let s = go(&mut e, &game, "go depth 4");
    assert_eq!(s.final_info().score, Some(Score::Cp(0)), "{:#?}", s.lines);
}

// ---------------------------------------------------------------------------
// Many positions, every algorithm, one process.

#[test]
fn bench_positions_with_every_algorithm() {
    let mut e = engine();
    let algorithms = ["AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"];
    let fens = common::epd_fens("positions/bench.epd");
    assert_eq!(fens.len(), 50);
    e.send("ucinewgame");
    for (i, fen) in fens.iter().enumerate() {
        let algorithm = algorithms[i % algorithms.len()];
        e.send(&format!("setoption name Algorithm value {algorithm}"));
        let game = Game::fen(fen);
        set_position(&mut e, &game);
        let s = go(&mut e, &game, "go depth 4");
        assert!(s.best.is_some(), "{fen}");
        assert_eq!(s.max_depth(), 4, "{fen} {algorithm}: {:#?}", s.lines);
        let named = format!("info string algorithm {algorithm}");
        assert!(s.info_strings().contains(&named.as_str()), "{fen}");
    }
}

// ---------------------------------------------------------------------------
// Stops that come at once: before the first iteration can have finished.

#[test]
fn stop_right_after_go_still_gives_a_scored_legal_move() {
    let mut e = engine();
    let games = [
        Game::start(),
        Game::fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        Game::fen(MATED_IN_ONE),
        Game::fen(PROMOTION),
    ];
    for round in 0..40 {
        let game = &games[round % games.len()];
        set_position(&mut e, game);
        let go_line = match round % 4 {
            0 => "go infinite",
            1 => "go depth 60",
            2 => "go ponder wtime 1000 btime 1000",
            _ => "go movetime 100000",
        };
        e.send(&format!("{go_line}\nstop"));
        finish(&mut e, game);
    }
    // ponderhit at once, then the clock decides.
    let game = Game::start();
    set_position(&mut e, &game);
    e.send("go ponder wtime 500 btime 500\nponderhit");
    finish(&mut e, &game);
    // The smallest budgets.
    for cmd in ["go movetime 1", "go wtime 1 btime 1", "go nodes 1 depth 1"] {
        go(&mut e, &game, cmd);
    }
}

#[test]
fn quit_and_end_of_input_right_after_go() {
    for ending in ["quit", ""] {
        let mut e = engine();
        e.send("position startpos moves e2e4");
        e.send("go depth 60");
        if ending.is_empty() {
            e.close_stdin();
        } else {
            e.send(ending);
        }
        let status = e.wait_exit(TIMEOUT);
        assert!(
            status.is_some_and(|s| s.success()),
            "{ending:?}: {status:?}\n{}",
            e.transcript()
        );
    }
}

#[test]
fn hash_resizes_between_searches() {
    let mut e = engine();
    let game = Game::start();
    for size in ["1", "64", "2", "16"] {
        e.send(&format!("setoption name Hash value {size}"));
        set_position(&mut e, &game);
        go(&mut e, &game, "go depth 5");
    }
    // Resized while searching: takes effect after the search.
    e.send("go infinite");
    let mut before = still_searching(&mut e, Duration::from_millis(100));
    e.send("setoption name Hash value 8");
    before.extend(still_searching(&mut e, Duration::from_millis(100)));
    e.send("stop");
    finish_after(&mut e, &game, before);
    go(&mut e, &game, "go depth 4");
}

#[test]
fn several_threads_search_and_stop_cleanly() {
    let mut e = engine();
    let game = Game::start();
    e.send("setoption name Threads value 3");
    set_position(&mut e, &game);
    go(&mut e, &game, "go depth 6");
    go(&mut e, &game, "go movetime 150");
    e.send("go infinite");
    let before = still_searching(&mut e, Duration::from_millis(200));
    e.send("stop");
    finish_after(&mut e, &game, before);
    e.send("go infinite");
    e.send("quit");
    let status = e.wait_exit(TIMEOUT);
    assert!(
        status.is_some_and(|s| s.success()),
        "{status:?}\n{}",
        e.transcript()
    );
}

#[test]
fn uci_bench_prints_the_node_signature_last() {
    let mut e = engine();
    e.send("bench 2");
    let mut all = Vec::new();
    loop {
        let line = e
            .next_line(TIMEOUT)
            .unwrap_or_else(|| e.fail("bench never printed its node signature"));
        assert!(line.starts_with("info string "), "{line}");
        let done = line.ends_with(" nps") && line.contains(" nodes ");
        all.push(line);
        if done {
            break;
        }
    }
    assert_eq!(all.len(), 51, "50 positions and the signature: {all:?}");
    e.send("bench 0");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string bench")),
        "{lines:?}"
    );
}

#[test]
fn hash_larger_than_memory_is_refused_not_fatal() {
    // 64 GB is the declared maximum, more than this machine has: the engine
    // must say so and keep a usable table instead of being killed.
    let mut e = engine();
    let game = Game::start();
    e.send("setoption name Hash value 65536");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("hash table")),
        "no message about the hash table: {lines:?}\n{}",
        e.transcript()
    );
    set_position(&mut e, &game);
    go(&mut e, &game, "go depth 4");
}

#[test]
fn fen_variants_are_accepted() {
    let mut e = engine();
    for (sent, held) in [
        // Without the move counters.
        ("8/8/8/4k3/8/8/4K3/8 w - -", "8/8/8/4k3/8/8/4K3/8 w - - 0 1"),
        // Extra blanks between the fields.
        (
            "4k3/8/8/8/8/8/8/R3K3  w  Q  -  0  1",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        ),
        // An en passant square that no pawn can use.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
    ] {
        ignored_input(&mut e, &format!("position fen {sent}"));
        assert_eq!(engine_fen(&mut e), held, "{sent}");
        let game = Game::fen(held);
        go(&mut e, &game, "go depth 3");
    }
}

#[test]
fn a_pure_mode_pv_stops_at_the_third_repetition() {
    // Pure mode searches on through repetitions inside the tree (its value
    // is a function of the position); the PV it shows must still end where
    // the game would. Found by the 100,000-conversation fuzz run (conversation 72565
    // of seed 20261123): `... pv f8g7 d3e3 g7h6 e3f3 h6g7 f3e3 g7h6 e3f3
    // h6g7 f3e3 g7g6`, whose tenth move repeats the position a third time.
    let fen = "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54";
    let moves = [
        "e3e4", "e6e7", "f3g2", "e7d6", "e4e5", "d6e7", "g2f2", "e7e8", "f2e3", "e8e7", "e3e2",
        "e7d8", "e2f3", "d8e8", "f4f5", "e8f7", "f5g6", "f7g8", "f3f4", "b6b5", "f4e3", "g8f8",
        "e3d3",
    ];
    let game = Game::fen(fen).with_moves(&moves);
    let mut e = engine();
    e.send("setoption name Pure value true");
    e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
    // `go` checks every PV against the game, its history included.
    let search = go(&mut e, &game, "go depth 14");
    assert!(search.max_depth() >= 13, "{:?}", search.lines);
}
