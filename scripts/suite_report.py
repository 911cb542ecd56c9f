#!/usr/bin/env python3
"""Per-ending results of one engine in a suite match's PGN (`sitke match -pgnout`).

    python3 scripts/suite_report.py --engine tb tb_wins-tb.pgn

Groups the games by the material of their start position, named stronger side first
whichever colour it has (KRvKN), and prints for the named engine the wins, draws and
losses of each group, with how the games it did not win ended (the PGN's last comment).
"""
import argparse
import collections
import re
import sys

from orient_suite import material

ORDER = "KRSNFP"


def side_men(board: str, white: bool) -> str:
    men = [c.upper() for c in board if c.isalpha() and c.isupper() == white]
    return "".join(sorted(men, key=ORDER.index))


def ending(fen: str) -> str:
    board = fen.split()[0].split("[")[0]
    w, b = side_men(board, True), side_men(board, False)
    if (material(fen, "b"), b) > (material(fen, "w"), w):
        w, b = b, w
    return f"{w}v{b}"


def pgn_games(text: str):
    """(tags, movetext) of each game of a PGN text that has a Result tag."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        if "Result" not in tags:
            continue
        yield tags, chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""


def games(text: str):
    for tags, movetext in pgn_games(text):
        comments = re.findall(r"\{([^}]*)\}", movetext)
        tags["end"] = comments[-1] if comments else ""
        yield tags


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the engine's name in the PGN")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    groups = collections.defaultdict(lambda: [0, 0, 0, collections.Counter()])
    total = [0, 0, 0]
    for path in args.pgn:
        for g in games(open(path).read()):
            white = g["White"] == args.engine
            if not white and g["Black"] != args.engine:
                continue
            result = g["Result"]
            if result == "*":
                print(f"unfinished game: {g.get('FEN')}", file=sys.stderr)
                continue
            k = 1 if result == "1/2-1/2" else (0 if (result == "1-0") == white else 2)
            grp = groups[ending(g.get("FEN", ""))]
            grp[k] += 1
            total[k] += 1
            if k != 0:
                grp[3][g["end"]] += 1
    print(f"{'ending':8} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4}  not won by")
    for name in sorted(groups):
        w, d, lo, why = groups[name]
        notes = ", ".join(f"{n} {reason}" for reason, n in why.most_common())
        print(f"{name:8} {w + d + lo:5} {w:4} {d:5} {lo:4}  {notes}")
    n = sum(total)
    print(f"{'all':8} {n:5} {total[0]:4} {total[1]:5} {total[2]:4}  won {100 * total[0] / max(n, 1):.1f}%")


if __name__ == "__main__":
    main()
