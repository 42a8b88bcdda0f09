//! Another UCI engine as a labeller: one child process, asked for its
//! judgement of one position at a time — Stockfish's static `eval` or a
//! search to a fixed depth or node count — and the parsing of its answers.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// What the engine is asked for each position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Stockfish's `eval` debug command: its static evaluation, read from
    /// the `Final evaluation` line (already from White's point of view).
    StaticEval,
    /// `go depth D` after `ucinewgame`: the last exact score of the search.
    Depth(u32),
    /// `go nodes N` after `ucinewgame`.
    Nodes(u64),
}

impl Probe {
    /// As the command line spells it.
    pub fn describe(self) -> String {
        match self {
            Probe::StaticEval => "--static-eval".into(),
            Probe::Depth(d) => format!("--depth {d}"),
            Probe::Nodes(n) => format!("--nodes {n}"),
        }
    }
}

/// The engine's judgement of a position, from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Judgement {
    /// Centipawns for White.
    Centipawns(f64),
    /// Mate in this many moves: positive when White mates.
    Mate(i32),
    /// The engine gives no value (Stockfish's `eval` in check).
    Unavailable,
}

impl Judgement {
    /// From White's point of view when `to_move_is_white`, else negated.
    fn for_white(self, to_move_is_white: bool) -> Judgement {
        if to_move_is_white {
            return self;
        }
        match self {
            Judgement::Centipawns(cp) => Judgement::Centipawns(-cp),
            Judgement::Mate(n) => Judgement::Mate(-n),
            Judgement::Unavailable => Judgement::Unavailable,
        }
    }
}

/// The value of a `Final evaluation` line of Stockfish's `eval` (pawns for
/// White: `Final evaluation       +0.18 (white side) [with scaled NNUE, ...]`,
/// or `Final evaluation: none (in check)`); `None` for other lines.
pub fn parse_final_evaluation(line: &str) -> Option<Result<Judgement, String>> {
    let rest = line.trim().strip_prefix("Final evaluation")?;
    let rest = rest.trim_start_matches(':').trim();
    if rest.starts_with("none") {
        return Some(Ok(Judgement::Unavailable));
    }
    if !rest.contains("white side") {
        return Some(Err(format!(
            "'{}': the evaluation does not say it is White's",
            line.trim()
        )));
    }
    let value = rest.split_whitespace().next().unwrap_or_default();
    Some(match value.parse::<f64>() {
        Ok(pawns) if pawns.is_finite() => Ok(Judgement::Centipawns(pawns * 100.0)),
        _ => Err(format!("'{}': no number of pawns", line.trim())),
    })
}

/// A score of an `info` line (side to move's point of view).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct InfoScore {
    pub judgement: Judgement,
    /// A `lowerbound` or `upperbound` score rather than an exact one.
    pub bound: bool,
}

/// The score of an `info ... score cp N | mate N [lowerbound|upperbound]`
/// line of the first principal variation; `None` for other lines.
pub fn parse_info_score(line: &str) -> Option<InfoScore> {
    let mut tokens = line.split_whitespace();
    if tokens.next() != Some("info") {
        return None;
    }
    // Whatever follows `string` is free text.
    let tokens: Vec<&str> = tokens.take_while(|t| *t != "string").collect();
    let after = |key: &str| {
        tokens
            .iter()
            .position(|t| *t == key)
            .and_then(|i| tokens.get(i + 1).copied())
    };
    if after("multipv").is_some_and(|n| n != "1") {
        return None;
    }
    let at = tokens.iter().position(|t| *t == "score")?;
    let kind = *tokens.get(at + 1)?;
    let value: i64 = tokens.get(at + 2)?.parse().ok()?;
    let judgement = match kind {
        "cp" => Judgement::Centipawns(value as f64),
        "mate" => Judgement::Mate(value.clamp(i32::MIN as i64, i32::MAX as i64) as i32),
        _ => return None,
    };
    let bound = matches!(
        tokens.get(at + 3).copied(),
        Some("lowerbound" | "upperbound")
    );
    Some(InfoScore { judgement, bound })
}

/// Of a search's scores, the last exact one, or the last bound when no
/// score was exact.
fn final_score(scores: &[InfoScore]) -> Option<Judgement> {
    scores
        .iter()
        .rev()
        .find(|s| !s.bound)
        .or(scores.last())
        .map(|s| s.judgement)
}

/// A running UCI engine. Its output is read on a thread, so a silent or
/// hung engine costs `timeout` and an error, never a hang.
pub struct UciProcess {
    child: Child,
    input: BufWriter<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
    /// `id name` of the engine (the command when it gives none).
    pub name: String,
}

impl UciProcess {
    /// Starts `command` (a program and its arguments), completes the UCI
    /// handshake and sets `options` (`(name, value)`).
    pub fn start(
        command: &[String],
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<UciProcess, String> {
        let (program, args) = command.split_first().ok_or("no engine command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the engine '{program}': {e}"))?;
        let input = BufWriter::new(child.stdin.take().ok_or("no engine stdin")?);
        let output = child.stdout.take().ok_or("no engine stdout")?;
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciProcess {
            child,
            input,
            lines,
            timeout,
            name: program.clone(),
        };
        engine.send("uci")?;
        let mut name = None;
        engine.read_until("uciok", |line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            }
        })?;
        if let Some(n) = name {
            engine.name = n;
        }
        for (option, value) in options {
            engine.send(&format!("setoption name {option} value {value}"))?;
        }
        engine.send("isready")?;
        engine.read_until("readyok", |_| {})?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("{}: cannot write to the engine: {e}", self.name))
    }

    /// Reads lines until one whose first word is `last`, passing each
    /// earlier line to `each`.
    fn read_until(&mut self, last: &str, mut each: impl FnMut(&str)) -> Result<(), String> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(last) => return Ok(()),
                Ok(line) => each(&line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "{}: no '{last}' within {:?}",
                        self.name, self.timeout
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine exited before '{last}'", self.name));
                }
            }
        }
    }

    /// The engine's judgement of `fen` from White's point of view.
    pub fn judge(&mut self, fen: &str, probe: Probe) -> Result<Judgement, String> {
        match probe {
            Probe::StaticEval => self.static_eval(fen),
            Probe::Depth(d) => self.search(fen, &format!("go depth {d}")),
            Probe::Nodes(n) => self.search(fen, &format!("go nodes {n}")),
        }
    }

    /// Stockfish's `eval` of `fen` (its `Final evaluation`, White's already).
    fn static_eval(&mut self, fen: &str) -> Result<Judgement, String> {
        self.send(&format!("position fen {fen}"))?;
        self.send("eval")?;
        self.send("isready")?;
        let mut found = None;
        self.read_until("readyok", |line| {
            if let Some(value) = parse_final_evaluation(line) {
                found = Some(value);
            }
        })?;
        found.unwrap_or_else(|| {
            Err(format!(
                "{}: no 'Final evaluation' line after 'eval' for {fen} \
                 (--static-eval needs Stockfish; use --depth or --nodes for other engines)",
                self.name
            ))
        })
    }

    /// The final score of a search of `fen` started with `go`, from a
    /// cleared state (`ucinewgame`), turned to White's point of view.
    fn search(&mut self, fen: &str, go: &str) -> Result<Judgement, String> {
        self.send("ucinewgame")?;
        self.send(&format!("position fen {fen}"))?;
        self.send(go)?;
        let mut scores = Vec::new();
        self.read_until("bestmove", |line| scores.extend(parse_info_score(line)))?;
        let score = final_score(&scores)
            .ok_or_else(|| format!("{}: the search of {fen} gave no score", self.name))?;
        let white_to_move = fen.split_whitespace().nth(1) != Some("b");
        Ok(score.for_white(white_to_move))
    }
}

impl Drop for UciProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_final_evaluation_lines() {
        let line = "Final evaluation       +0.18 (white side) [with scaled NNUE, hybrid, ...]";
        assert_eq!(
            parse_final_evaluation(line),
            Some(Ok(Judgement::Centipawns(18.0)))
        );
        assert_eq!(
            parse_final_evaluation("Final evaluation      -12.31 (white side)"),
            Some(Ok(Judgement::Centipawns(-1231.0)))
        );
        assert_eq!(
            parse_final_evaluation("Final evaluation: none (in check)"),
            Some(Ok(Judgement::Unavailable))
        );
        assert_eq!(
            parse_final_evaluation("NNUE evaluation        +0.14 (white side)"),
            None
        );
        assert!(matches!(
            parse_final_evaluation("Final evaluation +0.18 (side to move)"),
            Some(Err(_))
        ));
        assert!(matches!(
            parse_final_evaluation("Final evaluation x (white side)"),
            Some(Err(_))
        ));
    }

    #[test]
    fn info_scores_of_the_first_line_only() {
        let s = parse_info_score(
            "info depth 2 seldepth 2 multipv 1 score cp -5 nodes 71 nps 71000 pv e7e5",
        );
        assert_eq!(
            s,
            Some(InfoScore {
                judgement: Judgement::Centipawns(-5.0),
                bound: false
            })
        );
        assert_eq!(
            parse_info_score("info depth 9 score mate -3 pv a1a2").map(|s| s.judgement),
            Some(Judgement::Mate(-3))
        );
        assert!(
            parse_info_score("info depth 9 score cp 40 lowerbound nodes 5")
                .unwrap()
                .bound
        );
        assert_eq!(
            parse_info_score("info depth 9 multipv 2 score cp 40 pv a1a2"),
            None
        );
        assert_eq!(parse_info_score("info string score cp 3"), None);
        assert_eq!(
            parse_info_score("info depth 1 score cp 7 string score cp 3").map(|s| s.judgement),
            Some(Judgement::Centipawns(7.0))
        );
        assert_eq!(parse_info_score("info depth 3 nodes 100"), None);
        assert_eq!(parse_info_score("bestmove e2e4"), None);
    }

    #[test]
    fn the_last_exact_score_wins_and_black_scores_are_negated() {
        let exact = |cp| InfoScore {
            judgement: Judgement::Centipawns(cp),
            bound: false,
        };
        let bound = |cp| InfoScore {
            judgement: Judgement::Centipawns(cp),
            bound: true,
        };
        assert_eq!(
            final_score(&[exact(10.0), exact(20.0), bound(35.0)]),
            Some(Judgement::Centipawns(20.0))
        );
        assert_eq!(
            final_score(&[bound(35.0)]),
            Some(Judgement::Centipawns(35.0))
        );
        assert_eq!(final_score(&[]), None);
        assert_eq!(
            Judgement::Centipawns(20.0).for_white(false),
            Judgement::Centipawns(-20.0)
        );
        assert_eq!(Judgement::Mate(2).for_white(false), Judgement::Mate(-2));
        assert_eq!(Judgement::Mate(2).for_white(true), Judgement::Mate(2));
    }
}
