//! Parsing one input line into a `Command`. Only the keywords are matched
//! case-insensitively; FENs, moves and option values keep their case. Bad
//! tokens become error messages for `info string`, never panics.

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    Fen(String),
}

/// The parameters of `go`, as given (times in milliseconds, clamped at 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub searchmoves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<i64>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    /// Problems met while parsing; the rest of the line still counts.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    Go(GoParams),
    /// `go perft <depth>`
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `bench [depth]`: the node signature, as on the command line.
    Bench(Option<i64>),
    /// `d`: show the current position.
    Display,
    /// `eval`: the static evaluation of the current position.
    Eval,
    /// `genfens N seed S book <None|FILE>`: OpenBench's opening positions.
    Genfens(crate::genfens::GenfensRequest),
    /// A blank line.
    Empty,
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses one line. `Err` carries a message for `info string`.
pub fn parse(line: &str) -> Result<Command, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Ok(Command::Empty);
    };
    let rest = &tokens[1..];
    match first.to_ascii_lowercase().as_str() {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "register" => Ok(Command::Register),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "genfens" => crate::genfens::parse_request(rest)
            .map(Command::Genfens)
            .map_err(|e| format!("bad genfens request: {e}")),
        "debug" => match rest.first().map(|s| s.to_ascii_lowercase()) {
            Some(s) if s == "on" => Ok(Command::Debug(true)),
            Some(s) if s == "off" => Ok(Command::Debug(false)),
            _ => Err("debug expects 'on' or 'off'".into()),
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest),
        "bench" => match rest.first() {
            None => Ok(Command::Bench(None)),
            Some(d) => d
                .parse::<i64>()
                .map(|d| Command::Bench(Some(d)))
                .map_err(|_| format!("bench: '{d}' is not a depth")),
        },
        other => Err(format!("unknown command '{other}'")),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    if rest.first().map(|s| s.to_ascii_lowercase()) != Some("name".into()) {
        return Err("setoption expects 'name <name> [value <value>]'".into());
    }
    let body = &rest[1..];
    let value_at = body.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name_tokens, value) = match value_at {
        Some(i) => (&body[..i], Some(body[i + 1..].join(" "))),
        None => (body, None),
    };
    if name_tokens.is_empty() {
        return Err("setoption: missing option name".into());
    }
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (
            &rest[..i],
            rest[i + 1..].iter().map(|s| s.to_string()).collect(),
        ),
        None => (rest, Vec::new()),
    };
    let start = match head.first().map(|s| s.to_ascii_lowercase()) {
        Some(s) if s == "startpos" => {
            if head.len() > 1 {
                return Err(format!(
                    "position: unexpected '{}' after startpos",
                    head[1..].join(" ")
                ));
            }
            PositionStart::StartPos
        }
        Some(s) if s == "fen" => {
            if head.len() < 2 {
                return Err("position fen: missing FEN".into());
            }
            PositionStart::Fen(head[1..].join(" "))
        }
        _ => {
            return Err(
                "position expects 'startpos' or 'fen <fen>', then optionally 'moves ...'".into(),
            );
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<Command, String> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        let arg = rest.get(i + 1).copied();
        i += 1;
        match key.as_str() {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < rest.len()
                    && !GO_KEYWORDS.contains(&rest[i].to_ascii_lowercase().as_str())
                {
                    go.searchmoves.push(rest[i].to_string());
                    i += 1;
                }
            }
            "perft" => {
                let depth = number(&key, arg)?;
                return u32::try_from(depth)
                    .ok()
                    .filter(|d| *d >= 1)
                    .map(Command::Perft)
                    .ok_or_else(|| {
                        format!("go perft: depth must be a positive number, got {depth}")
                    });
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" | "movestogo" | "depth" | "nodes"
            | "mate" => {
                i += 1;
                match number(&key, arg) {
                    Ok(v) => go.set_number(&key, v),
                    Err(e) => {
                        go.warnings.push(e);
                        // A keyword where the number should be is read as
                        // the next token, not swallowed.
                        if arg
                            .is_some_and(|a| GO_KEYWORDS.contains(&a.to_ascii_lowercase().as_str()))
                        {
                            i -= 1;
                        }
                    }
                }
            }
            other => go
                .warnings
                .push(format!("go: ignoring unknown token '{other}'")),
        }
    }
    Ok(Command::Go(go))
}

impl GoParams {
    /// Sets the limit a numeric `go` keyword names (the keys `parse_go`
    /// sends here): negative times and counts read as 0, `movestogo 0` as
    /// none, `mate 0` as 1.
    fn set_number(&mut self, key: &str, v: i64) {
        let non_negative = v.max(0) as u64;
        match key {
            "wtime" => self.wtime = Some(non_negative),
            "btime" => self.btime = Some(non_negative),
            "winc" => self.winc = Some(non_negative),
            "binc" => self.binc = Some(non_negative),
            "movetime" => self.movetime = Some(non_negative),
            "movestogo" => {
                self.movestogo = Some(non_negative.min(u32::MAX as u64) as u32).filter(|m| *m > 0)
            }
            "depth" => self.depth = Some(v),
            "nodes" => self.nodes = Some(non_negative),
            "mate" => self.mate = Some(non_negative.clamp(1, u32::MAX as u64) as u32),
            _ => {}
        }
    }
}

fn number(key: &str, arg: Option<&str>) -> Result<i64, String> {
    let Some(a) = arg else {
        return Err(format!("go: '{key}' needs a number"));
    };
    a.parse::<i64>()
        .or_else(|_| a.parse::<f64>().map(|f| f as i64).map_err(|_| ()))
        .map_err(|_| format!("go: '{key}' needs a number, got '{a}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_blank_lines() {
        assert_eq!(parse("uci\r"), Ok(Command::Uci));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse(""), Ok(Command::Empty));
        assert_eq!(parse(" \t "), Ok(Command::Empty));
        assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
        assert!(parse("debug maybe").is_err());
        assert!(parse("xboard").is_err());
    }

    #[test]
    fn setoption_names_with_spaces_and_values_keep_case() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name SyzygyPath value /My Tables/Syzygy"),
            Ok(Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/My Tables/Syzygy".into())
            })
        );
        assert!(parse("setoption Hash 5").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves"),
            Ok(Command::Position {
                start: PositionStart::StartPos,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b1"),
            Ok(Command::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1b1".into()]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn go_reads_every_parameter_in_any_order() {
        let Ok(Command::Go(g)) = parse(
            "go wtime 1000 btime -50 winc 10 binc 10 movestogo 5 depth 7 nodes 900 movetime 20 mate 3",
        ) else {
            panic!("go not parsed")
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(0));
        assert_eq!((g.winc, g.binc, g.movestogo), (Some(10), Some(10), Some(5)));
        assert_eq!(
            (g.depth, g.nodes, g.movetime, g.mate),
            (Some(7), Some(900), Some(20), Some(3))
        );
        let Ok(Command::Go(g)) = parse("go searchmoves e2e4 d2d4 infinite") else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.infinite);
        let Ok(Command::Go(g)) = parse("go ponder btime 5 wtime 6") else {
            panic!()
        };
        assert!(g.ponder);
        assert_eq!((g.wtime, g.btime), (Some(6), Some(5)));
    }

    #[test]
    fn go_survives_bad_tokens() {
        let Ok(Command::Go(g)) = parse("go depth x wtime 100 bogus") else {
            panic!()
        };
        assert_eq!(g.depth, None);
        assert_eq!(g.wtime, Some(100));
        assert_eq!(g.warnings.len(), 2);
        let Ok(Command::Go(g)) = parse("go depth movetime 50") else {
            panic!()
        };
        assert_eq!(g.movetime, Some(50));
        let Ok(Command::Go(g)) = parse("go depth") else {
            panic!()
        };
        assert_eq!(g.warnings.len(), 1);
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        assert!(parse("go perft 0").is_err());
        assert!(parse("go perft x").is_err());
    }
}
