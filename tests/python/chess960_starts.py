"""Prints python-chess's 960 Chess960 start positions, one `N FEN` line each
(Scharnagl's numbering, Shredder-FEN castling). Usage: chess960_starts.py"""
import chess

for number in range(960):
    print(number, chess.Board.from_chess960_pos(number).fen(shredder=True))
