#!/usr/bin/env python3
"""Chess960 matches with the shared match runner (tools/match.py), which plays
standard chess only: this wrapper writes seeded Chess960 start positions (Shredder
FEN castling rights) and makes the runner's boards Chess960 boards, so python-chess
sends `UCI_Chess960 true` and king-takes-rook castling to both engines.

    python3 scripts/match960.py --runner /path/to/match.py --starts 20 --start-seed 1 \
        --engine ./stockman --opponent stockfish ... (any other match.py arguments)

With --dfrc the starts are double Fischer random: each side's back rank drawn on
its own from the 960. Each start position is played twice, colours swapped, as the
runner does with openings.
"""

import argparse
import os
import random
import sys
import tempfile

import chess

from match_runner import load_runner


def start_positions(count: int, seed: int, dfrc: bool = False) -> list:
    """`count` distinct start positions chosen by `seed`: Chess960 ones (of the 960),
    or with `dfrc` double Fischer random ones (of the 960 x 960)."""
    rng = random.Random(seed)
    if not dfrc:
        return [chess960_fen(n, n) for n in rng.sample(range(960), count)]
    pairs = rng.sample(range(960 * 960), count)
    return [chess960_fen(pair // 960, pair % 960) for pair in pairs]


def chess960_fen(white: int, black: int) -> str:
    """The Shredder FEN of White's start position `white` against Black's `black`."""
    board = chess.Board.from_chess960_pos(white)
    theirs = chess.Board.from_chess960_pos(black)
    for square in chess.SquareSet(chess.BB_RANK_1):
        mirrored = chess.square_mirror(square)
        board.set_piece_at(mirrored, chess.Piece(theirs.piece_type_at(square), chess.BLACK))
    board.castling_rights = board.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    return board.fen(shredder=True)


def main() -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--runner", required=True, help="path of the shared match.py")
    parser.add_argument("--starts", type=int, default=20, help="start positions (1..960)")
    parser.add_argument("--start-seed", type=int, default=1)
    parser.add_argument("--dfrc", action="store_true", help="double Fischer random starts")
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
        epd.write("\n".join(start_positions(ours.starts, ours.start_seed, ours.dfrc)) + "\n")
    try:
        return runner.main(rest + ["--openings", epd.name])
    finally:
        os.unlink(epd.name)


if __name__ == "__main__":
    sys.exit(main())
