#!/usr/bin/env python3
"""Counts principal variations shorter than the search depth.

Runs the engine to `go depth D` on positions from EPD files and checks the
PV of the last completed iteration: every move legal in sequence, and at
least D plies unless the line ends in mate, stalemate, a draw by rule
(repetition, fifty moves, insufficient material) or a tablebase position
(only when tables are loaded: not here). A `score mate N` line must reach
the mate.

    python3 scripts/pv_lengths.py [--engine target/release/stockman]
        [--depth 12] [--algorithms NegaScout,MTDf] [--verbose]

Needs python-chess (`pip install chess`).
"""

import argparse
import subprocess
import sys

import chess


def positions():
    """25 positions of positions/bench.epd (every other) and the first 25 of WAC."""
    fens = []
    with open("positions/bench.epd") as f:
        bench = [line.split(";")[0].strip() for line in f if line.strip()]
    fens += bench[::2][:25]
    with open("positions/wac.epd") as f:
        for line in f:
            if len(fens) == 50:
                break
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


class Engine:
    def __init__(self, path, algorithm):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name Algorithm value {algorithm}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, prefix):
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError("engine exited")

    def search(self, fen, depth):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        return self.until("bestmove")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def last_line(lines):
    """(depth, score tokens, pv) of the last exact multipv-1 info line."""
    found = None
    for line in lines:
        t = line.split()
        if not t or t[0] != "info" or "pv" not in t or "depth" not in t:
            continue
        if "lowerbound" in t or "upperbound" in t:
            continue
        if "multipv" in t and t[t.index("multipv") + 1] != "1":
            continue
        i = t.index("score")
        found = (int(t[t.index("depth") + 1]), t[i + 1 : i + 3], t[t.index("pv") + 1 :])
    return found


def terminal_reason(board):
    if board.is_checkmate():
        return "mate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient"
    if board.halfmove_clock >= 100:
        return "fifty"
    if board.is_repetition(2):
        return "repetition"
    return None


def check(fen, depth, lines):
    """None when the PV is fine, else what is wrong with it."""
    found = last_line(lines)
    if found is None:
        return "no info line"
    got_depth, score, pv = found
    board = chess.Board(fen)
    for uci in pv:
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            return f"illegal {uci} in {' '.join(pv)}"
        board.push(move)
    reason = terminal_reason(board)
    if score[0] == "mate" and reason != "mate":
        return f"mate score {score[1]} without mate: {' '.join(pv)}"
    if len(pv) < got_depth and reason is None:
        return f"{len(pv)} plies at depth {got_depth}: {' '.join(pv)}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/stockman")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--algorithms", default="AlphaBeta,NegaScout,MTDf,SSS,DUAL")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    fens = positions()
    failures = 0
    for algorithm in args.algorithms.split(","):
        engine = Engine(args.engine, algorithm)
        short = 0
        lengths = []
        for fen in fens:
            lines = engine.search(fen, args.depth)
            found = last_line(lines)
            if found:
                lengths.append(len(found[2]))
            problem = check(fen, args.depth, lines)
            if problem:
                short += 1
                if args.verbose:
                    print(f"  {algorithm} {fen}: {problem}")
        engine.quit()
        mean = sum(lengths) / max(1, len(lengths))
        print(
            f"{algorithm}: {short} of {len(fens)} PVs short or wrong at depth {args.depth}"
            f" (mean length {mean:.1f}, shortest {min(lengths, default=0)})"
        )
        failures += short
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
