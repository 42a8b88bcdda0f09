#!/usr/bin/env python3
"""A stand-in for Stockfish's `eval` command, for `stockman-lab label --static-eval`
tests: a UCI engine whose `eval` prints Stockfish's "Final evaluation" line
with plain material (P 1, N 3, B 3, R 5, Q 9) for White, or "none (in check)"."""
import sys

import chess

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def main():
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name Material Eval")
            print("uciok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "position" and len(words) > 2 and words[1] == "fen":
            board = chess.Board(" ".join(words[2:8]))
        elif words[0] == "eval":
            if board.is_check():
                print("Final evaluation: none (in check)")
            else:
                pawns = sum(v * (len(board.pieces(p, chess.WHITE)) - len(board.pieces(p, chess.BLACK)))
                            for p, v in VALUES.items())
                print("NNUE evaluation        +0.00 (white side)")
                print(f"Final evaluation       {pawns:+.2f} (white side) [material]")
        elif words[0] == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
