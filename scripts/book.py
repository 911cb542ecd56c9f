#!/usr/bin/env python3
"""Build the book of unbalanced setups that self-play tests start from (docs/testing.md,
"The unbalanced book").

Two steps, each its own command:

    python3 scripts/book.py score --out data/book/scored.0 --count 16000 --shard 0/2 &
    python3 scripts/book.py score --out data/book/scored.1 --count 16000 --shard 1/2
    python3 scripts/book.py select --scored data/book/scored.0 data/book/scored.1 --low 60 --high 160 \
        --out books/unbalanced.epd --held-out books/unbalanced-held.epd

`score` draws candidates and scores them, appending one line a candidate to --out; it is
resumable (rerun the same command and it goes on after the last candidate written) and the
same seed, engine and node counts write the same lines however often it was cut. Candidate
i is its own random stream (seed and i), a random complete setup (all 16 placement plies
chosen at random among the legal drops, by pyffish, so every placement rule is
Fairy-Stockfish's) followed by --random-moves random plies of play (a setup alone is rarely
unbalanced). A quick search of --quick-nodes sorts out the candidates that are plainly
level or plainly lost; the rest get the deep search of --nodes, each from an empty table,
so a score does not depend on what was scored before.

`select` keeps the scored candidates whose deep score, from either side, lies in [--low,
--high] centipawns, drops repeats, and splits them by a hash of the position: about
--held-share of them go to --held-out, a part that no tuning and no gate ever plays, kept
for the strength figures; the rest to --out. Each line is EPD for `sitke match -openings
file=BOOK.epd format=epd` (played with `-repeat`, so each setup is played from both sides),
with the deep score from White's side as a comment.
"""

import argparse
import hashlib
import os
import random
import sys

import pyffish

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci import Engine  # noqa: E402

VARIANT = "sittuyin"
SETUP_PLIES = 16


def candidate(seed, index, start, random_moves):
    """Candidate `index` of `seed`: the FEN after a random complete setup and `random_moves`
    random plies of play, or None when the game ends within them."""
    rng = random.Random(f"{seed}:{index}")
    moves = []
    for _ in range(SETUP_PLIES):
        drops = [m for m in sorted(pyffish.legal_moves(VARIANT, start, moves)) if "@" in m]
        if not drops:
            break
        moves.append(rng.choice(drops))
    for _ in range(random_moves):
        legal = sorted(pyffish.legal_moves(VARIANT, start, moves))
        if not legal:
            return None
        moves.append(rng.choice(legal))
    if not pyffish.legal_moves(VARIANT, start, moves):
        return None
    return pyffish.get_fen(VARIANT, start, moves)


def white_score(fen, cp):
    return cp if fen.split()[1] == "w" else -cp


def last_index(path):
    """The index of the last whole line in `path`, or -1; a torn last line is cut off."""
    if not os.path.exists(path):
        return -1
    with open(path) as f:
        text = f.read()
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
        with open(path, "w") as f:
            f.write(text)
    lines = text.splitlines()
    return int(lines[-1].split("\t")[0]) if lines else -1


def score(args):
    """Appends `index <TAB> quick <TAB> deep <TAB> fen` lines (scores from White's side; `-`
    for a search not made or a mate found) for candidates up to --count."""
    start = pyffish.start_fen(VARIANT)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    shard, shards = (int(x) for x in args.shard.split("/"))
    first = last_index(args.out) + 1
    if first >= args.count:
        print(f"book.py: {args.out} already holds {args.count} candidates", file=sys.stderr)
        return
    engine = Engine(args.engine, {"Hash": args.hash})
    deep_made = 0
    try:
        with open(args.out, "a") as out:
            for i in range(first, args.count):
                if i % shards != shard:
                    continue
                fen = candidate(args.seed, i, start, args.random_moves)
                quick = deep = None
                if fen is not None:
                    engine.send("ucinewgame")
                    engine.sync()
                    quick = engine.score(fen, f"nodes {args.quick_nodes}")
                    if quick is not None and args.quick_low <= abs(quick) <= args.quick_high:
                        engine.send("ucinewgame")
                        engine.sync()
                        deep = engine.score(fen, f"nodes {args.nodes}")
                        deep_made += 1
                cols = [str(i)]
                for cp in (quick, deep):
                    cols.append("-" if cp is None else f"{white_score(fen, cp):+d}")
                cols.append(fen or "-")
                out.write("\t".join(cols) + "\n")
                out.flush()
                if (i + 1) % 500 == 0:
                    print(f"book.py: {i + 1} candidates scored ({deep_made} deep this run)",
                          file=sys.stderr)
    finally:
        engine.close()


def held(fen, share):
    """Whether `fen` belongs to the held-out part: a hash of the position, not of the line,
    so the split is the same whatever the order or the band."""
    h = int.from_bytes(hashlib.sha256(position_key(fen).encode()).digest()[:8], "big")
    return h % 1000 < share * 1000


def position_key(fen):
    """The FEN without its move counters: two candidates that differ only there are the
    same setup."""
    return " ".join(fen.split()[:-2])


def band(scored, low, high, candidates=None):
    """The distinct setups of the files `score` wrote (the candidates numbered below
    `candidates`, if given) whose deep score lies in [low, high] from either side, in
    candidate order whatever the shards, as (score for White, FEN) pairs."""
    rows = []
    for path in scored:
        with open(path) as f:
            rows += [line.rstrip("\n").split("\t") for line in f]
    rows = [r for r in rows if candidates is None or int(r[0]) < candidates]
    rows.sort(key=lambda r: int(r[0]))
    seen = set()
    for _, _, deep, fen in rows:
        if deep == "-" or not low <= abs(int(deep)) <= high or position_key(fen) in seen:
            continue
        seen.add(position_key(fen))
        yield int(deep), fen


def select(args):
    kept, out_held = [], []
    for deep, fen in band(args.scored, args.low, args.high):
        epd = f'{fen} ; c0 "score {deep:+d} for White at {args.nodes} nodes"'
        (out_held if held(fen, args.held_share) else kept).append(epd)
    for path, lines in ((args.out, kept), (args.held_out, out_held)):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, "w") as f:
                f.write("".join(x + "\n" for x in lines))
    print(f"book.py: {len(kept)} setups to {args.out}, {len(out_held)} held out"
          f"{' to ' + args.held_out if args.held_out else ' (not written)'}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)

    sc = sub.add_parser("score", help="draw and score candidates (resumable)")
    sc.add_argument("--out", required=True, help="the file of scored candidates, appended to")
    sc.add_argument("--count", type=int, required=True, help="candidates to draw in all")
    sc.add_argument("--seed", type=int, default=71, help="seed of the random candidates")
    sc.add_argument("--random-moves", type=int, default=4,
                    help="random plies of play after the setup (default 4)")
    sc.add_argument("--engine", default="target/release/sitke", help="the scoring engine")
    sc.add_argument("--quick-nodes", type=int, default=20000,
                    help="nodes of the sorting search (default 20000)")
    sc.add_argument("--quick-low", type=int, default=30,
                    help="smallest quick score that earns a deep search, cp (default 30)")
    sc.add_argument("--quick-high", type=int, default=250,
                    help="largest quick score that earns a deep search, cp (default 250)")
    sc.add_argument("--nodes", type=int, default=500000,
                    help="nodes of the deep search (default 500000)")
    sc.add_argument("--hash", type=int, default=64, help="the engine's hash, MiB")
    sc.add_argument("--shard", default="0/1",
                    help="K/N: score only the candidates whose index is K modulo N, so N "
                    "processes (each with its own --out) share the work (default 0/1)")

    se = sub.add_parser("select", help="keep a band of scored candidates, split off a part")
    se.add_argument("--scored", required=True, nargs="+",
                    help="the files `score` wrote (one a shard)")
    se.add_argument("--low", type=int, required=True, help="smallest advantage kept, cp")
    se.add_argument("--high", type=int, required=True, help="largest advantage kept, cp")
    se.add_argument("--out", required=True, help="the EPD book to write")
    se.add_argument("--held-out", help="the EPD file of the held-out part")
    se.add_argument("--held-share", type=float, default=0.1,
                    help="share of setups held out (default 0.1)")
    se.add_argument("--nodes", type=int, default=500000,
                    help="the deep search's nodes, for the comments (default 500000)")
    args = ap.parse_args()
    if args.command == "select" and not 0 <= args.low <= args.high:
        ap.error("need 0 <= --low <= --high")
    score(args) if args.command == "score" else select(args)


if __name__ == "__main__":
    main()
