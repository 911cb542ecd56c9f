#!/usr/bin/env python3
"""Time-management benchmark: Sitke plays itself on real clocks and we count time losses.

The referee keeps both clocks the way cutechess does: a side's clock runs from the moment
`go` is written until its `bestmove` line is read, the increment is added after the move,
and with moves-to-go the clock gets its period back after every `--moves` moves. A clock
below zero is a time forfeit. Every move is checked with pyffish (Fairy-Stockfish's rules);
games end by the rules (mate, stalemate, repetition, 50 moves, counting, insufficient
material), by resignation adjudication (both engines agree the score is beyond
`--resign-cp` for 6 plies in a row) or as a draw after `--max-plies` plies.

Usage:
  python3 scripts/tm_bench.py --games 200 --tc 1+0.01
  python3 scripts/tm_bench.py --games 100 --tc 10/1

On a machine that other work keeps busy (the summary prints the load average), the engines
wait for a CPU for whole seconds and lose on time whatever they plan; run the benchmark
under `chrt -f 10` (real-time scheduling, as root) to measure the time management rather
than the machine. One game at a time uses one core.
"""

import argparse
import os
import random
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine  # noqa: E402

VARIANT = "sittuyin"


def last_score(lines):
    """The last reported score in centipawns from the mover's view (mates as +-10000)."""
    for line in reversed(lines):
        w = line.split()
        if w[:2] == ["info", "depth"] and "score" in w:
            i = w.index("score")
            if w[i + 1] == "cp":
                return int(w[i + 2])
            if w[i + 1] == "mate":
                return 10000 if int(w[i + 2]) > 0 else -10000
    return None


def outcome(r, side):
    """A PGN result from pyffish's value, which is from the view of the side to move."""
    if r == 0:
        return "1/2-1/2"
    return "1-0" if (r > 0) == (side == 0) else "0-1"


def play_game(args, game_no, engines):
    rng = random.Random(args.seed * 100003 + game_no)
    start = sf.start_fen(VARIANT)
    moves = []
    # A few random setup drops make every game different.
    for _ in range(args.random_plies):
        legal = sf.legal_moves(VARIANT, start, moves)
        moves.append(rng.choice(legal))
    white, black = (engines[0], engines[1]) if game_no % 2 == 0 else (engines[1], engines[0])
    for e in (white, black):
        e.send("ucinewgame")
        e.sync()
    base_ms, inc_ms = args.base_ms, args.inc_ms
    clock = [float(base_ms), float(base_ms)]
    moves_made = [0, 0]
    min_left = float(base_ms)
    think = []
    resign_streak = 0
    result, reason, forfeit = None, None, False
    while True:
        legal = sf.legal_moves(VARIANT, start, moves)
        side = len(moves) % 2  # 0 = White
        if not legal:
            r = sf.game_result(VARIANT, start, moves)
            result = outcome(r, side)
            reason = "mate" if r != 0 else "stalemate"
            break
        ended, r = sf.is_optional_game_end(VARIANT, start, moves)
        if ended:
            result = outcome(r, side)
            reason = "rule"
            break
        if all(sf.has_insufficient_material(VARIANT, start, moves)):
            result, reason = "1/2-1/2", "material"
            break
        if len(moves) >= args.max_plies:
            result, reason = "1/2-1/2", "length"
            break
        e = white if side == 0 else black
        e.send("position fen " + start + (" moves " + " ".join(moves) if moves else ""))
        e.sync()
        go = f"go wtime {max(0, int(clock[0]))} btime {max(0, int(clock[1]))}"
        if args.moves:
            go += f" movestogo {args.moves - moves_made[side] % args.moves}"
        else:
            go += f" winc {inc_ms} binc {inc_ms}"
        t0 = time.perf_counter()
        e.send(go)
        lines = e.until(lambda l: l.startswith("bestmove"))
        used = (time.perf_counter() - t0) * 1000.0
        think.append(used)
        clock[side] -= used
        min_left = min(min_left, clock[side])
        if clock[side] < 0:
            forfeit = True
            result = "0-1" if side == 0 else "1-0"
            reason = f"time forfeit ({clock[side]:.1f} ms)"
            break
        best = lines[-1].split()[1]
        if best not in legal:
            result = "0-1" if side == 0 else "1-0"
            reason = f"illegal move {best}"
            break
        moves.append(best)
        moves_made[side] += 1
        if args.moves:
            if moves_made[side] % args.moves == 0:
                clock[side] += base_ms
        else:
            clock[side] += inc_ms
        score = last_score(lines)
        if score is not None and abs(score) >= args.resign_cp:
            resign_streak += 1
        else:
            resign_streak = 0
        if resign_streak >= 6:
            # The mover's score: positive means the side that just moved is winning.
            winner_white = (score > 0) == (side == 0)
            result, reason = ("1-0" if winner_white else "0-1"), "adjudicated"
            break
    return {
        "result": result, "reason": reason, "forfeit": forfeit, "plies": len(moves),
        "min_left": min_left, "think": think,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "sitke"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--tc", default="1+0.01", help="BASE+INC in seconds, or MOVES/BASE for moves-to-go")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--resign-cp", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, e.g. 'Move Overhead=10'")
    args = ap.parse_args()
    if "/" in args.tc:
        m, b = args.tc.split("/")
        args.moves, args.base_ms, args.inc_ms = int(m), int(float(b) * 1000), 0
    else:
        b, _, i = args.tc.partition("+")
        args.moves, args.base_ms, args.inc_ms = 0, int(float(b) * 1000), int(float(i or 0) * 1000)
    options = dict(o.split("=", 1) for o in args.option)

    results = []
    lock = threading.Lock()
    started = time.time()
    loads = [os.getloadavg()[0]]

    def worker(slot):
        engines = [Engine(args.engine, options), Engine(args.engine, options)]
        try:
            for g in range(slot, args.games, args.concurrency):
                r = play_game(args, g, engines)
                with lock:
                    results.append(r)
                    loads.append(os.getloadavg()[0])
                    n = len(results)
                    if r["forfeit"] or r["reason"].startswith("illegal") or n % 20 == 0:
                        print(f"[{n}/{args.games}] game {g}: {r['result']} {r['reason']} plies {r['plies']} "
                              f"min clock {r['min_left']:.0f} ms, load {os.getloadavg()[0]:.2f}", flush=True)
        finally:
            for e in engines:
                e.close(timeout=2)

    with ThreadPoolExecutor(args.concurrency) as pool:
        list(pool.map(worker, range(args.concurrency)))

    forfeits = sum(r["forfeit"] for r in results)
    illegal = sum(r["reason"].startswith("illegal") for r in results)
    think = [t for r in results for t in r["think"]]
    reasons = {}
    for r in results:
        key = r["reason"] if not r["reason"].startswith("time") else "time forfeit"
        reasons[key] = reasons.get(key, 0) + 1
    print()
    print(f"tc {args.tc}: {len(results)} games, {sum(r['plies'] for r in results)} plies, "
          f"{time.time() - started:.0f} s wall, concurrency {args.concurrency}")
    print(f"time forfeits: {forfeits}   illegal moves: {illegal}")
    print(f"endings: {reasons}")
    print(f"think time per move: median {statistics.median(think):.1f} ms, "
          f"max {max(think):.1f} ms")
    print(f"lowest clock seen after a move: {min(r['min_left'] for r in results):.1f} ms")
    # Other programs on the machine steal the engines' time: a run with a load average well
    # above the concurrency measures the machine, not the time management.
    policy = {os.SCHED_OTHER: "normal", os.SCHED_FIFO: "real-time FIFO", os.SCHED_RR: "real-time RR"}
    print(f"load average (1 min) over the run: median {statistics.median(loads):.2f}, max {max(loads):.2f} "
          f"on {os.cpu_count()} cores; scheduling: {policy.get(os.sched_getscheduler(0), 'other')}")
    sys.exit(1 if forfeits or illegal else 0)


if __name__ == "__main__":
    main()
