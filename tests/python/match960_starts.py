"""Prints the start positions scripts/match960.py would play, one FEN a line.
Usage: match960_starts.py COUNT SEED [dfrc]"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))

import match960  # noqa: E402

count, seed = int(sys.argv[1]), int(sys.argv[2])
for fen in match960.start_positions(count, seed, dfrc="dfrc" in sys.argv[3:]):
    print(fen)
