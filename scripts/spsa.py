#!/usr/bin/env python3
"""SPSA over the search constants, on this machine, with the shared match runner.

OpenBench tunes a `--features spsa` build from the lines `stockman spsa`
prints (docs/openbench.md). This script does the same without an OpenBench
instance: each iteration perturbs every tuned constant by +c_k or -c_k (a
random sign per constant), plays game pairs between the plus and the minus
build through tools/match.py (same binary, the constants as UCI options), and
moves the constants by the result, with OpenBench's gain schedule:

    c_k = c_end * N^gamma / k^gamma        a_k = r_end * c_end^2 * (A + N)^alpha / (A + k)^alpha
    theta_i += (a_k / c_k) * (wins - losses) * sign_i       (clamped to the constant's range)

with N the pairs to play, k the pairs played, A = N / 10, alpha 0.602, gamma
0.101. The state (values, pairs played, every iteration's result) is
written before the first game and after each iteration, so a state that
cannot be written is refused at once and a run that is stopped resumes where
it was; the file is written whole and renamed, never left half-written.

    make EXE=tuner FEATURES=spsa
    python3 scripts/spsa.py --runner ../shared/tools/match.py --engine ./tuner \\
        --state spsa.json --pairs 4000 --batch 2 --only RFP_MARGIN_PER_DEPTH,FUTILITY_BASE \\
        -- --tc 2+0.02 --concurrency 2 --openings positions/openings.epd

Everything after `--` goes to match.py as it is (time control or --nodes,
concurrency, openings, adjudication, Hash). At the end, and with --show at
any time, it prints the values as `setoption` lines and as the tunables!
table's defaults to copy into src/params.rs; keep them only if an SPRT of the
result against main passes (issue 25). `--self-test` checks the arithmetic on
a synthetic match whose best constants are known.
"""

import argparse
import contextlib
import io
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from typing import Callable, List, Optional

from match_runner import load_runner
from whole_file import write_whole

ALPHA = 0.602
GAMMA = 0.101
A_RATIO = 0.1


@dataclass
class Param:
    name: str
    value: float
    min: int
    max: int
    c_end: float
    r_end: float

    def sent(self, value: float) -> int:
        """The whole number a perturbed value is sent as, inside the range."""
        return max(self.min, min(self.max, int(round(value))))


def parse_inputs(text: str) -> List[Param]:
    """`stockman spsa` lines: name, int, value, min, max, c_end, r_end."""
    params = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise ValueError(f"line {number}: expected 'NAME, int, value, min, max, c_end, r_end': {line!r}")
        name, _, value, low, high, c_end, r_end = fields
        param = Param(name, float(value), int(low), int(high), float(c_end), float(r_end))
        if not (param.min <= param.value <= param.max) or param.c_end <= 0 or param.r_end <= 0:
            raise ValueError(f"line {number}: value outside its range or a step not above 0: {line!r}")
        params.append(param)
    if not params:
        raise ValueError("no constants to tune")
    return params


@dataclass
class Schedule:
    pairs: int

    def c(self, param: Param, k: int) -> float:
        return param.c_end * self.pairs**GAMMA / k**GAMMA

    def a(self, param: Param, k: int) -> float:
        big_a = A_RATIO * self.pairs
        return param.r_end * param.c_end**2 * (big_a + self.pairs) ** ALPHA / (big_a + k) ** ALPHA


# A match of `pairs` game pairs between the plus and the minus values:
# returns (wins, draws, losses) of plus.
Match = Callable[[dict, dict, int, int], tuple]


def new_state(params: List[Param], pairs: int, batch: int, seed: int) -> dict:
    return {
        "pairs": pairs,
        "batch": batch,
        "seed": seed,
        "played": 0,
        "params": [asdict(p) for p in params],
        "iterations": [],
    }


def iterate(state: dict, play: Match) -> None:
    """Plays one iteration (`batch` pairs, fewer at the end) and moves the values."""
    params = [Param(**p) for p in state["params"]]
    schedule = Schedule(state["pairs"])
    k = state["played"] + 1
    batch = min(state["batch"], state["pairs"] - state["played"])
    rng = random.Random(state["seed"] * 1_000_003 + k)
    signs = [rng.choice((-1, 1)) for _ in params]
    plus, minus = {}, {}
    for p, sign in zip(params, signs):
        step = schedule.c(p, k) * sign
        plus[p.name] = p.sent(p.value + step)
        minus[p.name] = p.sent(p.value - step)
    wins, draws, losses = play(plus, minus, batch, state["seed"] * 100_000 + k)
    for p, sign in zip(params, signs):
        c_k = schedule.c(p, k)
        p.value += schedule.a(p, k) / c_k * (wins - losses) * sign
        p.value = max(float(p.min), min(float(p.max), p.value))
    state["params"] = [asdict(p) for p in params]
    state["played"] += batch
    state["iterations"].append({"k": k, "wins": wins, "draws": draws, "losses": losses})


def save(state: dict, path: str) -> None:
    """Writes the state whole, then renames it over the old one; an OSError
    names the state file (not the temporary beside it that failed)."""
    try:
        write_whole(path, json.dumps(state, indent=1))
    except OSError as e:
        raise OSError(f"cannot save the state to {path}: {e.strerror or e}") from e


def show(state: dict) -> str:
    params = [Param(**p) for p in state["params"]]
    lines = [f"after {state['played']} of {state['pairs']} pairs:"]
    lines += [f"setoption name {p.name} value {p.sent(p.value)}   # {p.value:.2f}" for p in params]
    lines += [f"    {p.name}: ... = {p.sent(p.value)}, {p.min}..={p.max}, {p.c_end};" for p in params]
    return "\n".join(lines)


def runner_match(runner, engine: str, rest: List[str]) -> Match:
    """Games between two copies of `engine` through match.py's `main`."""

    def play(plus: dict, minus: dict, pairs: int, seed: int) -> tuple:
        with tempfile.TemporaryDirectory() as folder:
            summary = os.path.join(folder, "summary.json")
            args = ["--engine", engine, "--opponent", engine, "--name-a", "plus", "--name-b", "minus"]
            for name, value in plus.items():
                args += ["--engine-opt", f"{name}={value}"]
            for name, value in minus.items():
                args += ["--opponent-opt", f"{name}={value}"]
            args += ["--games", str(2 * pairs), "--seed", str(seed), "--json", summary, "--quiet"]
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                code = runner.main(args + rest)
            if code != 0 or not os.path.exists(summary):
                sys.stderr.write(printed.getvalue())
                raise RuntimeError(f"match.py ended with code {code}")
            with open(summary) as f:
                result = json.load(f)
        return result["wins"], result["draws"], result["losses"]

    return play


def self_test() -> None:
    """SPSA against a synthetic match: plus wins with a logistic probability
    of how much closer its values are to a hidden optimum. The values must
    end much closer to it, and a run stopped and resumed must equal one run
    straight through."""
    optimum = {"X": 70.0, "Y": 3.0}
    spread = {"X": 40.0, "Y": 3.0}

    def strength(values: dict) -> float:
        return -sum(((values[n] - optimum[n]) / spread[n]) ** 2 for n in optimum)

    def synthetic(plus: dict, minus: dict, pairs: int, seed: int) -> tuple:
        rng = random.Random(seed)
        p_plus = 1 / (1 + math.exp(-(strength(plus) - strength(minus))))
        wins = sum(rng.random() < p_plus for _ in range(2 * pairs))
        return wins, 0, 2 * pairs - wins

    inputs = "X, int, 120, 20, 200, 8, 0.002\nY, int, 6, 1, 8, 0.5, 0.002\n"
    start = {p.name: p.value for p in parse_inputs(inputs)}
    state = new_state(parse_inputs(inputs), pairs=3000, batch=2, seed=5)
    while state["played"] < state["pairs"]:
        iterate(state, synthetic)
    end = {p["name"]: p["value"] for p in state["params"]}
    for name in optimum:
        before = abs(start[name] - optimum[name])
        after = abs(end[name] - optimum[name])
        assert after < before / 2, f"{name}: {start[name]} -> {end[name]}, optimum {optimum[name]}"

    resumed = new_state(parse_inputs(inputs), pairs=3000, batch=2, seed=5)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "state.json")
        while resumed["played"] < 1000:
            iterate(resumed, synthetic)
        save(resumed, path)
        with open(path) as f:
            resumed = json.load(f)
        while resumed["played"] < resumed["pairs"]:
            iterate(resumed, synthetic)
        assert os.listdir(folder) == ["state.json"], os.listdir(folder)
    assert resumed == json.loads(json.dumps(state)), "a resumed run differs from a straight one"
    print(f"self-test passed: X {start['X']:.0f} -> {end['X']:.1f} (optimum 70), Y {start['Y']:.0f} -> {end['Y']:.2f} (optimum 3)")


def engine_inputs(engine: str) -> str:
    done = subprocess.run([engine, "spsa"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise ValueError(f"'{engine} spsa' failed: {done.stderr.strip()}")
    return done.stdout


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ours, rest = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true", help="check the arithmetic on a synthetic match")
    parser.add_argument("--runner", help="path of the shared match.py")
    parser.add_argument("--engine", help="a tuning build (make EXE=tuner FEATURES=spsa)")
    parser.add_argument("--state", help="the state file: created, or resumed when it exists")
    parser.add_argument("--inputs", help="'stockman spsa' lines to tune (default: the engine's own)")
    parser.add_argument("--only", help="comma-separated names: tune only these")
    parser.add_argument("--pairs", type=int, default=2000, help="game pairs in all (N)")
    parser.add_argument("--batch", type=int, default=2, help="game pairs per iteration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print the state's values and stop")
    args = parser.parse_args(ours)
    if args.self_test:
        self_test()
        return 0
    try:
        if not args.state:
            raise ValueError("--state is required")
        if os.path.exists(args.state):
            with open(args.state) as f:
                state = json.load(f)
        else:
            if not args.engine:
                raise ValueError("--engine is required to start a run")
            text = open(args.inputs).read() if args.inputs else engine_inputs(args.engine)
            params = parse_inputs(text)
            if args.only:
                wanted = {n.strip() for n in args.only.split(",") if n.strip()}
                unknown = wanted - {p.name for p in params}
                if unknown:
                    raise ValueError(f"--only names no tunable constant: {', '.join(sorted(unknown))}")
                params = [p for p in params if p.name in wanted]
            if args.pairs < 1 or args.batch < 1:
                raise ValueError("--pairs and --batch must be at least 1")
            state = new_state(params, args.pairs, args.batch, args.seed)
        if args.show:
            print(show(state))
            return 0
        if not (args.runner and args.engine):
            raise ValueError("--runner and --engine are required to play")
        play = runner_match(load_runner(args.runner), args.engine, rest)
        save(state, args.state)  # an unwritable state fails now, not after the first games
    except (OSError, ValueError, json.JSONDecodeError) as e:
        print(f"spsa: {e}", file=sys.stderr)
        return 2
    while state["played"] < state["pairs"]:
        iterate(state, play)
        try:
            save(state, args.state)
        except OSError as e:
            print(f"spsa: {e}; the file keeps the last iteration saved", file=sys.stderr)
            return 1
        last = state["iterations"][-1]
        values = " ".join(f"{p['name']}={p['value']:.2f}" for p in state["params"])
        print(f"{state['played']}/{state['pairs']} +{last['wins']}={last['draws']}-{last['losses']} {values}", flush=True)
    print(show(state))
    return 0


if __name__ == "__main__":
    sys.exit(main())
