//! `stockman-lab train-net` through the real binary, on a tiny data set: it
//! learns that a queen up wins, writes a network the engine's own reader
//! takes (the library's and the engine's, by `setoption name EvalFile`), and
//! refuses bad input with a message and a non-zero exit.

mod common;

use common::cli::{lab, path, scratch, text};
use common::engine_process::EngineProcess;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
use stockman::nnue::{KingBuckets, Network, file_bytes};

/// The shipped network: 256 units, eight output layers.
const NET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../net/stockman.nnue");

const UP: &str = "4k3/pppp4/8/8/8/8/PPPP4/3QK3";
const DOWN: &str = "3qk3/pppp4/8/8/8/8/PPPP4/4K3";

/// Label lines in `label`'s format: White a queen up wins, a queen down loses.
fn data() -> String {
    let mut text = String::from("# a queen up or down\n");
    for i in 0..64 {
        let side = if i % 2 == 0 { "w" } else { "b" };
        text += &format!("{UP} {side} - - 0 1 | 900 | 0.95\n");
        text += &format!("{DOWN} {side} - - 0 1 | -900 | 0.05\n");
    }
    text
}

fn evaluate(net: &Network, fen: &str) -> i32 {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    net.evaluate(pos.board(), pos.turn())
}

#[test]
fn trains_a_network_the_engine_reads() {
    let dir = scratch("train-net");
    let (input, out) = (dir.join("data.txt"), dir.join("net.nnue"));
    std::fs::write(&input, data()).unwrap();
    let run = lab(&[
        "train-net",
        "--data",
        path(&input),
        "--out",
        path(&out),
        "--epochs",
        "40",
        "--batch",
        "32",
        "--rate",
        "0.01",
        "--validation",
        "0.1",
        "--threads",
        "2",
    ]);
    let err = text(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(
        err.contains("116 positions for training, 12 held out"),
        "{err}"
    );
    assert!(
        err.contains("epoch 40/40") && err.contains("held out 0.0"),
        "{err}"
    );
    assert!(text(&run.stdout).contains("wrote"));
    let net = Network::load(path(&out)).unwrap();
    assert!(evaluate(&net, &format!("{UP} w - - 0 1")) > 300);
    assert!(evaluate(&net, &format!("{UP} b - - 0 1")) < -300);
    assert!(evaluate(&net, &format!("{DOWN} b - - 0 1")) > 300);
    the_engine_plays_with_it(&out, &net);
}

/// The network `eval` reports, for the side to move.
fn engine_network_eval(e: &mut EngineProcess, fen: &str) -> i32 {
    e.send(&format!("position fen {fen}"));
    e.eval().network
}

/// `EvalFile` swaps the engine's network for the trained one; a file that
/// is not a network is refused and the trained one stays; an empty value
/// brings back the built-in network.
fn the_engine_plays_with_it(file: &std::path::Path, net: &Network) {
    let fen = format!("{UP} w - - 0 1");
    let built_in = evaluate(&Network::embedded(), &fen);
    let trained = evaluate(net, &fen);
    assert_ne!(built_in, trained);
    let mut e = EngineProcess::spawn();
    e.handshake();
    assert_eq!(engine_network_eval(&mut e, &fen), built_in);
    e.send(&format!("setoption name EvalFile value {}", path(file)));
    let answer = e.sync();
    assert!(
        answer
            .iter()
            .any(|l| l.starts_with("info string EvalFile: network read from")),
        "{answer:?}"
    );
    assert_eq!(engine_network_eval(&mut e, &fen), trained);
    let not_a_network = file.with_extension("txt");
    std::fs::write(&not_a_network, "STKNET01 but nothing else").unwrap();
    for bad in [path(&not_a_network), "/no/such/file.nnue"] {
        e.send(&format!("setoption name EvalFile value {bad}"));
        let answer = e.sync();
        assert!(
            answer.len() == 1 && answer[0].starts_with("info string EvalFile not changed ("),
            "{answer:?}"
        );
        assert_eq!(engine_network_eval(&mut e, &fen), trained);
    }
    e.send("go depth 3");
    e.expect_line(
        "bestmove",
        |l| l.starts_with("bestmove "),
        std::time::Duration::from_secs(30),
    );
    e.send("setoption name EvalFile value");
    assert_eq!(engine_network_eval(&mut e, &fen), built_in);
}

/// Runs train-net on `data()` (written to DIR/data.txt) into DIR/NAME with
/// `extra` arguments.
fn run_on_data(dir: &std::path::Path, name: &str, extra: &[&str]) -> std::process::Output {
    let (input, out) = (dir.join("data.txt"), dir.join(name));
    std::fs::write(&input, data()).unwrap();
    let mut args = vec!["train-net", "--data", path(&input), "--out", path(&out)];
    args.extend(extra);
    lab(&args)
}

/// Trains on `data()` with `extra` arguments; the network file's bytes.
fn train(dir: &std::path::Path, name: &str, extra: &[&str]) -> Vec<u8> {
    let mut args = vec!["--batch", "8"];
    args.extend(extra);
    if !extra.contains(&"--epochs") {
        args.extend(["--epochs", "3"]);
    }
    let run = run_on_data(dir, name, &args);
    assert!(run.status.success(), "{}", text(&run.stderr));
    std::fs::read(dir.join(name)).unwrap()
}

/// A seed repeats a run byte for byte, on one thread or two (gradients are
/// summed in the same order); another seed gives another network.
#[test]
fn a_seed_repeats_a_run_whatever_the_threads() {
    let dir = scratch("train-net-seed");
    let one = train(&dir, "one.nnue", &["--threads", "1", "--seed", "5"]);
    let two = train(&dir, "two.nnue", &["--threads", "2", "--seed", "5"]);
    assert!(one == two, "the same seed on 1 and 2 threads differs");
    let other = train(&dir, "other.nnue", &["--threads", "2", "--seed", "6"]);
    assert!(one != other, "another seed gave the same network");
}

/// The same with king buckets and minibatches of several chunks of 2,048
/// positions, whose gradients two threads sum side by side (rows of the
/// factorised sets merged in parallel): still the same file byte for byte.
#[test]
fn a_seed_repeats_a_king_bucket_run_over_several_chunks() {
    let dir = scratch("train-net-seed-kings");
    let input = dir.join("many.txt");
    std::fs::write(&input, data().repeat(40)).unwrap();
    let run = |name: &str, threads: &str| {
        let out = dir.join(name);
        let args = [
            "train-net",
            "--data",
            path(&input),
            "--out",
            path(&out),
            "--king-buckets",
            "8",
            "--batch",
            "5000",
            "--epochs",
            "2",
            "--threads",
            threads,
        ];
        let run = lab(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        std::fs::read(out).unwrap()
    };
    assert!(
        run("one.nnue", "1") == run("two.nnue", "2"),
        "1 and 2 threads differ"
    );
}

/// `--mirror` adds each training position with files a and h swapped (none
/// of these can castle), not the held-out ones, and the network still learns.
#[test]
fn mirror_trains_on_the_mirrored_positions_too() {
    let dir = scratch("train-net-mirror");
    let run = run_on_data(
        &dir,
        "mirror.nnue",
        &[
            "--mirror",
            "--validation",
            "0.1",
            "--epochs",
            "20",
            "--batch",
            "16",
            "--rate",
            "0.01",
        ],
    );
    let err = text(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(
        err.contains("232 positions for training (116 of them mirrors), 12 held out"),
        "{err}"
    );
    let net = Network::from_bytes(&std::fs::read(dir.join("mirror.nnue")).unwrap()).unwrap();
    // The mirror of the queen-up position, which the data does not hold.
    assert!(evaluate(&net, "3k4/4pppp/8/8/8/8/4PPPP/3KQ3 w - - 0 1") > 100);
}

/// `--validation-data` measures the held-out error on another file's
/// positions and trains on every position of --data.
#[test]
fn validation_data_is_held_out_whole() {
    let dir = scratch("train-net-validation-data");
    let other = dir.join("other.txt");
    std::fs::write(&other, format!("{UP} w - - 0 1 | 900 | 0.95\n")).unwrap();
    let run = run_on_data(
        &dir,
        "net.nnue",
        &["--validation-data", path(&other), "--epochs", "2"],
    );
    let err = text(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(
        err.contains("128 positions for training, 1 held out"),
        "{err}"
    );
    let both = run_on_data(
        &dir,
        "net.nnue",
        &["--validation-data", path(&other), "--validation", "0.1"],
    );
    assert!(!both.status.success());
    assert!(text(&both.stderr).contains("cannot be used with"));
}

/// Trains DIR/NAME with `extra` arguments and checks that the file has the
/// size of a network `hidden` wide with `buckets` output layers, that the
/// engine's reader takes it as such, that it learnt the material and that
/// the engine plays with it; the file's bytes.
fn trains_a_shape_the_engine_reads(
    dir: &std::path::Path,
    name: &str,
    extra: &[&str],
    (hidden, buckets): (usize, usize),
) -> Vec<u8> {
    trains_a_layout_the_engine_reads(dir, name, extra, (hidden, buckets, KingBuckets::NONE))
}

/// `trains_a_shape_the_engine_reads` with the input sets of `kings`.
fn trains_a_layout_the_engine_reads(
    dir: &std::path::Path,
    name: &str,
    extra: &[&str],
    (hidden, buckets, kings): (usize, usize, KingBuckets),
) -> Vec<u8> {
    let bytes = train(dir, name, extra);
    assert_eq!(bytes.len(), file_bytes(hidden, buckets, kings));
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!((net.hidden(), net.buckets()), (hidden, buckets));
    assert_eq!(net.kings(), kings);
    assert!(evaluate(&net, &format!("{UP} w - - 0 1")) > 100);
    assert!(evaluate(&net, &format!("{DOWN} w - - 0 1")) < -100);
    the_engine_plays_with_it(&dir.join(name), &net);
    bytes
}

/// `--hidden 256` makes the wider network: its file has the wider size,
/// the engine's reader takes it and the engine plays with it.
#[test]
fn trains_a_wide_network_the_engine_reads() {
    let dir = scratch("train-net-wide");
    let extra = ["--hidden", "256", "--epochs", "20"];
    trains_a_shape_the_engine_reads(&dir, "wide.nnue", &extra, (256, 1));
}

/// `--hidden 512` makes a network wider still, which the engine reads and
/// plays with.
#[test]
fn trains_a_512_wide_network_the_engine_reads() {
    let dir = scratch("train-net-512");
    let extra = ["--hidden", "512", "--epochs", "20", "--rate", "0.005"];
    trains_a_shape_the_engine_reads(&dir, "512.nnue", &extra, (512, 1));
}

/// `--king-buckets 8` makes eight input sets picked by each side's king,
/// mirrored: the third file format, with its layout, which the engine reads
/// and plays with. `--mirror` adds nothing with a mirrored layout and is
/// skipped, saying so; an unknown layout is refused before any reading.
#[test]
fn trains_a_king_bucket_network_the_engine_reads() {
    let dir = scratch("train-net-kings");
    let extra = ["--king-buckets", "8", "--epochs", "20", "--mirror"];
    let eight = stockman_lab::train::king_layouts::king_layout("8").unwrap();
    let bytes = trains_a_layout_the_engine_reads(&dir, "kings.nnue", &extra, (128, 1, eight));
    assert_eq!(&bytes[..8], b"STKNET03");
    let run = run_on_data(
        &dir,
        "kings2.nnue",
        &["--king-buckets", "16", "--mirror", "--epochs", "1"],
    );
    let err = text(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(
        err.contains("16x768 mirrored + factoriser -> 2x128 -> 1")
            && err.contains("126 positions for training (--mirror skipped: the layout mirrors)"),
        "{err}"
    );
    assert!(err.contains(" positions/s, "), "{err}");
    let refused = run_on_data(&dir, "five.nnue", &["--king-buckets", "5"]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("one of none, mirror, 4, 8, 16"));
    assert!(!dir.join("five.nnue").exists());
}

/// `--output-buckets 8` makes eight output layers chosen by piece count:
/// the second file format, which the engine reads and plays with; a count
/// beyond eight is refused before any reading.
#[test]
fn trains_a_bucketed_network_the_engine_reads() {
    let dir = scratch("train-net-buckets");
    let extra = ["--output-buckets", "8", "--epochs", "20"];
    let bytes = trains_a_shape_the_engine_reads(&dir, "buckets.nnue", &extra, (128, 8));
    assert_eq!(&bytes[..8], b"STKNET02");
    let refused = run_on_data(&dir, "nine.nnue", &["--output-buckets", "9"]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("--output-buckets"));
    assert!(!dir.join("nine.nnue").exists());
}

/// `--fit-scale` reads binary records (here made by `convert`) and prints
/// the scale that fits their scores to their results; it trains nothing and
/// refuses text data, which has no separate score and result.
#[test]
fn fits_the_scale_of_binary_records() {
    let dir = scratch("train-net-fit-scale");
    let (text_data, bin) = (dir.join("scored.txt"), dir.join("scored.bin"));
    // A queen up wins, a queen down loses, level positions draw: in
    // `<FEN> | <eval> | <result>` lines with White's centipawns.
    let mut lines = String::new();
    for i in 0..40 {
        let side = if i % 2 == 0 { "w" } else { "b" };
        lines += &format!("{UP} {side} - - 0 1 | {} | 1\n", 400 + 10 * i);
        lines += &format!("{DOWN} {side} - - 0 1 | {} | 0\n", -400 - 10 * i);
        lines += &format!(
            "4k3/pppp4/8/8/8/8/PPPP4/4K3 {side} - - 0 1 | {} | 0.5\n",
            i - 20
        );
    }
    std::fs::write(&text_data, lines).unwrap();
    let run = lab(&["convert", "--from", path(&text_data), "--out", path(&bin)]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let run = lab(&["train-net", "--data", path(&bin), "--fit-scale"]);
    let out = text(&run.stdout);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        out.contains("fits the results of 120 records best"),
        "{out}"
    );
    let scale: f64 = out
        .split("scale ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no scale in {out}"));
    // Sure results from 400 cp on and draws within 20 cp: a sigmoid
    // steeper than the default scale's (350) fits them better.
    assert!((50.0..350.0).contains(&scale), "{out}");
    let run = lab(&["train-net", "--data", path(&text_data), "--fit-scale"]);
    assert!(!run.status.success());
    assert!(text(&run.stderr).contains("binary records"));
}

/// `--init` starts from a trained network: one epoch at a tiny rate keeps
/// its judgement (a queen up still wins) where the same epoch from random
/// weights has learnt nothing yet; its width and output layers carry over,
/// and a mirrored layout of several sets starts from its one set (trained
/// with `--mirror`, so that it knows the mirrored positions too).
#[test]
fn init_starts_from_a_trained_network() {
    let dir = scratch("train-net-init");
    train(
        &dir,
        "first.nnue",
        &[
            "--epochs",
            "40",
            "--rate",
            "0.01",
            "--hidden",
            "256",
            "--output-buckets",
            "2",
            "--mirror",
        ],
    );
    let first = dir.join("first.nnue");
    let up = format!("{UP} w - - 0 1");
    let trained = evaluate(&Network::load(path(&first)).unwrap(), &up);
    assert!(trained > 300, "{trained}");
    let once = ["--epochs", "1", "--rate", "0.00001"];
    let mut from_it = once.to_vec();
    from_it.extend(["--init", path(&first), "--king-buckets", "4"]);
    let run = run_on_data(&dir, "refined.nnue", &from_it);
    let err = text(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(err.contains(&format!("from {}", path(&first))), "{err}");
    let refined = Network::load(path(&dir.join("refined.nnue"))).unwrap();
    assert_eq!(refined.hidden(), 256);
    assert_eq!(refined.buckets(), 2);
    assert_eq!(refined.kings().count(), 4);
    // Both kings stand on the e-file, where the layout mirrors the board:
    // the refined network sees what the first saw of the mirrored position.
    let mirrored = evaluate(
        &Network::load(path(&first)).unwrap(),
        "3k4/4pppp/8/8/8/8/4PPPP/3KQ3 w - - 0 1",
    );
    assert!(mirrored > 300, "{mirrored}");
    let now = evaluate(&refined, &up);
    assert!((now - mirrored).abs() <= 5, "{now} after {mirrored}");
    let from_nothing = train(&dir, "random.nnue", &once);
    let random = Network::from_bytes(&from_nothing).unwrap();
    assert!(evaluate(&random, &up) < 100);
}

#[test]
fn bad_input_is_refused() {
    let dir = scratch("train-net-bad");
    let good = dir.join("good.txt");
    std::fs::write(&good, data()).unwrap();
    let bad_fen = dir.join("bad-fen.txt");
    std::fs::write(&bad_fen, "# header\nnot/a/fen w - - 0 1 | 3 | 0.5\n").unwrap();
    let bad_label = dir.join("bad-label.txt");
    std::fs::write(&bad_label, format!("{UP} w - - 0 1 | 3 | 1.5\n")).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let out = dir.join("net.nnue");
    let missing = dir.join("missing.txt");
    let cases: [(&str, Vec<&str>, &str); 10] = [
        (
            "missing file",
            vec!["--data", path(&missing)],
            "cannot read",
        ),
        ("bad FEN", vec!["--data", path(&bad_fen)], "bad-fen.txt:2"),
        (
            "label outside 0..1",
            vec!["--data", path(&bad_label)],
            "bad-label.txt:1",
        ),
        ("no positions", vec!["--data", path(&empty)], "no positions"),
        (
            "validation too large",
            vec!["--data", path(&good), "--validation", "0.7"],
            "0.7",
        ),
        (
            "zero epochs",
            vec!["--data", path(&good), "--epochs", "0"],
            "epochs",
        ),
        (
            "a width the engine cannot read",
            vec!["--data", path(&good), "--hidden", "100"],
            "not 100",
        ),
        (
            "--init that is not a network",
            vec!["--data", path(&good), "--init", path(&good)],
            "good.txt",
        ),
        (
            "--init of another width",
            vec!["--data", path(&good), "--init", NET, "--hidden", "128"],
            "not --hidden 128",
        ),
        (
            "--init with output layers it cannot give",
            vec![
                "--data",
                path(&good),
                "--init",
                NET,
                "--output-buckets",
                "3",
            ],
            "8 output buckets",
        ),
    ];
    for (what, args, expected) in cases {
        let mut all = vec!["train-net", "--out", path(&out)];
        all.extend(args);
        let run = lab(&all);
        let err = text(&run.stderr);
        assert!(!run.status.success(), "{what}: succeeded");
        assert!(err.contains(expected), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    assert!(!out.exists(), "nothing written on failure");
}
