#!/usr/bin/env python3
"""Search speed over the bench positions, measured side by side in one run.

  smp  time to a fixed depth with Threads=1 and Threads=2 (Lazy SMP's speed-up), per
       position, alternating the two settings; reports the summed and the geometric-mean
       ratio of the rounds' medians (and of their best). Needs a quiet machine with 2 free
       cores.
       With --stats, also what happened at the root: the main thread's aspiration
       re-searches and best-move changes, and its share of the nodes (from the engine's
       debug log), which tell where a helper makes the main thread's tree bigger.
       With --engine, any UCI engine that plays Sittuyin: Fairy-Stockfish's own Lazy SMP
       measured the same way is the yardstick for Sitke's (--stats is Sitke's alone).
  nps  nodes per second of Sitke and of Debian's fairy-stockfish, one thread each, the same
       positions searched for the same time, alternately.

The positions are bench's own (parsed out of src/search/bench.rs), so the comparison is on
every phase: setup drops, middlegame, promotions, endings.

    cargo build --release && python3 scripts/search_speed.py smp --depth 13
    cargo build --release && python3 scripts/search_speed.py nps --movetime 1000
"""
import argparse
import math
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITKE = os.path.join(ROOT, "target", "release", "sitke")
FSF = "/usr/games/fairy-stockfish"


def bench_positions():
    src = open(os.path.join(ROOT, "src", "search", "bench.rs")).read()
    body = src.split("pub const POSITIONS", 1)[1].split("];", 1)[0]
    rules = open(os.path.join(ROOT, "src", "board", "sittuyin.rs")).read()
    start = re.search(r'pub const START_FEN: &str = "([^"]+)"', rules).group(1)
    return [m.group(1) or start for m in re.finditer(r'"([^"]+)"|\bSTART_FEN\b', body)]


def search(engine, fen, go):
    """Searches `fen` with `go` from a fresh game; (seconds to bestmove, last info nodes)."""
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.sync()
    start = time.perf_counter()
    engine.send(go)
    lines = engine.until("bestmove")
    elapsed = time.perf_counter() - start
    nodes = 0
    for l in lines:
        m = re.search(r" nodes (\d+)", l)
        if m and l.startswith("info"):
            nodes = int(m.group(1))
    return elapsed, nodes


STATS = re.compile(r"thread (\d+): completed depth (\d+), nodes (\d+), aspiration fail-highs (\d+),"
                   r" fail-lows (\d+), best-move changes (\d+)")


def thread_stats(log, threads):
    """The searches in an engine's debug log, in order: for each, {thread: (depth, nodes,
    fail-highs, fail-lows, best-move changes)}. Each thread logs once as it ends, and the
    next search starts only after all have (bestmove waits for them)."""
    searches, current = [], {}
    for line in open(log):
        m = STATS.search(line)
        if m:
            tid, *rest = (int(x) for x in m.groups())
            current[tid] = tuple(rest)
            if len(current) == threads:
                searches.append(current)
                current = {}
    return searches


def report_stats(logs, fens, rounds):
    """Prints the root events of each setting, per search, and the main thread's nodes."""
    per = {}
    for threads, log in logs.items():
        searches = thread_stats(log, threads)
        if len(searches) != len(fens) * rounds:
            print(f"stats: {len(searches)} searches logged for {threads} thread(s), expected"
                  f" {len(fens) * rounds}; not reported")
            return
        per[threads] = searches
        main = [s[0] for s in searches]
        mean = lambda i: sum(m[i] for m in main) / len(main)
        share = sum(m[1] for m in main) / sum(sum(t[1] for t in s.values()) for s in searches)
        print(f"{threads} thread(s), main thread per search: aspiration fail-highs {mean(2):.2f},"
              f" fail-lows {mean(3):.2f}, best-move changes {mean(4):.2f}; its share of all"
              f" nodes {share:.2f}")
    # The main thread's own nodes to finish the depth, with a helper against without.
    lg = []
    for i in range(len(fens)):
        rows = slice(i * rounds, (i + 1) * rounds)
        n1 = statistics.median(s[0][1] for s in per[1][rows])
        n2 = statistics.median(s[0][1] for s in per[2][rows])
        lg.append(math.log(max(n2, 1) / max(n1, 1)))
    print(f"main thread's nodes with a helper over alone (geometric mean, median round):"
          f" x{math.exp(sum(lg) / len(lg)):.2f}")


def smp(args):
    fens = bench_positions()
    stat_logs, extra = {}, [{}, {}]
    if args.stats:
        env = dict(os.environ, RUST_LOG="sitke::search=debug")
        for i, threads in enumerate((1, 2)):
            f = tempfile.NamedTemporaryFile("w", prefix=f"smp-{threads}-", suffix=".log", delete=False)
            stat_logs[threads] = f.name
            extra[i] = {"stderr": f, "env": env}
    options = dict(o.split("=", 1) for o in args.option)
    one = Engine(args.engine, {**options, "Threads": 1, "Hash": args.hash}, **extra[0])
    two = Engine(args.engine, {**options, "Threads": 2, "Hash": args.hash}, **extra[1])
    # Two threads search differently every time, so the luckiest of several runs flatters
    # them: the median of the rounds is the figure, the best of them is shown beside it.
    sums = {"median": [0.0, 0.0], "best": [0.0, 0.0]}
    logs = {"median": [], "best": []}
    # Nodes tell the two ways two threads lose apart: the total of both threads' nodes
    # over one thread's is the extra tree the second thread searches; the time speed-up is
    # then nodes per second gained over that overhead.
    node_logs, nps_logs = [], []
    for fen in fens:
        times1, times2, nodes1, nodes2 = [], [], [], []
        for _ in range(args.rounds):
            t, n = search(one, fen, f"go depth {args.depth}")
            times1.append(t)
            nodes1.append(n)
            t, n = search(two, fen, f"go depth {args.depth}")
            times2.append(t)
            nodes2.append(n)
        for kind, pick in (("median", statistics.median), ("best", min)):
            t1, t2 = pick(times1), pick(times2)
            sums[kind][0] += t1
            sums[kind][1] += t2
            logs[kind].append(math.log(t1 / t2))
        m1, m2 = statistics.median(times1), statistics.median(times2)
        n1, n2 = statistics.median(nodes1), statistics.median(nodes2)
        node_logs.append(math.log(max(n2, 1) / max(n1, 1)))
        nps_logs.append(math.log((sum(nodes2) / sum(times2)) / (sum(nodes1) / sum(times1))))
        spread = f"{min(times2):.2f}-{max(times2):.2f} s"
        print(f"{m1:7.3f} s {m2:7.3f} s  x{m1 / m2:5.2f}  (best x{min(times1) / min(times2):5.2f}, 2 threads {spread},"
              f" nodes x{n2 / max(n1, 1):4.2f})  {fen}", flush=True)
    one.close(timeout=None)
    two.close(timeout=None)
    for kind in ("median", "best"):
        (t1, t2), lg = sums[kind], logs[kind]
        print(f"depth {args.depth}, hash {args.hash}, {len(fens)} positions, {kind} of {args.rounds}"
              f" round(s): 1 thread {t1:.2f} s, 2 threads {t2:.2f} s; speed-up of the sums"
              f" x{t1 / t2:.2f}, geometric mean x{math.exp(sum(lg) / len(lg)):.2f}")
    gm = lambda lg: math.exp(sum(lg) / len(lg))
    print(f"geometric means over the positions: 2 threads' nodes (both threads, median round) over one"
          f" thread's x{gm(node_logs):.2f}; nodes per second x{gm(nps_logs):.2f}")
    if args.stats:
        report_stats(stat_logs, fens, args.rounds)
        for log in stat_logs.values():
            os.unlink(log)


def nps(args):
    fens = bench_positions()
    engines = {"sitke": Engine(SITKE, {"Threads": 1, "Hash": args.hash}),
               "fairy-stockfish": Engine(FSF, {"Threads": 1, "Hash": args.hash})}
    totals = {k: [0, 0.0] for k in engines}
    for fen in fens:
        row = []
        for name, e in engines.items():
            el, n = search(e, fen, f"go movetime {args.movetime}")
            totals[name][0] += n
            totals[name][1] += el
            row.append(f"{name} {n / el / 1e3:8.0f} knps")
        print("  ".join(row), " ", fen, flush=True)
    for e in engines.values():
        e.close(timeout=None)
    rates = {k: n / t for k, (n, t) in totals.items()}
    for k, r in rates.items():
        print(f"{k}: {totals[k][0]} nodes in {totals[k][1]:.1f} s, {r / 1e6:.2f} M nps")
    print(f"ratio sitke / fairy-stockfish: x{rates['sitke'] / rates['fairy-stockfish']:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("smp", help="time to depth, 1 thread against 2")
    a.add_argument("--depth", type=int, default=13)
    a.add_argument("--rounds", type=int, default=1)
    a.add_argument("--hash", type=int, default=64)
    a.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a UCI option for both engines (repeatable), e.g. USE_LMR=0")
    a.add_argument("--stats", action="store_true",
                   help="also count root events and the main thread's nodes (debug log)")
    a.add_argument("--engine", default=SITKE,
                   help="the engine (default: Sitke's release build; or e.g. a Fairy-Stockfish)")
    a.set_defaults(run=smp)
    b = sub.add_parser("nps", help="nodes per second against fairy-stockfish")
    b.add_argument("--movetime", type=int, default=1000)
    b.add_argument("--hash", type=int, default=64)
    b.set_defaults(run=nps)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
