//! `stockman-lab datagen` and `stockman-lab tune` through the real binary, on tiny
//! inputs: data lines are well formed and repeat with the seed, a PGN file
//! gives positions, tuning writes a generated file, bad input is refused.

mod common;

use common::cli::{lab, path, scratch, text};

use std::path::Path;
use std::process::Output;

fn datagen(out: &Path, seed: &str) -> Output {
    datagen_extra(out, seed, &[])
}

/// Two games at 300 nodes a move with `seed`, and `extra` arguments.
fn datagen_extra(out: &Path, seed: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "datagen",
        "--out",
        path(out),
        "--games",
        "2",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--seed",
        seed,
    ];
    args.extend(extra);
    lab(&args)
}

/// Checks every data line: a FEN of six fields and a result in brackets.
fn check_lines(data: &str) -> usize {
    let mut n = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let (fen, result) = line.rsplit_once(' ').unwrap();
        assert!(["[1.0]", "[0.5]", "[0.0]"].contains(&result), "{line}");
        let fields: Vec<&str> = fen.split(' ').collect();
        assert_eq!(fields.len(), 6, "{line}");
        assert_eq!(fields[0].split('/').count(), 8, "{line}");
        assert!(fields[1] == "w" || fields[1] == "b", "{line}");
        n += 1;
    }
    n
}

#[test]
fn datagen_writes_labelled_positions_reproducibly() {
    let dir = scratch("datagen");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    let o = datagen(&a, "11");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let last = text(&o.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(last.starts_with("datagen: 2 games, "), "{last}");
    let data = std::fs::read_to_string(&a).unwrap();
    assert!(data.starts_with("# stockman-lab datagen --games 2 --nodes 300 --seed 11"));
    let n = check_lines(&data);
    assert!(n > 0);
    assert!(last.contains(&format!(" {n} positions")), "{last}");
    // Same seed, same file (threads do not matter).
    assert!(datagen(&b, "11").status.success());
    assert_eq!(std::fs::read_to_string(&b).unwrap(), data);
    // At most 2 per game: a reproducible subset of the same games' lines.
    let few = |out: &Path| {
        let o = lab(&[
            "datagen",
            "--out",
            path(out),
            "--games",
            "2",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--seed",
            "11",
            "--per-game",
            "2",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::read_to_string(out).unwrap()
    };
    let c = few(&dir.join("c.txt"));
    assert!(c.starts_with("# stockman-lab datagen --games 2 --nodes 300 --seed 11"));
    assert!(c.lines().next().unwrap().contains(" --per-game 2 "));
    let m = check_lines(&c);
    assert!(m <= 4 && m < n && m > 0, "{m} of {n}");
    let mut all = data.lines();
    assert!(
        c.lines()
            .filter(|l| !l.starts_with('#'))
            .all(|l| all.any(|x| x == l)),
        "not an ordered subset"
    );
    assert_eq!(few(&dir.join("d.txt")), c);
}

#[test]
fn datagen_reads_pgn_games() {
    let dir = scratch("pgn");
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
         [Event \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 \
         6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n",
    )
    .unwrap();
    let out = dir.join("data.txt");
    let o = lab(&["datagen", "--pgn", path(&pgn), "--out", path(&out)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let data = std::fs::read_to_string(&out).unwrap();
    assert!(check_lines(&data) > 0);
    assert!(
        data.lines()
            .filter(|l| !l.starts_with('#'))
            .all(|l| l.ends_with("[1.0]"))
    );
    // --per-game 2: two of the second game's positions (the first game is
    // too short to give any), the same two every time.
    let few = || {
        let o = lab(&[
            "datagen",
            "--pgn",
            path(&pgn),
            "--out",
            path(&out),
            "--per-game",
            "2",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::read_to_string(&out).unwrap()
    };
    let first = few();
    assert!(first.starts_with(&format!(
        "# stockman-lab datagen --pgn {} --per-game 2",
        path(&pgn)
    )));
    assert_eq!(check_lines(&first), 2);
    let mut all = data.lines();
    assert!(
        first
            .lines()
            .filter(|l| !l.starts_with('#'))
            .all(|l| all.any(|x| x == l))
    );
    assert_eq!(few(), first);
}

/// The same game bare and annotated as sites and GUIs write it: comments,
/// clock comments, nested variations, NAGs and glyphs, `;` comments, tags
/// two to a line. Its main line gives the same positions.
#[test]
fn datagen_reads_the_main_line_of_annotated_pgn() {
    let dir = scratch("pgn-annotated");
    let (bare, annotated) = (dir.join("bare.pgn"), dir.join("annotated.pgn"));
    std::fs::write(
        &bare,
        "[Event \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 \
         6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0\n",
    )
    .unwrap();
    std::fs::write(
        &annotated,
        "[Event \"y\"] [Site \"https://example.org/\\\"game\\\"\"]\n[Result \"1-0\"]\n\n\
         1. e4 { [%clk 0:03:00] } e5 $1 2. Nf3 Nc6 (2... d6 { Philidor (solid) } 3. d4 \
         (3. Bc4 Be7) exd4) 3. Bb5!? a6 ; the Morphy defence {\n\
         4. Ba4 Nf6 5. O-O Be7 $10 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3?! Nb8 $5 \
         { Breyer } (9... Na5 10. Bc2 c5) 10. d4 Nbd7 { [%eval 0.3] } 1-0\n",
    )
    .unwrap();
    let positions = |pgn: &Path| {
        let out = dir.join("data.txt");
        let o = lab(&["datagen", "--pgn", path(pgn), "--out", path(&out)]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let data = std::fs::read_to_string(&out).unwrap();
        assert!(
            text(&o.stdout).contains("datagen: 1 games (0 skipped)"),
            "{}",
            text(&o.stdout)
        );
        data.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let expected = positions(&bare);
    assert!(!expected.is_empty());
    assert_eq!(positions(&annotated), expected);
}

/// The module comment of a generated `tuned.rs`, its lines joined: the note
/// is wrapped wherever the length of its other text (paths) puts the breaks.
fn provenance_note(source: &str) -> String {
    let lines: Vec<&str> = source
        .lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .collect();
    lines.join(" ")
}

#[test]
fn tune_writes_the_generated_source() {
    let dir = scratch("tune");
    let data = dir.join("data.txt");
    assert!(datagen(&data, "3").status.success());
    let out = dir.join("tuned.rs");
    let o = lab(&[
        "tune",
        "--data",
        path(&data),
        "--epochs",
        "3",
        "--out",
        path(&out),
        "--min-count",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let last = text(&o.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(
        last.starts_with("tune: ") && last.contains(" -> "),
        "{last}"
    );
    assert!(text(&o.stderr).contains("epoch 3/3"));
    let source = std::fs::read_to_string(&out).unwrap();
    assert!(source.contains("//! Provenance:\n//! Tuned by `stockman-lab tune`"));
    assert!(source.contains("stockman-lab datagen --games 2 --nodes 300 --seed 3"));
    assert!(source.contains("tunable_weights! {") && source.contains("TEMPO: S = s("));
    assert!(!source.contains("L2 penalty"));
    // With an L2 penalty: reported and recorded.
    let o = lab(&[
        "tune",
        "--data",
        path(&data),
        "--epochs",
        "3",
        "--out",
        path(&out),
        "--min-count",
        "1",
        "--l2",
        "0.01",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("(objective with L2 0.01: "), "{stdout}");
    assert!(text(&o.stderr).contains(" objective "));
    let source = std::fs::read_to_string(&out).unwrap();
    let note = provenance_note(&source);
    assert!(
        note.contains("L2 penalty towards the starting weights, lambda = 0.01"),
        "{note}"
    );
    // A frozen weight keeps its value and the note says so.
    let tempo = |source: &str| {
        source
            .lines()
            .find(|l| l.trim_start().starts_with("TEMPO: S = "))
            .map(str::to_string)
    };
    let before = tempo(&std::fs::read_to_string(common::repo_path("src/eval/tuned.rs")).unwrap());
    assert!(before.is_some());
    let bold = |freeze: &[&str]| {
        let mut args = vec![
            "tune",
            "--data",
            path(&data),
            "--epochs",
            "30",
            "--rate",
            "5",
            "--out",
            path(&out),
            "--min-count",
            "1",
        ];
        args.extend_from_slice(freeze);
        let o = lab(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        std::fs::read_to_string(&out).unwrap()
    };
    // Thirty bold steps move the tempo bonus, unless it is frozen.
    assert_ne!(tempo(&bold(&[])), before);
    let source = bold(&["--freeze", "TEMPO"]);
    assert_eq!(tempo(&source), before);
    let note = provenance_note(&source);
    assert!(note.contains("Held as they were: TEMPO."), "{note}");
}

/// Data lines of a datagen run with `extra` arguments, and its header.
fn datagen_with(dir: &Path, name: &str, extra: &[&str]) -> (String, Vec<String>) {
    let out = dir.join(name);
    let o = datagen_extra(&out, "5", extra);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let data = std::fs::read_to_string(&out).unwrap();
    let header = data.lines().next().unwrap().to_string();
    let lines = data
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    (header, lines)
}

/// `--time-limit` stops a run that asked for far more games than fit in the
/// time: the games started finish, the file is written whole (no
/// `.partial` left) with fewer games, and the header records the limit.
#[test]
fn datagen_stops_starting_games_at_the_time_limit() {
    let dir = scratch("datagen-time-limit");
    let out = dir.join("burst.txt");
    let o = lab(&[
        "datagen",
        "--out",
        path(&out),
        "--games",
        "1000000",
        "--nodes",
        "300",
        "--threads",
        "1",
        "--time-limit",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("--time-limit reached"),
        "{}",
        text(&o.stderr)
    );
    let games: u64 = text(&o.stdout)
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", text(&o.stdout)));
    assert!((1..1_000_000).contains(&games), "{games}");
    let data = std::fs::read_to_string(&out).unwrap();
    assert!(data.lines().next().unwrap().contains("--time-limit 1"));
    assert!(check_lines(&data) > 0);
    assert!(!dir.join("burst.txt.partial").exists());
}

/// `--evaluation classical` and `--eval-file` change what the players search
/// with, and the header says so: the shipped network's file plays the very
/// games of the built-in network, another network or the classical
/// evaluation other games.
#[test]
fn datagen_plays_with_the_chosen_evaluation() {
    let dir = scratch("datagen-evaluation");
    let net = |name: &str| format!("{}/../net/{name}", env!("CARGO_MANIFEST_DIR"));
    let (_, built_in) = datagen_with(&dir, "built-in.txt", &[]);
    let shipped = net("stockman.nnue");
    let (header, same) = datagen_with(&dir, "file.txt", &["--eval-file", &shipped]);
    assert!(
        header.contains(&format!("--eval-file {shipped}")),
        "{header}"
    );
    assert_eq!(same, built_in);
    let own = net("own-128.nnue");
    let (_, other) = datagen_with(&dir, "own.txt", &["--eval-file", &own]);
    assert_ne!(other, built_in);
    let (header, classical) = datagen_with(&dir, "classical.txt", &["--evaluation", "classical"]);
    assert!(header.contains("--evaluation classical"), "{header}");
    assert_ne!(classical, built_in);
}

#[test]
fn bad_input_is_refused() {
    let dir = scratch("bad");
    let out = dir.join("x.txt");
    let fails = |args: &[&str], says: &str| {
        let o = lab(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = text(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    };
    fails(&["datagen", "--out", path(&out), "--games", "0"], "--games");
    fails(
        &[
            "datagen",
            "--out",
            path(&out),
            "--games",
            "2",
            "--time-limit",
            "0",
        ],
        "--time-limit",
    );
    let not_a_network = format!("{}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
    for (extra, says) in [
        (
            &["--eval-file", &not_a_network][..],
            "not a Stockman network",
        ),
        (&["--eval-file", "/no/such/net.nnue"], "/no/such/net.nnue"),
        (&["--evaluation", "sparkly"], "unknown evaluation 'sparkly'"),
        (
            &["--evaluation", "classical", "--eval-file", &not_a_network],
            "--evaluation classical does not use",
        ),
    ] {
        let mut args = vec!["datagen", "--out", path(&out), "--games", "1"];
        args.extend(extra);
        fails(&args, says);
    }
    assert!(!out.exists(), "a refused run wrote {}", out.display());
    fails(&["datagen", "--out", path(&out)], "--games");
    fails(
        &[
            "datagen",
            "--out",
            path(&out),
            "--games",
            "1",
            "--nodes",
            "5",
            "--depth",
            "3",
        ],
        "--depth",
    );
    let missing = dir.join("missing.epd");
    fails(
        &[
            "datagen",
            "--out",
            path(&out),
            "--games",
            "1",
            "--openings",
            path(&missing),
        ],
        "cannot read",
    );
    fails(&["tune", "--data", path(&missing)], "cannot read");
    fails(&["tune", "--data", "/dev/zero"], "not a regular file");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "8/8/8/8/8/8/8/K6k w - - 0 1 [1.0]\nnot a position [0.5]\n",
    )
    .unwrap();
    fails(
        &["tune", "--data", path(&bad), "--epochs", "0"],
        "bad.txt:2:",
    );
    fails(&["tune", "--data", path(&bad), "--rate", "0"], "positive");
    fails(&["tune", "--data", path(&bad), "--l2=-1"], "non-negative");
    fails(
        &["tune", "--data", path(&bad), "--freeze", "NO_SUCH_WEIGHT"],
        "--freeze NO_SUCH_WEIGHT: no such weight",
    );
    fails(
        &[
            "datagen",
            "--out",
            path(&out),
            "--games",
            "1",
            "--per-game",
            "0",
        ],
        "--per-game",
    );
    fails(&["tune"], "--data");
}
