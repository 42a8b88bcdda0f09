#!/usr/bin/env python3
"""Chess960 matches with the shared match runner (tools/match.py), which plays
standard chess only: this wrapper writes seeded Chess960 start positions (Shredder
FEN castling rights) and makes the runner's boards Chess960 boards, so python-chess
sends `UCI_Chess960 true` and king-takes-rook castling to both engines.

    python3 scripts/match960.py --runner /path/to/match.py --starts 20 --start-seed 1 \
        --engine ./stockman --opponent stockfish ... (any other match.py arguments)

Each start position is played twice, colours swapped, as the runner does with openings.
"""

import argparse
import random
import sys
import tempfile

import chess

from match_runner import load_runner


def start_positions(count: int, seed: int) -> list:
    """`count` distinct Chess960 start positions (of the 960), chosen by `seed`."""
    numbers = random.Random(seed).sample(range(960), count)
    return [chess.Board.from_chess960_pos(n).fen(shredder=True) for n in numbers]


def main() -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--runner", required=True, help="path of the shared match.py")
    parser.add_argument("--starts", type=int, default=20, help="start positions (1..960)")
    parser.add_argument("--start-seed", type=int, default=1)
    ours, rest = parser.parse_known_args()
    if not 1 <= ours.starts <= 960:
        print("--starts must be within 1..960", file=sys.stderr)
        return 2
    runner = load_runner(ours.runner)
    plain = runner.parse_position

    def chess960_position(line: str) -> chess.Board:
        board = plain(line)
        board.chess960 = True
        return board

    runner.parse_position = chess960_position
    with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as epd:
        epd.write("\n".join(start_positions(ours.starts, ours.start_seed)) + "\n")
    return runner.main(rest + ["--openings", epd.name])


if __name__ == "__main__":
    sys.exit(main())
