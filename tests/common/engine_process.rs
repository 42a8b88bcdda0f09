//! The real `stockman` binary behind pipes, driven as a GUI or a match runner
//! drives it: lines written to its stdin, its stdout read by a thread into a
//! channel. Every line the engine prints is checked for protocol hygiene as
//! it is read. Timeouts only guard against hangs (CI machines are slow and
//! shared); they never measure speed. The child is killed on drop.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Long enough for any single step of a test on a loaded machine.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The centipawn values of one `eval` answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalReport {
    /// The one the search would use (shown first).
    pub shown: i32,
    pub network: i32,
    pub classical: i32,
}

pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    transcript: Vec<String>,
    /// The reader thread saw the end of the engine's stdout.
    eof: bool,
}

impl EngineProcess {
    /// Sends `eval` and reads its `info string static evaluation cp ...
    /// (side to move; network cp ..., classical cp ...)` line.
    pub fn eval(&mut self) -> EvalReport {
        self.send("eval");
        let lines = self.sync();
        let line = lines
            .iter()
            .find(|l| l.starts_with("info string static evaluation cp "))
            .unwrap_or_else(|| self.fail("no static evaluation line"));
        let value = |label: &str| -> i32 {
            let at = line
                .find(label)
                .unwrap_or_else(|| panic!("no '{label}' in {line}"));
            let rest = &line[at + label.len()..];
            let end = rest.find([',', ')', ' ']).unwrap_or(rest.len());
            rest[..end]
                .parse()
                .unwrap_or_else(|_| panic!("bad number in {line}"))
        };
        EvalReport {
            shown: value("static evaluation cp "),
            network: value("network cp "),
            classical: value("classical cp "),
        }
    }

    /// Starts the engine in UCI mode (no arguments).
    pub fn spawn() -> EngineProcess {
        EngineProcess::spawn_with_args(&[])
    }

    pub fn spawn_with_args(args: &[&str]) -> EngineProcess {
        EngineProcess::spawn_with_env(args, &[])
    }

    /// Starts the engine with `args` and extra environment variables.
    pub fn spawn_with_env(args: &[&str], env: &[(&str, &str)]) -> EngineProcess {
        let mut command = Command::new(super::engine_bin());
        command.args(args).envs(env.iter().copied());
        EngineProcess::spawn_command(command)
    }

    /// Starts `command` (the engine, or something that speaks for it, such
    /// as a relay in front of it) with its stdin and stdout on pipes.
    pub fn spawn_command(mut command: Command) -> EngineProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("start {command:?}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut raw = Vec::new();
            loop {
                raw.clear();
                match reader.read_until(b'\n', &mut raw) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Keep a '\r' if there is one: the hygiene check rejects it.
                        if raw.last() == Some(&b'\n') {
                            raw.pop();
                        }
                        let line = String::from_utf8_lossy(&raw).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            transcript: Vec::new(),
            eof: false,
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends bytes exactly as given.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(
            "> {}",
            String::from_utf8_lossy(bytes).trim_end_matches('\n')
        ));
        let stdin = self.stdin.as_mut().expect("stdin is still open");
        if let Err(e) = stdin.write_all(bytes).and_then(|_| stdin.flush()) {
            self.fail(&format!("writing to the engine failed: {e}"));
        }
    }

    /// Closes the engine's stdin: the end of input.
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` or at the end of output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        if self.eof {
            return None;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                if let Err(problem) = check_hygiene(&line) {
                    self.fail(&format!("badly formed output line {line:?}: {problem}"));
                }
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                None
            }
        }
    }

    /// Reads until a line satisfies `pred`; returns it. Lines before it are dropped.
    pub fn expect_line(
        &mut self,
        what: &str,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) if pred(&line) => return line,
                Some(_) => {}
                None => self.fail(&format!("no line {what} within {timeout:?}")),
            }
        }
    }

    /// Every line up to and including the first that starts with `prefix`
    /// (as a whole word).
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = starts_with_word(&line, prefix);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => self.fail(&format!(
                    "no line starting with '{prefix}' within {timeout:?}"
                )),
            }
        }
    }

    /// Every line printed during `period` (which must pass without the engine
    /// closing its output).
    pub fn lines_during(&mut self, period: Duration) -> Vec<String> {
        let deadline = Instant::now() + period;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.next_line(left) {
                Some(line) => lines.push(line),
                None if self.eof => self.fail("the engine closed its output"),
                None => return lines,
            }
        }
    }

    /// `isready` → `readyok`; returns the lines printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", TIMEOUT);
        lines.pop();
        lines
    }

    /// `uci` → `uciok`; returns the lines before `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let mut lines = self.read_until("uciok", TIMEOUT);
        lines.pop();
        lines
    }

    /// Waits for the process to end; `None` if it is still running after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() >= deadline => return None,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => self.fail(&format!("waiting for the engine: {e}")),
            }
        }
    }

    /// The conversation so far, one line each, for failure messages.
    pub fn transcript(&self) -> String {
        // The last few hundred lines are enough to see what went wrong.
        let skip = self.transcript.len().saturating_sub(300);
        self.transcript[skip..].join("\n")
    }

    /// Panics with the message and the conversation.
    pub fn fail(&self, message: &str) -> ! {
        panic!(
            "{message}\n--- conversation (> sent, < received) ---\n{}\n---",
            self.transcript()
        )
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Does `line` start with `word` followed by a blank or the end?
/// The move of the last line of `lines`, a `bestmove` line.
pub fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    last.split_whitespace().nth(1).expect("a move").to_string()
}

pub fn starts_with_word(line: &str, word: &str) -> bool {
    line.strip_prefix(word)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// A perft line as Stockfish prints it: `e2e4: 600`.
pub fn is_perft_line(line: &str) -> bool {
    let Some((mv, count)) = line.split_once(": ") else {
        return false;
    };
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
        && !count.is_empty()
        && count.bytes().all(|c| c.is_ascii_digit())
}

/// What every line on the protocol channel must look like: no carriage
/// return, no leading or trailing blank, single spaces, and a known keyword
/// first (or a perft line, the blank line after them, `Nodes searched: N`).
pub fn check_hygiene(line: &str) -> Result<(), String> {
    if line.is_empty() {
        return Ok(()); // the blank line between perft moves and the total
    }
    if line.contains('\r') {
        return Err("carriage return".into());
    }
    if line.contains('\t') {
        return Err("tab".into());
    }
    if line.starts_with(' ') {
        return Err("leading blank".into());
    }
    if line.ends_with(' ') {
        return Err("trailing blank".into());
    }
    if line.contains("  ") {
        return Err("double space".into());
    }
    if let Some(c) = line.chars().find(|c| c.is_control()) {
        return Err(format!("control character {c:?}"));
    }
    const KEYWORDS: &[&str] = &["id", "option", "uciok", "readyok", "info", "bestmove"];
    if KEYWORDS.iter().any(|k| starts_with_word(line, k)) {
        return check_numbers(line);
    }
    if is_perft_line(line) {
        return Ok(());
    }
    if let Some(n) = line.strip_prefix("Nodes searched: ")
        && n.parse::<u64>().is_ok()
    {
        return Ok(());
    }
    Err("does not start with a UCI keyword".into())
}

/// In an `info` line (not `info string`), the numeric fields are integers.
fn check_numbers(line: &str) -> Result<(), String> {
    if !starts_with_word(line, "info") || starts_with_word(line, "info string") {
        return Ok(());
    }
    let tokens: Vec<&str> = line.split(' ').collect();
    let mut i = 1;
    while i < tokens.len() {
        let key = tokens[i];
        match key {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time" | "tbhits"
            | "currmovenumber" | "cpuload" => {
                let v = tokens.get(i + 1).copied().unwrap_or("");
                if v.parse::<u64>().is_err() {
                    return Err(format!("'{key}' is followed by '{v}', not a whole number"));
                }
                i += 2;
            }
            "score" => {
                let kind = tokens.get(i + 1).copied().unwrap_or("");
                let v = tokens.get(i + 2).copied().unwrap_or("");
                if !matches!(kind, "cp" | "mate") || v.parse::<i64>().is_err() {
                    return Err(format!("bad score '{kind} {v}'"));
                }
                i += 3;
            }
            "wdl" => {
                let nums: Vec<&str> = tokens.iter().skip(i + 1).take(3).copied().collect();
                if nums.len() != 3 || nums.iter().any(|n| n.parse::<u32>().is_err()) {
                    return Err(format!("bad wdl {nums:?}"));
                }
                i += 4;
            }
            // Everything after `pv`, `string` or `refutation` is moves or text.
            "pv" | "string" | "refutation" | "currline" => return Ok(()),
            _ => i += 1,
        }
    }
    Ok(())
}
