"""Random legal positions of the given material signatures (fixed seed) with
python-chess's Syzygy WDL and DTZ for each: `FEN;WDL;DTZ` lines on stdout.
Usage: syzygy_oracle.py TABLE_DIR COUNT MATERIAL..."""
import random
import sys

import chess
import chess.syzygy


def random_position(rng, material):
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        ok = True
        for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in letters:
                piece = chess.Piece.from_symbol(letter if color else letter.lower())
                free = [s for s in chess.SQUARES if board.piece_at(s) is None
                        and (piece.piece_type != chess.PAWN or 8 <= s < 56)]
                if not free:
                    ok = False
                    break
                board.set_piece_at(rng.choice(free), piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if ok and board.is_valid():
            return board


def main():
    directory, count, materials = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rng = random.Random(22)
    with chess.syzygy.open_tablebase(directory) as tb:
        for i in range(count):
            board = random_position(rng, materials[i % len(materials)])
            print(f"{board.fen()};{tb.probe_wdl(board)};{tb.probe_dtz(board)}")


main()
