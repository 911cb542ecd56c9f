#!/usr/bin/env python3
"""Build a book of unbalanced setups for self-play tests (docs/match.md, "Unbalanced setups").

Self-play between two close Sitke builds is about 90% draws from balanced setups, so an
SPRT needs many hundreds of games to see a few Elo. Chess testing starts from positions
where one side is clearly, but not decisively, better, so that a game pair turns on whether
the better side converts; whether that makes tests here decide sooner is not shown yet
(docs/match.md has the first look).

    python3 scripts/book.py --out book.epd --count 1000 --seed 1 [--random-moves 6] \
        [--engine target/release/sitke] [--nodes 100000] [--low 80] [--high 160]

Each candidate is a random complete setup (all 16 placement plies chosen at random among
the legal drops, by pyffish, so every placement rule is Fairy-Stockfish's), then
`--random-moves` random plies of play (setups alone are rarely unbalanced), scored by the
engine searching `--nodes` nodes; it is kept when its score, from either side, lies in
[--low, --high] centipawns. The output is EPD for `sitke match -openings file=book.epd
format=epd` (with `-repeat`, so each setup is played from both sides), one setup a line
with its score from White's side as a comment. The same seed, engine and nodes give the
same book.
"""

import argparse
import os
import random
import sys

import pyffish

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine  # noqa: E402

VARIANT = "sittuyin"
SETUP_PLIES = 16


def random_setup(rng, start, random_moves=0):
    """The FEN after a random complete setup and `random_moves` random plies of play (a
    game that ends within them gives None)."""
    moves = []
    for _ in range(SETUP_PLIES):
        legal = sorted(pyffish.legal_moves(VARIANT, start, moves))
        drops = [m for m in legal if "@" in m]
        if not drops:
            break
        moves.append(rng.choice(drops))
    for _ in range(random_moves):
        legal = sorted(pyffish.legal_moves(VARIANT, start, moves))
        if not legal:
            return None
        moves.append(rng.choice(legal))
    return pyffish.get_fen(VARIANT, start, moves)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="the EPD file to write")
    ap.add_argument("--count", type=int, default=1000, help="setups to keep")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random setups")
    ap.add_argument("--engine", default="target/release/sitke", help="the scoring engine")
    ap.add_argument("--nodes", type=int, default=100000, help="nodes of each scoring search")
    ap.add_argument("--low", type=int, default=80, help="smallest advantage kept, cp")
    ap.add_argument("--high", type=int, default=160, help="largest advantage kept, cp")
    ap.add_argument("--random-moves", type=int, default=0,
                    help="random plies of play after the setup, before scoring")
    ap.add_argument("--hash", type=int, default=16, help="the engine's hash, MiB")
    args = ap.parse_args()
    if not 0 <= args.low <= args.high:
        ap.error("need 0 <= --low <= --high")

    rng = random.Random(args.seed)
    start = pyffish.start_fen(VARIANT)
    engine = Engine(args.engine, {"Hash": args.hash})
    kept, tried, seen = [], 0, set()
    try:
        while len(kept) < args.count:
            fen = random_setup(rng, start, args.random_moves)
            tried += 1
            if fen is None or fen in seen:
                continue
            seen.add(fen)
            # A fresh table for each setup, so a setup's score does not depend on the
            # ones scored before it and the book is the same however it is cut.
            engine.send("ucinewgame")
            engine.sync()
            cp = engine.score(fen, f"nodes {args.nodes}")
            if cp is None or not args.low <= abs(cp) <= args.high:
                continue
            white = cp if fen.split()[1] == "w" else -cp
            kept.append(f'{fen} ; c0 "score {white:+d} for White at {args.nodes} nodes"')
            if len(kept) % 100 == 0:
                print(f"book.py: {len(kept)} kept of {tried} tried", file=sys.stderr)
    finally:
        engine.close()
    with open(args.out, "w") as f:
        f.write("\n".join(kept) + "\n")
    print(f"book.py: wrote {len(kept)} setups to {args.out} ({tried} tried, "
          f"{100 * len(kept) / tried:.0f}% kept)", file=sys.stderr)


if __name__ == "__main__":
    main()
