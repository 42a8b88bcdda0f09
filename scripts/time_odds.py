#!/usr/bin/env python3
"""Time odds for a UCI engine: a relay that scales the clock it is told about.

The shared match runner gives both engines the same clock. To play an engine
with a fraction of the time (the Stockfish-with-a-fifth-of-the-time figure of
docs/results/matches.md), run it through this relay: every `go` it receives has its
wtime, btime, winc, binc and movetime multiplied by --factor before the engine
sees them; everything else passes through unchanged, both ways.

    python3 shared/tools/match.py --engine ./stockman \
        --opponent "python3 scripts/time_odds.py --factor 0.2 -- /usr/games/stockfish" ...

The runner still keeps the full clock for the relayed engine, so a forfeit on
time is still the engine's own; it simply plans with a fifth of what it has.
"""

import argparse
import subprocess
import sys
import threading

SCALED = {"wtime", "btime", "winc", "binc", "movetime"}


def scale_go(line: str, factor: float) -> str:
    """The `go` command with its clock values scaled; other lines unchanged."""
    words = line.split()
    if not words or words[0] != "go":
        return line
    out = []
    i = 0
    while i < len(words):
        word = words[i]
        out.append(word)
        if word in SCALED and i + 1 < len(words):
            try:
                value = int(words[i + 1])
                scaled = int(value * factor)
                if value > 0:
                    scaled = max(scaled, 1)
                out.append(str(scaled))
            except ValueError:
                out.append(words[i + 1])
            i += 1
        i += 1
    return " ".join(out) + "\n"


def pump(source, sink) -> None:
    """Copy the engine's output line by line, flushing each."""
    for line in iter(source.readline, b""):
        sink.write(line)
        sink.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=float, required=True, help="clock multiplier, e.g. 0.2")
    parser.add_argument("engine", nargs=argparse.REMAINDER, help="-- then the engine command")
    args = parser.parse_args()
    command = args.engine[1:] if args.engine[:1] == ["--"] else args.engine
    if not command:
        parser.error("no engine command after --")
    if not 0 < args.factor <= 100:
        parser.error("--factor must be in (0, 100]")
    try:
        engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    except OSError as error:
        print(f"time_odds: cannot start {command[0]}: {error}", file=sys.stderr)
        return 2
    reader = threading.Thread(target=pump, args=(engine.stdout, sys.stdout.buffer), daemon=True)
    reader.start()
    try:
        for line in sys.stdin:
            engine.stdin.write(scale_go(line, args.factor).encode())
            engine.stdin.flush()
            if line.strip() == "quit":
                break
    except BrokenPipeError:
        pass
    finally:
        try:
            engine.stdin.close()
        except BrokenPipeError:
            pass
        code = engine.wait()
        reader.join(timeout=1)
    return code


if __name__ == "__main__":
    sys.exit(main())
