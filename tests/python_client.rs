//! The python-chess client test (tests/python/client_test.py) against the
//! real binary: option declarations as python-chess validates them, analyse
//! with and without MultiPV, complete self-play games, clocks and ponder.
//! python-chess must be installed (`pip install chess`); the test fails
//! rather than skips without it, so CI cannot pass without running it.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Only guards against a hang: a normal run takes seconds.
const LIMIT: Duration = Duration::from_secs(300);

#[test]
fn python_chess_client() {
    let python = common::python();
    let probe = Command::new(&python)
        .args(["-c", "import chess.engine"])
        .output();
    match probe {
        Err(e) => {
            panic!("cannot run {python} ({e}): install Python 3; `make test` installs python-chess")
        }
        Ok(out) if !out.status.success() => panic!(
            "python-chess is not importable by {python}: `make test` installs it\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => {}
    }

    let script = common::repo_path("tests/python/client_test.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_stockman"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start Python");
    // Read both pipes on threads so a chatty script never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for python3") {
            break Some(status);
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    println!("{out}");
    match status {
        Some(s) if s.success() => {}
        Some(s) => panic!(
            "{} failed ({s})\n--- stdout ---\n{out}\n--- stderr ---\n{err}",
            script.display()
        ),
        None => panic!(
            "{} still running after {LIMIT:?}\n--- stdout ---\n{out}\n--- stderr ---\n{err}",
            script.display()
        ),
    }
}
