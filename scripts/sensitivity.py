#!/usr/bin/env python3
"""How well a kind of opening tells two builds apart (docs/testing.md, "The unbalanced book").

Plays one known-good change (by default net generation 10, built in, against generation 8,
loaded with EvalFile) from each kind of opening, at a fixed number of nodes a move so that the
machine's load cannot change a game, and prints per kind: the draw rate, the pentanomial
counts of the game pairs, the Elo, the spread of the pair scores, the normalised Elo, and the
game pairs a test needs to see the change at two standard errors.

    python3 scripts/sensitivity.py --out data/sens --old-net OLD.nnue \\
        --kind random:plies=8 --kind band:30:60 --kind band:60:100 ... [--pairs 400]

A kind is `random:plies=K` (the match runner's random openings) or `band:LOW:HIGH`: the
setups of --scored (the files `book.py score` wrote; the first --candidates of them) whose
deep score lies in [LOW, HIGH], held-out part left out (book.py's split). Each kind's match writes DIR/KIND.log; a kind
whose log holds a finished match is not played again, so the command is resumable.

The figures, per game pair with pair score s in {0, 1/4, 1/2, 3/4, 1} (the new build's
points over the pair, halved): m the mean, sd the standard deviation; normalised Elo
nElo = (m - 1/2) / sd * 800 / ln 10 / sqrt 2 (fishtest's: the Elo a change would have if its
games' spread were that of a coin); pairs needed = (2 sd / (m - 1/2))^2, fewer is better.
"""

import argparse
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from book import band, held  # noqa: E402


def band_file(scored, candidates, low, high, path):
    """Writes the non-held-out setups among the first `candidates` of `scored` that lie in
    [low, high] to `path`; returns how many."""
    out = [fen for _, fen in band(scored, low, high, candidates) if not held(fen, 0.1)]
    with open(path, "w") as f:
        f.write("".join(x + "\n" for x in out))
    return len(out)


def finished(log):
    if not os.path.exists(log):
        return None
    text = open(log).read()
    m = re.findall(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", text)
    if "Finished match" not in text or not m:
        return None
    wld = re.findall(r"Score of .*?: (\d+) - (\d+) - (\d+)", text)
    return [int(x) for x in m[-1]], [int(x) for x in wld[-1]]


def figures(ptnml, wld):
    pairs = sum(ptnml)
    scores = [0, 0.25, 0.5, 0.75, 1]
    m = sum(n * s for n, s in zip(ptnml, scores)) / pairs
    var = sum(n * (s - m) ** 2 for n, s in zip(ptnml, scores)) / pairs
    sd = math.sqrt(var)
    games = sum(wld)
    draws = wld[2] / games
    p = min(max(m, 1e-6), 1 - 1e-6)
    elo = -400 * math.log10(1 / p - 1)
    # 95% interval of the Elo from the pair scores' spread.
    se = sd / math.sqrt(pairs)
    lo, hi = (min(max(m + k * 1.96 * se, 1e-6), 1 - 1e-6) for k in (-1, 1))
    half = (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2
    nelo = (m - 0.5) / sd * 800 / math.log(10) / math.sqrt(2) if sd > 0 else float("nan")
    need = (2 * sd / (m - 0.5)) ** 2 if m != 0.5 else float("inf")
    return dict(games=games, draws=draws, elo=elo, half=half, sd=sd, nelo=nelo, need=need,
                nelo_se=800 / math.log(10) / math.sqrt(2) / math.sqrt(pairs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder of the logs and band files")
    ap.add_argument("--engine", default="target/release/sitke")
    ap.add_argument("--old-net", required=True, help="the older net (EvalFile) of the change")
    ap.add_argument("--scored", nargs="*", default=[], help="book.py score's files")
    ap.add_argument("--candidates", type=int, default=16000,
                    help="use the candidates numbered below this (default 16000)")
    ap.add_argument("--kind", action="append", required=True)
    ap.add_argument("--pairs", type=int, default=400, help="game pairs a kind (default 400)")
    ap.add_argument("--nodes", type=int, default=10000, help="nodes a move (default 10000)")
    ap.add_argument("--srand", type=int, default=71)
    ap.add_argument("--concurrency", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    engine = os.path.abspath(args.engine)
    rows = []
    for kind in args.kind:
        name = kind.replace(":", "_").replace("=", "")
        log = os.path.join(args.out, name + ".log")
        if kind.startswith("random:"):
            openings = ["-openings", "random", kind.split(":", 1)[1]]
            size = "-"
        else:
            _, low, high = kind.split(":")
            path = os.path.abspath(os.path.join(args.out, name + ".epd"))
            size = band_file(args.scored, args.candidates, int(low), int(high), path)
            openings = ["-openings", f"file={path}", "format=epd", "order=random"]
        if finished(log) is None:
            cmd = [engine, "match", "-engine", f"cmd={engine}", "name=new",
                   "-engine", f"cmd={engine}", "name=old",
                   f"option.EvalFile={os.path.abspath(args.old_net)}",
                   "-each", f"nodes={args.nodes}", "option.Hash=16", "-games", "2",
                   "-rounds", str(args.pairs), "-repeat", "-concurrency",
                   str(args.concurrency), "-srand", str(args.srand)] + openings
            print(f"sensitivity.py: {kind}: {' '.join(cmd)}", file=sys.stderr)
            with open(log, "w") as f:
                subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=True)
        ptnml, wld = finished(log)
        rows.append((kind, size, ptnml, wld, figures(ptnml, wld)))
    print("| openings | setups | games | draws | W-L-D | Elo +/- 95% | pentanomial | sd a pair "
          "| nElo | pairs needed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for kind, size, ptnml, wld, f in rows:
        print(f"| {kind} | {size} | {f['games']} | {100 * f['draws']:.1f}% | "
              f"{wld[0]}-{wld[1]}-{wld[2]} | {f['elo']:+.1f} +/- {f['half']:.1f} | {ptnml} | "
              f"{f['sd']:.3f} | {f['nelo']:+.1f} +/- {f['nelo_se']:.1f} | {f['need']:.0f} |")


if __name__ == "__main__":
    main()
