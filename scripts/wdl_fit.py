#!/usr/bin/env python3
"""Fits the win/draw/loss model behind `UCI_ShowWDL` to Stockman's own games.

Reads PGNs written by shared/tools/match.py, whose move comments carry the
mover's score (`{+0.31/12 0.105s}`), and takes one sample per scored move:

    (score in centipawns from the side to move, material on the board,
     the game's result from the side to move)

Mate scores (`+M3`), tablebase scores (a won or lost ending the engine
knows, printed as centipawns of 317.43 pawns and more: `Score::TB_BOUND`
in src/score.rs) and moves without a score are skipped, and so are games
that did not end by the rules (adjudication, time forfeit, crash), so that
the results are the games' own, and repeats of a game (same start, same
moves: a deterministic engine playing itself at a fixed node count plays
each opening's pair of games alike).

The model is Stockfish's (src/uci.cpp, `win_rate_model`):

    win(s)  = 1 / (1 + exp(-(s - a) / b))
    loss(s) = win(-s)
    draw(s) = 1 - win(s) - loss(s)

with a and b cubic polynomials of m = clamp(material, MAT_MIN, MAT_MAX) / 58,
material counting pawn 1, knight and bishop 3, rook 5, queen 9 of both sides
(78 at the start). a is the score at which a win is as likely as not, b how
fast that changes with the score. The eight coefficients are fitted by
maximum likelihood (Fisher scoring with step halving) over all samples at
once. Needs only python-chess.

    python3 scripts/wdl_fit.py GAMES.pgn[.gz] [MORE.pgn ...] [--degree 3] [--rust]

    python3 scripts/wdl_fit.py docs/data/wdl-selfplay-99b72e5-s32-s33-n20000.pgn.gz --rust

refits the constants in src/uci/wdl.rs from the games they came from.

prints the data summary, the fitted coefficients, a table of predicted
against observed rates by material and score, with --score WDL_RS how well
the model of a Rust source (src/uci/wdl.rs of another commit) describes the
same games, and with --rust the constants as Rust source for src/uci/wdl.rs.
"""

import argparse
import gzip
import math
import re
import sys

import chess
import chess.pgn

# src/uci/wdl.rs: MATERIAL_MIN, MATERIAL_MAX, MATERIAL_NORM (tests/wdl_fit.rs holds them equal).
MAT_MIN, MAT_MAX, MAT_NORM = 17, 78, 58
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
COMMENT = re.compile(r"^\s*([+-]?(?:\d+\.\d+|M\d+))/\d+")
# Scores from this many centipawns on are tablebase results (src/score.rs,
# `Score::TB_BOUND`, which tests/wdl_fit.rs holds this to): certain, like
# mates, and not a measure of the chances.
TB_BOUND_CP = 31743


def material(board):
    return sum(VALUES.get(p.piece_type, 0) for p in board.piece_map().values())


def samples_from(paths, all_terminations=False):
    """(score, material, outcome) triples; outcome 1 win, 0 draw, -1 loss for the mover."""
    out = []
    stats = {"games": 0, "used": 0, "duplicates": 0, "skipped_termination": 0, "mates": 0, "tablebase": 0, "unscored": 0}
    seen = set()
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                stats["games"] += 1
                result = game.headers.get("Result", "*")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    stats["skipped_termination"] += 1
                    continue
                if not all_terminations and game.headers.get("Termination", "normal") != "normal":
                    stats["skipped_termination"] += 1
                    continue
                # Games of a deterministic engine against itself repeat
                # with colours swapped: each distinct game counts once.
                key = (game.headers.get("FEN", ""), " ".join(m.uci() for m in game.mainline_moves()))
                if key in seen:
                    stats["duplicates"] += 1
                    continue
                seen.add(key)
                stats["used"] += 1
                white = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[result]
                board = game.board()
                for node in game.mainline():
                    m = COMMENT.match(node.comment or "")
                    mover = board.turn
                    if m is None:
                        stats["unscored"] += 1
                    elif "M" in m.group(1):
                        stats["mates"] += 1
                    elif abs(cp := round(float(m.group(1)) * 100)) >= TB_BOUND_CP:
                        stats["tablebase"] += 1
                    else:
                        outcome = white if mover == chess.WHITE else -white
                        out.append((cp, material(board), outcome))
                    board.push(node.move)
    return out, stats


def norm_material(mat):
    return min(max(mat, MAT_MIN), MAT_MAX) / MAT_NORM


def poly(coefs, m):
    """coefs[0] * m^k + ... + coefs[k] (highest power first, as Stockfish writes them)."""
    v = 0.0
    for c in coefs:
        v = v * m + c
    return v


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def probabilities(s, a, b):
    return sigmoid((s - a) / b), sigmoid((-s - a) / b)


def slope(x):
    """The sigmoid's derivative, sigmoid(x) * sigmoid(-x): never the
    cancelling `p * (1 - p)` where p rounds to 1."""
    return sigmoid(x) * sigmoid(-x)


def draw_probability(s, a, b):
    """1 - win - loss as the difference of two sigmoids of |s| (the model is
    symmetric): far from equal, where a win or a loss is nearly certain,
    `1 - w - l` cancels to zero and a drawn game there would have no
    likelihood at all."""
    return sigmoid((a - abs(s)) / b) - sigmoid((-abs(s) - a) / b)


def gradients(s, a, b):
    """d/da and d/db of the win, loss and draw probabilities, each computed
    from its own sigmoids (not the draw's as minus the others': far from
    equal that difference is all rounding error)."""
    xw, xl = (s - a) / b, (-s - a) / b
    gw = (-slope(xw) / b, -xw * slope(xw) / b)
    gl = (-slope(xl) / b, -xl * slope(xl) / b)
    u, v = (a - abs(s)) / b, (-abs(s) - a) / b
    gd = ((slope(u) + slope(v)) / b, (-u * slope(u) + v * slope(v)) / b)
    return gw, gl, gd


def fit(data, degree, iterations=100):
    """Maximum likelihood a(m), b(m): Fisher scoring on the 2*(degree+1) coefficients."""
    n = degree + 1
    # Start flat: a = 150 cp, b = 80 cp.
    theta = [0.0] * (2 * n)
    theta[n - 1], theta[2 * n - 1] = 150.0, 80.0
    rows = [(s, [norm_material(mat) ** (degree - i) for i in range(n)], o) for s, mat, o in data]

    def loglik(th):
        total = 0.0
        for s, basis, o in rows:
            a = sum(c * x for c, x in zip(th[:n], basis))
            b = sum(c * x for c, x in zip(th[n:], basis))
            if a <= 0 or b <= 0:
                return -math.inf
            p = outcome_probability(s, a, b, o)
            if p <= 0:
                return -math.inf
            total += math.log(p)
        return total

    ll = loglik(theta)
    if not math.isfinite(ll):
        return theta[:n], theta[n:], ll
    for it in range(iterations):
        grad = [0.0] * (2 * n)
        info = [[0.0] * (2 * n) for _ in range(2 * n)]
        for s, basis, o in rows:
            a = sum(c * x for c, x in zip(theta[:n], basis))
            b = sum(c * x for c, x in zip(theta[n:], basis))
            w, l = probabilities(s, a, b)
            d = draw_probability(s, a, b)
            gw, gl, gd = gradients(s, a, b)
            p, g = (w, gw) if o > 0 else (l, gl) if o < 0 else (d, gd)
            full = [g[0] * x for x in basis] + [g[1] * x for x in basis]
            for i in range(2 * n):
                grad[i] += full[i] / p
            # Fisher information: sum over outcomes of grad p grad p^T / p.
            for pk, gk in ((w, gw), (l, gl), (d, gd)):
                if pk <= 0.0:
                    # An outcome whose probability underflowed (a score far
                    # beyond a): its gradient vanishes with it, and so does
                    # its share of the information (g g^T / p ~ p).
                    continue
                fk = [gk[0] * x for x in basis] + [gk[1] * x for x in basis]
                for i in range(2 * n):
                    fi = fk[i] / pk
                    row = info[i]
                    for j in range(i, 2 * n):
                        row[j] += fi * fk[j]
        for i in range(2 * n):
            for j in range(i):
                info[i][j] = info[j][i]
        step = solve(info, grad)
        scale = 1.0
        while scale > 1e-6:
            trial = [t + scale * st for t, st in zip(theta, step)]
            tl = loglik(trial)
            if tl > ll:
                break
            scale /= 2
        else:
            break
        gain = tl - ll
        theta, ll = trial, tl
        if gain < 1e-7:
            break
    return theta[:n], theta[n:], ll


def solve(m, v):
    """Gaussian elimination with partial pivoting: m x = v."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for k in range(c, n + 1):
                a[r][k] -= f * a[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def outcome_probability(s, a, b, o):
    """The model's probability of the result o (1 win, 0 draw, -1 loss) at score s, where a(m) = a and b(m) = b."""
    w, l = probabilities(s, a, b)
    return w if o > 0 else l if o < 0 else draw_probability(s, a, b)


def log_likelihood(data, a_coefs, b_coefs):
    """The log-likelihood of the games' results under the model with these coefficients."""
    total = 0.0
    for s, mat, o in data:
        m = norm_material(mat)
        a, b = poly(a_coefs, m), poly(b_coefs, m)
        p = outcome_probability(s, a, b, o)
        if p <= 0:
            return -math.inf
        total += math.log(p)
    return total


def constants_of(path):
    """The `pub const A` and `pub const B` coefficient lists of a Rust source."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = []
    for name in ("A", "B"):
        m = re.search(rf"pub const {name}: \[f64; \d+\] = \[([^\]]*)\];", text)
        if not m:
            sys.exit(f"wdl_fit: no `pub const {name}: [f64; N] = [...];` line in {path}")
        found.append([float(c) for c in m.group(1).split(",")])
    return found


def score_model(data, a_coefs, b_coefs):
    """Prints how well a given model describes the games: the log-likelihood
    per sample over all of them, in the opening and in the endgame."""
    for label, lo, hi in (("all", 0, 10**9), ("from 66 points of material", 66, 10**9), ("up to 30 points", 0, 30)):
        sel = [d for d in data if lo <= d[1] <= hi]
        if sel:
            ll = log_likelihood(sel, a_coefs, b_coefs)
            print(f"given model, {label}: {len(sel)} samples, log-likelihood {ll:.1f}, per sample {ll / len(sel):.4f}")


def report(data, a_coefs, b_coefs):
    """Observed against predicted win/draw/loss by material band and score band."""
    bands_m = [(MAT_MIN - 100, 30), (31, 50), (51, 65), (66, 200)]
    bands_s = [(-10000, -301), (-300, -151), (-150, -51), (-50, 50), (51, 150), (151, 300), (301, 10000)]
    print("\nmaterial  score        n     observed W/D/L      model W/D/L")
    for lo_m, hi_m in bands_m:
        for lo_s, hi_s in bands_s:
            sel = [(s, mat, o) for s, mat, o in data if lo_m <= mat <= hi_m and lo_s <= s <= hi_s]
            if len(sel) < 50:
                continue
            obs = [sum(1 for *_, o in sel if o == k) / len(sel) for k in (1, 0, -1)]
            mw = ml = 0.0
            for s, mat, _ in sel:
                m = norm_material(mat)
                w, l = probabilities(s, poly(a_coefs, m), poly(b_coefs, m))
                mw, ml = mw + w, ml + l
            mw, ml = mw / len(sel), ml / len(sel)
            print(
                f"{max(lo_m, 0):3d}-{min(hi_m, 78):<3d} {max(lo_s, -9999):6d}..{min(hi_s, 9999):<5d} {len(sel):6d}"
                f"   {obs[0]:.3f} {obs[1]:.3f} {obs[2]:.3f}   {mw:.3f} {1 - mw - ml:.3f} {ml:.3f}"
            )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgns", nargs="+")
    ap.add_argument("--degree", type=int, default=3, help="degree of a(m) and b(m)")
    ap.add_argument("--all-terminations", action="store_true", help="also games adjudicated or forfeited")
    ap.add_argument("--rust", action="store_true", help="print the constants as Rust")
    ap.add_argument(
        "--score",
        metavar="WDL_RS",
        help="also score the model of a Rust source on the games: its `pub const A` and "
        "`pub const B` lines, as src/uci/wdl.rs and --rust write them",
    )
    args = ap.parse_args()
    try:
        data, stats = samples_from(args.pgns, args.all_terminations)
        given = constants_of(args.score) if args.score else None
    except OSError as e:
        sys.exit(f"wdl_fit: {e.filename}: {e.strerror}")
    if not data:
        sys.exit("no scored moves found")
    wins = sum(1 for *_, o in data if o > 0)
    draws = sum(1 for *_, o in data if o == 0)
    print(
        f"games {stats['games']}, used {stats['used']} (skipped {stats['duplicates']} repeated, "
        f"{stats['skipped_termination']} not ended by the rules); "
        f"samples {len(data)} (mover won {wins}, drew {draws}, lost {len(data) - wins - draws}); "
        f"mate scores skipped {stats['mates']}, tablebase scores skipped {stats['tablebase']}, "
        f"unscored {stats['unscored']}"
    )
    a_coefs, b_coefs, ll = fit(data, args.degree)
    if not math.isfinite(ll):
        sys.exit(
            "wdl_fit: no model gives every game its result a chance (log-likelihood -inf); "
            "nothing fitted. A score far beyond any model's reach in a game of the other "
            "result does this: check the PGNs' scores."
        )
    print(f"log-likelihood {ll:.1f}, per sample {ll / len(data):.4f}")
    fmt = lambda cs: "[" + ", ".join(f"{c:.3f}" for c in cs) + "]"
    print(f"a(m) coefficients, highest power first: {fmt(a_coefs)}")
    print(f"b(m) coefficients, highest power first: {fmt(b_coefs)}")
    for mat in (17, 30, 45, 58, 78):
        m = norm_material(mat)
        print(f"  material {mat:2d}: a = {poly(a_coefs, m):7.1f} cp, b = {poly(b_coefs, m):6.1f} cp")
    report(data, a_coefs, b_coefs)
    if given:
        print()
        score_model(data, *given)
    if args.rust:
        print("\n/// a(m), highest power first.")
        print(f"pub const A: [f64; {len(a_coefs)}] = {fmt(a_coefs)};")
        print("/// b(m), highest power first.")
        print(f"pub const B: [f64; {len(b_coefs)}] = {fmt(b_coefs)};")


if __name__ == "__main__":
    main()
