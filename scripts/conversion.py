#!/usr/bin/env python3
"""How often each engine of a `sitke match` PGN converts a clear advantage.

A game counts as "up" for a side once both engines' own scores (the `{+1.23/15 0.2s}`
comments) agree that side is at least 1.5 pawns ahead for four moves in a row; the table
gives, for each side, how such games ended from Sitke's point of view.

    python3 scripts/conversion.py games.pgn [more.pgn ...]
"""
import collections
import re
import sys


def side_scores(game):
    """Sitke's and its opponent's scores, each from Sitke's point of view, move by move."""
    white = re.search(r'\[White "([^"]+)"', game).group(1)
    body = game.split("\n\n", 1)[1]
    ours, theirs = [], []
    for i, c in enumerate(re.findall(r"\{([+-]?[\d.]+|[+-]?M\d+)/\d+ [\d.]+s\}", body)):
        white_moved = i % 2 == 0
        sitke_moved = white_moved == (white == "sitke")
        try:
            v = float(c)
        except ValueError:
            v = -99.0 if c.startswith("-") else 99.0
        (ours if sitke_moved else theirs).append(v if sitke_moved else -v)
    return ours, theirs


def sustained(xs, threshold, moves=4):
    run = 0
    for x in xs:
        run = run + 1 if x >= threshold else 0
        if run >= moves:
            return True
    return False


def main():
    tally = collections.Counter()
    for path in sys.argv[1:]:
        for game in open(path).read().split("[Event ")[1:]:
            white = re.search(r'\[White "([^"]+)"', game).group(1)
            result = re.search(r'\[Result "([^"]+)"', game).group(1)
            score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            if white != "sitke":
                score = 1.0 - score
            ours, theirs = side_scores(game)
            up = sustained(ours, 1.5) and sustained(theirs, 1.5)
            down = sustained([-x for x in ours], 1.5) and sustained([-x for x in theirs], 1.5)
            kind = "both" if up and down else "sitke up" if up else "opponent up" if down else "neither"
            tally[(kind, score)] += 1
    for kind in ["sitke up", "opponent up", "both", "neither"]:
        w, d, l = (tally[(kind, s)] for s in (1.0, 0.5, 0.0))
        if w + d + l:
            print(f"{kind:12} games {w + d + l:4}  sitke won {w:4}  drew {d:4}  lost {l:4}")


if __name__ == "__main__":
    main()
