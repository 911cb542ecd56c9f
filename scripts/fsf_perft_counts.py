#!/usr/bin/env python3
"""Turns named FENs into EPD perft lines with counts from Debian's fairy-stockfish.

Input lines: `name;FEN` (blank lines and # comments pass through unchanged).
Output lines: `FEN;id name;D1 n;D2 n;...`, depths while the count stays under --max-nodes.
Used to build perft/edge_cases.epd; the counts are Fairy-Stockfish's, never Sitke's.
"""
import argparse
import subprocess
import sys

FSF = "/usr/games/fairy-stockfish"


def perft(fen, depth):
    cmds = f"setoption name UCI_Variant value sittuyin\nposition fen {fen}\ngo perft {depth}\nisready\n"
    out = subprocess.run([FSF], input=cmds, capture_output=True, text=True, timeout=600).stdout
    # `isready` is answered before the perft finishes, so wait for the total line itself.
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError(f"no perft result for {fen}: {out[-500:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-nodes", type=int, default=5_000_000)
    ap.add_argument("--max-depth", type=int, default=7)
    args = ap.parse_args()
    for line in sys.stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            print(line)
            continue
        name, fen = [x.strip() for x in line.split(";", 1)]
        counts = []
        for d in range(1, args.max_depth + 1):
            n = perft(fen, d)
            counts.append(f"D{d} {n}")
            if n == 0 or n > args.max_nodes:
                break
        print(";".join([fen, f"id {name}"] + counts))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
