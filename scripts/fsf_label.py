#!/usr/bin/env python3
"""Relabels datagen positions with fairy-stockfish's search scores, for `sitke tune`.

    scripts/fsf_label.py IN OUT [--depth 7] [--workers 2] [--engine /usr/games/fairy-stockfish]
                                [--stm-offset 0]

IN is in datagen's format (`FEN;score;result`); OUT keeps each FEN and result and replaces
the score with fairy-stockfish's at a fixed depth, from White's point of view. Positions it
scores as a mate are left out, as datagen leaves out its own. Comment lines (`#...`) are
kept in place, so game boundaries survive. Each worker runs its own engine on one
contiguous part of IN; OUT is in IN's order.

`--stm-offset N` moves every score N centipawns toward the side not to move: fairy-stockfish
scores the side to move about 30 cp better on average than the games bear out (README,
"Teacher scores from fairy-stockfish"), and a fit would learn that as a tempo.

Fitting to these scores teaches the evaluation what a stronger searcher sees in our own
games (`sitke tune OUT --result-weight 0`); README, "Tuning the evaluation", has the runs.
"""

import argparse
import os
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine  # noqa: E402


def work(job):
    lines, path, depth, offset, worker = job
    engine = Engine(path, {"Hash": 16})
    out = []
    for n, line in enumerate(lines):
        if line.startswith("#"):
            out.append(line)
            continue
        fen, _, result = line.split(";")
        cp = engine.score(fen, f"depth {depth}")
        if cp is not None:
            white = cp - offset if fen.split()[1] == "w" else -cp + offset
            out.append(f"{fen};{white};{result}")
        if worker == 0 and n % 10000 == 0:
            print(f"worker 0: {n}/{len(lines)}", file=sys.stderr, flush=True)
    engine.close()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--depth", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--stm-offset", type=int, default=0)
    a = ap.parse_args()
    lines = [l.rstrip("\n") for l in open(a.inp) if l.strip()]
    # Contiguous chunks keep each game's positions (and its #game line) together.
    size = (len(lines) + a.workers - 1) // a.workers
    jobs = [(lines[i * size:(i + 1) * size], a.engine, a.depth, a.stm_offset, i) for i in range(a.workers)]
    with Pool(a.workers) as pool:
        parts = pool.map(work, jobs)
    with open(a.out, "w") as f:
        for part in parts:
            for line in part:
                f.write(line + "\n")


if __name__ == "__main__":
    main()
