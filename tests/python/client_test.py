#!/usr/bin/env python3
"""Drive stockman with python-chess, as lichess-bot and many scripts do.

Usage: client_test.py <path to the stockman binary>

python-chess parses the option declarations (and rejects values outside
them), the info lines, bestmove/ponder and the ponderhit protocol. Anything
it logs at warning level or above (an unparsable info line, unexpected
output) fails the test, as does any illegal move.
"""

import logging
import signal
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    print("python-chess is missing: pip install chess", file=sys.stderr)
    sys.exit(2)

# Only guards against a hang; a normal run takes seconds.
WATCHDOG_SECONDS = 240
MAX_PLIES = 300
# python-chess's own timeout for the engine's answers (uci, isready, ...).
ENGINE_TIMEOUT = 20.0

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
MATED_IN_ONE = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


class Problems(logging.Handler):
    """Collects what python-chess complains about."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def check_pv(board, pv, what):
    check(pv, f"{what}: empty pv")
    b = board.copy()
    for m in pv:
        check(m in b.legal_moves, f"{what}: illegal pv move {m} in {b.fen()} (pv {pv})")
        b.push(m)


def open_engine(binary):
    return chess.engine.SimpleEngine.popen_uci([binary], timeout=ENGINE_TIMEOUT)


def test_handshake_and_options(binary):
    with open_engine(binary) as engine:
        check(engine.id.get("name", "").startswith("Stockman"), f"id name: {engine.id}")
        for name in ["Hash", "Threads", "Clear Hash", "Move Overhead", "Ponder", "MultiPV",
                     "UCI_Chess960", "UCI_ShowWDL", "SyzygyPath", "Algorithm", "Evaluation", "Pure"]:
            check(name in engine.options, f"option {name} not declared: {list(engine.options)}")
        algorithm = engine.options["Algorithm"]
        check(algorithm.type == "combo", f"Algorithm: {algorithm}")
        check(set(algorithm.var) == {"AlphaBeta", "NegaScout", "MTDf", "SSS", "DUAL"},
              f"Algorithm vars: {algorithm.var}")
        # python-chess checks values against the declarations.
        engine.configure({"Hash": 32, "Threads": 1, "Move Overhead": 30, "Algorithm": "MTDf"})
        engine.configure({"hash": 16, "move overhead": 10, "UCI_ShowWDL": True})
        engine.configure({"Clear Hash": None})
        for bad in [{"Hash": 0}, {"Algorithm": "Minimax"}, {"Move Overhead": 6000},
                    {"No Such Option": 1}]:
            try:
                engine.configure(bad)
            except chess.engine.EngineError:
                pass
            else:
                raise AssertionError(f"python-chess accepted {bad}")
        engine.ping()
    print("handshake and options: ok")


def test_analyse(binary):
    with open_engine(binary) as engine:
        engine.configure({"Hash": 32, "Algorithm": "NegaScout"})
        for fen in [chess.STARTING_FEN, ITALIAN]:
            board = chess.Board(fen)
            info = engine.analyse(board, chess.engine.Limit(depth=6))
            check("score" in info, f"analyse: no score in {info}")
            check(info.get("depth") == 6, f"analyse: depth {info.get('depth')} != 6")
            check_pv(board, info.get("pv"), "analyse depth 6")

        board = chess.Board(ITALIAN)
        infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        check(len(infos) == 3, f"multipv=3 gave {len(infos)} lines")
        firsts = [i["pv"][0] for i in infos]
        check(len(set(firsts)) == 3, f"multipv first moves not distinct: {firsts}")
        for n, i in enumerate(infos, 1):
            check(i.get("multipv") == n, f"multipv numbering: {i}")
            check("score" in i, f"multipv line without score: {i}")
            check_pv(board, i["pv"], f"multipv {n}")
        scores = [i["score"].relative.score(mate_score=100000) for i in infos]
        check(scores == sorted(scores, reverse=True), f"multipv not best first: {scores}")

        board = chess.Board(MATE_IN_ONE)
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        check(info["score"].relative == chess.engine.Mate(1), f"mate in one: {info['score']}")
        check(info["pv"][0] == chess.Move.from_uci("d1d8"), f"mate in one: {info['pv']}")

        board = chess.Board(MATED_IN_ONE)
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        check(info["score"].relative == chess.engine.Mate(-1), f"mated in one: {info['score']}")

        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=4))
        check("wdl" in info, f"UCI_ShowWDL: no wdl in {info}")
        check(sum(info["wdl"].relative) == 1000, f"wdl sum: {info['wdl']}")

        # No legal move: python-chess gets bestmove (none).
        result = engine.play(chess.Board(STALEMATE), chess.engine.Limit(depth=3))
        check(result.move is None, f"stalemate: {result}")
    print("analyse: ok")


def play_move(engine, board, limit, **kwargs):
    result = engine.play(board, limit, **kwargs)
    check(result.move is not None, f"no move in {board.fen()} (game not over)")
    check(result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}")
    if result.ponder is not None:
        after = board.copy()
        after.push(result.move)
        check(result.ponder in after.legal_moves,
              f"illegal ponder move {result.ponder} after {result.move} in {board.fen()}")
    return result


def test_self_play_game(binary):
    """A complete game at 20 ms a move until it is over by the rules."""
    with open_engine(binary) as engine:
        engine.configure({"Hash": 16, "Move Overhead": 5})
        board = chess.Board()
        while not board.is_game_over(claim_draw=True):
            if board.ply() >= MAX_PLIES:
                print(f"self-play: adjudicated a draw after {board.ply()} plies")
                break
            result = play_move(engine, board, chess.engine.Limit(time=0.02))
            board.push(result.move)
        else:
            outcome = board.outcome(claim_draw=True)
            check(outcome is not None, "game over without an outcome")
            print(f"self-play: {outcome.termination.name} {board.result(claim_draw=True)} "
                  f"after {board.ply()} plies")
        # After the game the engine still answers.
        engine.ping()
        # A move exactly when one is legal: a game drawn by rule (insufficient
        # material, repetition, fifty moves) still has moves to play; only
        # mate and stalemate leave none.
        result = engine.play(board, chess.engine.Limit(nodes=2000))
        has_moves = bool(board.legal_moves)
        check(has_moves == (result.move is not None),
              f"final position {board.fen()}: {result}")
        check(result.move is None or result.move in board.legal_moves,
              f"illegal move {result.move} in final position {board.fen()}")


def test_clock_game_with_ponder(binary):
    """Two engines, real clocks with increments, pondering on: about 40 plies.

    Whenever an engine predicted the reply, python-chess sends ponderhit;
    otherwise stop during the ponder search and a new go. The clocks are
    kept here as a GUI keeps them. Running out by a few milliseconds can be
    scheduling noise on a loaded machine, so only a gross overrun (more than
    the whole clock plus a second) fails; a small one is reported.
    """
    engines = [open_engine(binary), open_engine(binary)]
    try:
        for e in engines:
            e.configure({"Hash": 16, "Move Overhead": 20})
        board = chess.Board()
        clock = {chess.WHITE: 3.0, chess.BLACK: 3.0}
        inc = 0.05
        flags = 0
        for ply in range(40):
            if board.is_game_over(claim_draw=True):
                break
            side = board.turn
            before = clock[side]
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            start = time.perf_counter()
            result = play_move(engines[ply % 2], board, limit, ponder=True)
            used = time.perf_counter() - start
            check(used < before + 1.0,
                  f"ply {ply}: used {used:.3f} s with {before:.3f} s on the clock")
            clock[side] += inc - used
            if clock[side] <= 0:
                flags += 1
                print(f"clock game: ply {ply} overran the clock by {-clock[side]:.3f} s "
                      f"(had {before:.3f} s, used {used:.3f} s)")
                clock[side] = inc
            board.push(result.move)
        print(f"clock game: {board.ply()} plies, clocks left "
              f"{clock[chess.WHITE]:.2f} s / {clock[chess.BLACK]:.2f} s, {flags} overruns")
        for e in engines:
            e.ping()
    finally:
        for e in engines:
            e.quit()


def test_go_forms(binary):
    """Limits python-chess can express, one after another on one engine."""
    with open_engine(binary) as engine:
        board = chess.Board(ITALIAN)
        for limit in [chess.engine.Limit(depth=4), chess.engine.Limit(nodes=3000),
                      chess.engine.Limit(time=0.05), chess.engine.Limit(mate=2, depth=6),
                      chess.engine.Limit(white_clock=1.0, black_clock=1.0, remaining_moves=10),
                      chess.engine.Limit(black_clock=0.5),
                      chess.engine.Limit(depth=3, white_clock=100.0, black_clock=100.0)]:
            play_move(engine, board, limit)
        result = play_move(engine, board, chess.engine.Limit(depth=4),
                           root_moves=[chess.Move.from_uci("a7a6"), chess.Move.from_uci("h7h6")])
        check(result.move.uci() in ("a7a6", "h7h6"), f"root_moves ignored: {result.move}")
        # An infinite analysis stopped from the client.
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 5:
                    break
        engine.ping()
    print("go forms: ok")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("watchdog")))
    signal.alarm(WATCHDOG_SECONDS)

    problems = Problems()
    problems.setFormatter(logging.Formatter("%(name)s %(levelname)s: %(message)s"))
    logging.getLogger("chess.engine").addHandler(problems)
    logging.getLogger("chess.engine").setLevel(logging.WARNING)

    start = time.perf_counter()
    test_handshake_and_options(binary)
    test_analyse(binary)
    test_go_forms(binary)
    test_self_play_game(binary)
    test_clock_game_with_ponder(binary)
    signal.alarm(0)

    if problems.records:
        print("python-chess complained:", file=sys.stderr)
        for r in problems.records:
            print("  " + r, file=sys.stderr)
        return 1
    print(f"all python-chess checks passed in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
