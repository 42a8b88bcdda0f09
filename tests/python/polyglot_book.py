"""Writes a small Polyglot book (fixed seed) for positions with en passant,
castling and promotions, then prints what python-chess's reader finds in each
position: `FEN;uci:weight uci:weight ...` lines. Usage: polyglot_book.py OUT.bin"""
import random
import struct
import sys

import chess
import chess.polyglot

PROMOTION = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}


def raw_move(board, move):
    to = move.to_square
    if board.is_castling(move):
        # Polyglot writes castling as the king taking its own rook.
        rook_file = 7 if chess.square_file(move.to_square) == 6 else 0
        to = chess.square(rook_file, chess.square_rank(move.from_square))
    return to | (move.from_square << 6) | (PROMOTION[move.promotion] << 12)


def positions():
    yield chess.Board()
    for line in ["e2e4", "e2e4 e7e5", "d2d4 d7d5 c2c4", "e2e4 a7a6 e4e5 d7d5", "g1f3 g8f6"]:
        board = chess.Board()
        for m in line.split():
            board.push_uci(m)
        yield board
    yield chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    yield chess.Board("r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1")
    yield chess.Board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")


def main():
    rng = random.Random(22)
    records = []
    for board in positions():
        key = chess.polyglot.zobrist_hash(board)
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        castles = [m for m in moves if board.is_castling(m)]
        promotions = [m for m in moves if m.promotion]
        chosen = list(dict.fromkeys(castles + promotions[:3] + moves[:4]))
        for i, m in enumerate(chosen):
            weight = 0 if i == len(chosen) - 1 and len(chosen) > 2 else rng.randint(1, 500)
            records.append((key, raw_move(board, m), weight))
    records.sort(key=lambda r: r[0])
    with open(sys.argv[1], "wb") as f:
        for key, move, weight in records:
            f.write(struct.pack(">QHHI", key, move, weight, 0))
    with chess.polyglot.open_reader(sys.argv[1]) as reader:
        for board in positions():
            found = " ".join(f"{e.move.uci()}:{e.weight}" for e in reader.find_all(board))
            print(f"{board.fen()};{found}")
    # Not in the book: the position after 1. a3.
    board = chess.Board()
    board.push_uci("a2a3")
    print(f"{board.fen()};")


main()
