#!/usr/bin/env python3
"""Perft speed, Sitke against Debian's fairy-stockfish, measured side by side in one run.

The suite is the first five lines of perft/sittuyin.epd at their deepest listed depth.
Then Sitke's parallel perft: the start position at depth 5 on 1 and on 2 threads.
Both engines run single-threaded, alternately, each position `--rounds` times; the best
time of each engine on each position is kept (the machine is shared and noisy), and the
ratio of the summed times is reported. Wall time includes each process's start-up.

    cargo build --release && python3 scripts/perft_speed.py
"""
import argparse
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FSF = "/usr/games/fairy-stockfish"


def suite(n):
    cases = []
    with open(os.path.join(ROOT, "perft", "sittuyin.epd")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(";")
            depth, count = parts[-1].split()
            cases.append((parts[0], int(depth[1:]), int(count)))
            if len(cases) == n:
                break
    return cases


def run_sitke(binary, fen, depth):
    out = subprocess.run([binary, "perft", "--depth", str(depth), "--fen", fen, "--threads", "1"],
                         capture_output=True, text=True, check=True).stdout
    return int(out.split("Nodes searched:")[1].split()[0])


def run_fsf(fen, depth):
    cmds = f"setoption name UCI_Variant value sittuyin\nposition fen {fen}\ngo perft {depth}\n"
    out = subprocess.run([FSF], input=cmds, capture_output=True, text=True, check=True).stdout
    return int(out.split("Nodes searched:")[1].split()[0])


def timed(f, *args):
    t = time.perf_counter()
    n = f(*args)
    return time.perf_counter() - t, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "sitke"))
    args = ap.parse_args()
    total_s = total_f = 0.0
    nodes = 0
    for fen, depth, count in suite(5):
        best_s = best_f = float("inf")
        for _ in range(args.rounds):
            ts, ns = timed(run_sitke, args.binary, fen, depth)
            tf, nf = timed(run_fsf, fen, depth)
            assert ns == count and nf == count, (fen, depth, count, ns, nf)
            best_s, best_f = min(best_s, ts), min(best_f, tf)
        total_s += best_s
        total_f += best_f
        nodes += count
        print(f"D{depth} {count:>10}  sitke {best_s:7.3f} s  fairy-stockfish {best_f:7.3f} s  "
              f"ratio {best_f / best_s:6.1f}x  {fen}")
    print(f"total {nodes} leaves: sitke {total_s:.3f} s ({nodes / total_s / 1e6:.0f} M/s), "
          f"fairy-stockfish {total_f:.3f} s ({nodes / total_f / 1e6:.0f} M/s), "
          f"sitke is {total_f / total_s:.1f}x faster")

    # Parallel perft: the start position at depth 5 on 1 and 2 threads, alternately.
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(args.rounds):
        for threads in (1, 2):
            t = time.perf_counter()
            out = subprocess.run([args.binary, "perft", "--depth", "5", "--threads", str(threads)],
                                 capture_output=True, text=True, check=True).stdout
            best[threads] = min(best[threads], time.perf_counter() - t)
            assert "Nodes searched: 2730986496" in out, out
    print(f"startpos depth 5: 1 thread {best[1]:.3f} s, 2 threads {best[2]:.3f} s, "
          f"speed-up {best[1] / best[2]:.2f}x")


if __name__ == "__main__":
    main()
