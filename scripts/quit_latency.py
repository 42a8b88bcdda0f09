#!/usr/bin/env python3
"""How long `quit` takes to end the engine process in the middle of a search.

For each trial: start the engine, set Threads (256 by default), send
`go infinite`, let it search a while, then send `quit` and time until the
process has exited (waitpid), and separately until its stdout closed. Prints
every trial and the median and maximum.

    python3 scripts/quit_latency.py [--engine target/release/stockman]
        [--threads 256] [--trials 10] [--search 0.5] [--load N]

`--load N` runs N busy-looping processes (nice 19) during the trials, to see
the figure on a loaded machine.
"""

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time


def trial(engine, threads, search_s, history_plies):
    p = subprocess.Popen(
        [engine],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def read_until(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"engine ended before '{prefix}'")

    send("uci")
    read_until("uciok")
    send(f"setoption name Threads value {threads}")
    moves = (["g1f3", "g8f6", "f3g1", "f6g8"] * (history_plies // 4 + 1))[:history_plies]
    send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    send("isready")
    read_until("readyok")
    send("go infinite")
    read_until("info depth")
    time.sleep(search_s)
    eof = {}

    def drain():
        for _ in p.stdout:
            pass
        eof["t"] = time.perf_counter()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    sent = time.perf_counter()
    send("quit")
    p.wait()  # blocking waitpid: wait(timeout=...) would poll in steps of up to 50 ms
    exited = time.perf_counter()
    reader.join(timeout=5)
    return (exited - sent) * 1000.0, (eof.get("t", exited) - sent) * 1000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/stockman")
    ap.add_argument("--threads", type=int, default=256)
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--search", type=float, default=0.5, help="seconds of search before quit")
    ap.add_argument("--history", type=int, default=0, help="plies of game history")
    ap.add_argument("--load", type=int, default=0, help="busy processes running meanwhile")
    a = ap.parse_args()
    load = [
        subprocess.Popen(["nice", "-n", "19", sys.executable, "-c", "while True: pass"])
        for _ in range(a.load)
    ]
    try:
        exits, eofs = [], []
        for i in range(a.trials):
            ex, eo = trial(a.engine, a.threads, a.search, a.history)
            exits.append(ex)
            eofs.append(eo)
            print(f"trial {i + 1}: exit {ex:.1f} ms, stdout closed {eo:.1f} ms", flush=True)
    finally:
        for p in load:
            p.kill()
            p.wait()
    print(
        f"Threads {a.threads}, {a.trials} trials, load {a.load}, cpus {os.cpu_count()}: "
        f"exit median {statistics.median(exits):.1f} max {max(exits):.1f} ms; "
        f"stdout closed median {statistics.median(eofs):.1f} max {max(eofs):.1f} ms"
    )


if __name__ == "__main__":
    main()
