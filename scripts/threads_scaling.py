#!/usr/bin/env python3
"""Lazy SMP scaling of a UCI engine, in two measures (docs/results/threads.md).

  speed   nodes, nodes per second and depth reached at a fixed movetime over
          the first positions of positions/bench.epd, for each Threads value;
  elo     Threads N against Threads 1 of the same engine, one match per N, all
          at once, through the shared match runner, each stopped (and
          summarised) after --seconds.

    python3 scripts/threads_scaling.py speed --engine ./stockman --threads 1,2,4,8,16
    python3 scripts/threads_scaling.py elo --engine ./stockman --runner shared/tools/match.py \
        --threads 8,4,2 --tc 3+0.03 --seconds 460 --out smp

The matches of `elo` run at the same time with concurrency 1 each: Threads 8,
4 and 2 against 1 keep at most 8 + 4 + 2 cores thinking at once, so they fit
a 16-core machine with cores to spare for the runners.
"""

import argparse
import os
import signal
import subprocess
import sys
import time


def bench_fens(path: str, count: int) -> list:
    """The first `count` positions of an EPD file as FENs (move counters added)."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
    if len(fens) < count:
        raise ValueError(f"{path} has {len(fens)} positions, fewer than {count}")
    return fens[:count]


def last_info(lines) -> dict:
    """Depth, nodes and time of the last `info` line with all three before
    `bestmove`, from an iterable of the engine's output lines."""
    last = None
    for line in lines:
        words = line.split()
        if words and words[0] == "info" and {"depth", "nodes", "time"} <= set(words):
            last = words
        if words and words[0] == "bestmove":
            break
    if last is None:
        raise RuntimeError("the engine printed no info line with depth, nodes and time")
    return {key: int(last[last.index(key) + 1]) for key in ("depth", "nodes", "time")}


class Engine:
    """A UCI engine on pipes."""

    def __init__(self, command: str, options: dict):
        self.proc = subprocess.Popen(command.split(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        for line in self.proc.stdout:
            if line.startswith("readyok"):
                return
        raise RuntimeError(f"{command} ended before readyok")

    def send(self, command: str) -> None:
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def search(self, fen: str, movetime: int) -> dict:
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send(f"go movetime {movetime}")
        return last_info(self.proc.stdout)

    def quit(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=30)


def speed(args) -> int:
    fens = bench_fens(args.positions, args.count)
    print(f"movetime {args.movetime} ms, {len(fens)} positions of {args.positions}, Hash {args.hash}",
          flush=True)
    base = None
    for threads in args.threads:
        engine = Engine(args.engine, {"Threads": threads, "Hash": args.hash})
        results = [engine.search(fen, args.movetime) for fen in fens]
        engine.quit()
        nodes = sum(r["nodes"] for r in results)
        ms = max(sum(r["time"] for r in results), 1)
        nps = nodes * 1000 // ms
        base = base or nps
        depths = [r["depth"] for r in results]
        print(f"Threads {threads:3}: nodes {nodes:>11} nps {nps:>10} ({nps / base:5.2f}x)"
              f"  mean depth {sum(depths) / len(depths):5.2f}  depths {depths}", flush=True)
    return 0


def elo(args) -> int:
    os.makedirs(args.out, exist_ok=True)
    matches = []
    for threads in args.threads:
        log = os.path.join(args.out, f"threads{threads}.txt")
        command = [sys.executable, args.runner, "--engine", args.engine, "--opponent", args.engine,
                   "--name-a", f"threads{threads}", "--name-b", "threads1",
                   "--engine-opt", f"Threads={threads}", "--opponent-opt", "Threads=1",
                   "--engine-opt", f"Hash={args.hash}", "--opponent-opt", f"Hash={args.hash}",
                   "--games", str(args.games), "--tc", args.tc, "--concurrency", "1",
                   "--openings", args.openings, "--seed", str(args.seed + threads),
                   "--pgn", os.path.join(args.out, f"threads{threads}.pgn"),
                   "--engine-log", os.devnull, *args.runner_args]
        with open(log, "w", encoding="utf-8") as out:
            matches.append((threads, log, subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)))
    deadline = time.monotonic() + args.seconds
    while any(p.poll() is None for _, _, p in matches) and time.monotonic() < deadline:
        time.sleep(0.5)
    for _, _, p in matches:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)  # the runner stops and prints its summary
    status = 0
    for threads, log, p in matches:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        if p.returncode not in (0, 128 + signal.SIGINT):
            status = 1
        print(f"== Threads {threads} against Threads 1 ({log})")
        with open(log, encoding="utf-8") as f:
            print("".join(line for line in f if not line.startswith("Game ")).strip(), flush=True)
    return status


def thread_list(text: str) -> list:
    values = [int(t) for t in text.split(",")]
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("Threads values are positive integers, e.g. 1,2,4,8")
    return values


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="measure", required=True)
    s = sub.add_parser("speed", help="nodes, nps and depth at a fixed movetime per Threads value")
    s.add_argument("--engine", required=True)
    s.add_argument("--threads", type=thread_list, default=[1, 2, 4, 8, 16])
    s.add_argument("--movetime", type=int, default=1000, help="ms per position (default 1000)")
    s.add_argument("--positions", default="positions/bench.epd")
    s.add_argument("--count", type=int, default=8, help="positions searched (default 8)")
    s.add_argument("--hash", type=int, default=256)
    e = sub.add_parser("elo", help="Threads N against Threads 1, the matches at once")
    e.add_argument("--engine", required=True)
    e.add_argument("--runner", required=True, help="the shared match runner, tools/match.py")
    e.add_argument("--threads", type=thread_list, default=[8, 4, 2])
    e.add_argument("--tc", default="3+0.03")
    e.add_argument("--seconds", type=float, default=460, help="each match is stopped after this")
    e.add_argument("--games", type=int, default=1000, help="games at most per match")
    e.add_argument("--openings", default="positions/openings.epd")
    e.add_argument("--seed", type=int, default=70, help="match N is seeded with seed + N")
    e.add_argument("--hash", type=int, default=64)
    e.add_argument("--out", required=True, help="folder for each match's log and PGN")
    e.add_argument("runner_args", nargs="*", help="more runner arguments, after --")
    args = parser.parse_args(argv)
    try:
        return speed(args) if args.measure == "speed" else elo(args)
    except (OSError, ValueError, RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"threads_scaling.py: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
