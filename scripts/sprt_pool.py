#!/usr/bin/env python3
"""Pools the summaries of several matches of one test into one result.

A test that runs out of time (or machine) part-way is often played on in
another stream: the same two builds on another seed. Each stream's summary is
the `--json FILE` of the shared match runner (tools/match.py); this adds their
games and their colour-swapped pairs and reports what one match of all of them
would have: W-L-D, Elo ± 95 % by games and by pairs (pentanomial), LOS, and
with --sprt the GSPRT log-likelihood ratio against its bounds.

    python3 scripts/sprt_pool.py --sprt 0 5 stream1.json stream2.json

The statistics are the runner's (and fishtest's, in the normal approximation):
for one file the output repeats what the runner printed. --json OUT also
writes the pooled summary in the runner's JSON form, so pooled results pool
again. A file that is not such a summary is refused with its name; streams
whose engine names differ are pooled with a warning (a stream may name its
builds differently), never silently.
"""

import argparse
import json
import math
import sys
from typing import List, Optional, Tuple

from whole_file import write_whole

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score in [0, 1]."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def trinomial(w: int, d: int, l: int) -> Tuple[float, float]:
    """The mean score of a game and the variance of one game's score."""
    n = w + d + l
    mean = (w + 0.5 * d) / n
    var = (w * (1.0 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean**2) / n
    return mean, var


def pentanomial(counts: List[int]) -> Tuple[float, float]:
    """counts[k]: pairs whose two games scored k/2 points. The mean score of
    a game and the variance of a pair's mean score."""
    pairs = sum(counts)
    mean = sum(c * k / 4.0 for k, c in enumerate(counts)) / pairs
    var = sum(c * (k / 4.0 - mean) ** 2 for k, c in enumerate(counts)) / pairs
    return mean, var


def elo_and_margin(mean: float, var: float, n: int) -> Tuple[float, Optional[float]]:
    """The Elo difference and the half-width of its 95 % interval (`None`
    when the results show no spread to estimate it from)."""
    elo = score_to_elo(mean)
    if math.isinf(elo) or n < 2 or not var > 0.0:
        return elo, None
    half = Z95 * math.sqrt(var / n)
    return elo, (score_to_elo(mean + half) - score_to_elo(mean - half)) / 2.0


def gsprt_llr(mean: float, var: float, n: int, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0):
    n (s1 - s0) (2 mean - s0 - s1) / (2 var), n games or pairs."""
    if not var > 0.0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def los(w: int, l: int) -> Optional[float]:
    """The likelihood of superiority (draws left out)."""
    if w + l == 0:
        return None
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


class Stream:
    """One match summary: its games, pairs and engine names."""

    def __init__(self, path: str):
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: cannot read a match summary: {exc}") from exc
        try:
            self.wins, self.draws, self.losses = (int(data[k]) for k in ("wins", "draws", "losses"))
            self.counts = [int(c) for c in data["pentanomial"]["counts"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(
                f"{path}: not a match summary (the --json of tools/match.py): "
                f"no wins, draws, losses or pentanomial counts ({exc})"
            ) from exc
        if len(self.counts) != 5 or min(self.counts + [self.wins, self.draws, self.losses]) < 0:
            raise ValueError(f"{path}: pentanomial counts must be five non-negative numbers")
        if 2 * sum(self.counts) > self.wins + self.draws + self.losses:
            raise ValueError(f"{path}: more games in pairs than games played")
        self.path = path
        self.names = (data.get("engine_a"), data.get("engine_b"))


def pool(streams: List[Stream]) -> dict:
    """The streams' games and pairs added up, in the runner's summary form."""
    w = sum(s.wins for s in streams)
    d = sum(s.draws for s in streams)
    l = sum(s.losses for s in streams)
    counts = [sum(s.counts[k] for s in streams) for k in range(5)]
    n, pairs = w + d + l, sum(counts)
    summary = {
        "engine_a": streams[0].names[0],
        "engine_b": streams[0].names[1],
        "streams": [s.path for s in streams],
        "games": n,
        "wins": w,
        "losses": l,
        "draws": d,
        "score": None,
        "elo": None,
        "elo_error95": None,
        "los": los(w, l),
        "draw_ratio": d / n if n else None,
        "pentanomial": {"counts": counts, "pairs": pairs, "elo": None, "elo_error95": None},
    }
    if n:
        mean, var = trinomial(w, d, l)
        summary["score"] = mean
        summary["elo"], summary["elo_error95"] = elo_and_margin(mean, var, n)
    if pairs:
        p_mean, p_var = pentanomial(counts)
        p = summary["pentanomial"]
        p["elo"], p["elo_error95"] = elo_and_margin(p_mean, p_var, pairs)
    return summary


def add_sprt(summary: dict, elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """The GSPRT of the pooled games (trinomial, 0 until there is a win, a
    draw and a loss, as the runner does) and pairs, with its decision."""
    w, d, l = summary["wins"], summary["draws"], summary["losses"]
    lower, upper = math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)
    llr = 0.0
    llr_penta = 0.0
    if min(w, d, l) > 0:
        mean, var = trinomial(w, d, l)
        llr = gsprt_llr(mean, var, w + d + l, elo0, elo1)
        counts = summary["pentanomial"]["counts"]
        if sum(counts):
            p_mean, p_var = pentanomial(counts)
            llr_penta = gsprt_llr(p_mean, p_var, sum(counts), elo0, elo1)
    decision = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "none"
    summary["sprt"] = {
        "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
        "llr": llr, "lower": lower, "upper": upper,
        "llr_pentanomial": llr_penta, "decision": decision,
    }


def fmt(x: Optional[float], digits: int = 2) -> str:
    if x is None:
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def report(summary: dict) -> List[str]:
    """The pooled result in the runner's words."""
    w, d, l, n = summary["wins"], summary["draws"], summary["losses"], summary["games"]
    p = summary["pentanomial"]
    lines = [
        f"Pooled {len(summary['streams'])} stream{'' if len(summary['streams']) == 1 else 's'}: "
        f"{n} games, {p['pairs']} pairs",
        f"Score of {summary['engine_a']} vs {summary['engine_b']}: {w} - {l} - {d} "
        f"[{fmt(summary['score'], 3)}] {n}",
        f"Elo difference: {fmt(summary['elo'])} +/- {fmt(summary['elo_error95'])} (95%)",
        f"LOS: {fmt(None if summary['los'] is None else 100 * summary['los'], 1)} %, "
        f"DrawRatio: {fmt(None if summary['draw_ratio'] is None else 100 * summary['draw_ratio'], 1)} %",
    ]
    if p["pairs"]:
        lines.append(
            f"Elo difference (pentanomial): {fmt(p['elo'])} +/- {fmt(p['elo_error95'])} (95%), "
            f"pairs {p['pairs']} [LL LD DD+WL WD WW] = {p['counts']}"
        )
    sp = summary.get("sprt")
    if sp:
        lines.append(
            f"LLR: {sp['llr']:.3f} ({sp['lower']:.3f}, {sp['upper']:.3f}) "
            f"[{sp['elo0']:g}, {sp['elo1']:g}] {sp['decision']}"
        )
        lines.append(f"LLR (pentanomial, informative): {sp['llr_pentanomial']:.3f}")
    return lines


def write_json(path: str, summary: dict) -> None:
    """The summary to `path`, through a temporary file: never half-written."""
    def clean(x):
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    write_whole(path, json.dumps(clean(summary), indent=2) + "\n")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("streams", nargs="+", metavar="SUMMARY.json",
                        help="the --json of each match of the test")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                        help="the GSPRT's hypotheses, as given to the runner")
    parser.add_argument("--alpha", type=float, default=0.05, help="type I error (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="type II error (default 0.05)")
    parser.add_argument("--json", metavar="OUT", help="also write the pooled summary here")
    args = parser.parse_args(argv)
    if not (0.0 < args.alpha < 1.0 and 0.0 < args.beta < 1.0):
        parser.error("--alpha and --beta must lie between 0 and 1")
    if args.sprt and args.sprt[0] >= args.sprt[1]:
        parser.error("--sprt ELO0 ELO1 needs ELO0 < ELO1")
    try:
        streams = [Stream(path) for path in args.streams]
    except ValueError as exc:
        print(f"sprt_pool: {exc}", file=sys.stderr)
        return 2
    for s in streams[1:]:
        if s.names != streams[0].names:
            print(f"sprt_pool: warning: {s.path} names its engines {s.names[0]!r} and "
                  f"{s.names[1]!r}, {streams[0].path} {streams[0].names[0]!r} and "
                  f"{streams[0].names[1]!r}; pooled as the same two", file=sys.stderr)
    summary = pool(streams)
    if args.sprt:
        add_sprt(summary, args.sprt[0], args.sprt[1], args.alpha, args.beta)
    for line in report(summary):
        print(line)
    if args.json:
        try:
            write_json(args.json, summary)
        except OSError as exc:
            print(f"sprt_pool: cannot write {args.json}: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
