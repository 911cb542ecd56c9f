#!/usr/bin/env python3
"""Turns the games of a match PGN into positions in datagen's format, for labelling.

    scripts/pgn_positions.py GAMES.pgn OUT.txt

Writes one `#game` line per finished game, then `FEN;0;RESULT` for each quiet position of
it after the setup: every piece placed, the side to move not in check, and the move played
from it not a capture (a position in the middle of an exchange teaches a static evaluation
nothing it can use). The score is 0: `scripts/fsf_label.py` replaces it. RESULT is 1.0, 0.5
or 0.0 from White's view, as datagen writes it.

Why: fitting only to positions from our own self-play never shows the evaluation the
positions a stronger opponent steers into. The games of `sitke match` against
fairy-stockfish, and fairy-stockfish's games against itself, are where those positions are
(README, "The teacher's own positions").
"""

import re
import sys

import pyffish as sf

VARIANT = "sittuyin"
RESULTS = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}


def uci_of(fen, san):
    """The legal move of `fen` written `san`, or None."""
    squares = re.findall(r"[a-h][1-8]", san)
    # Narrow by the destination first: get_san for every legal move is the slow part.
    legal = [m for m in sf.legal_moves(VARIANT, fen, []) if not squares or m[2:4] == squares[-1]]
    if len(legal) == 1:
        return legal[0]
    return next((m for m in legal if sf.get_san(VARIANT, fen, m) == san), None)


def positions(game):
    """The result and the quiet post-setup positions of one PGN game, or None if unfinished."""
    result = re.search(r'\[Result "([^"]+)"', game)
    if not result or result.group(1) not in RESULTS:
        return None
    start = re.search(r'\[FEN "([^"]+)"', game)
    fen = start.group(1) if start else sf.start_fen(VARIANT)
    body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
    body = re.sub(r"\{[^}]*\}", "", body)
    body = re.sub(r"\d+\.", "", body)
    sans = body.split()[:-1]
    quiet = []
    for san in sans:
        move = uci_of(fen, san)
        if move is None:
            print(f"pgn_positions: no legal move {san} in {fen}; rest of game skipped", file=sys.stderr)
            break
        in_setup = not fen.split()[0].endswith("[]")
        if not in_setup and not sf.gives_check(VARIANT, fen, []) and "x" not in san:
            quiet.append(fen)
        fen = sf.get_fen(VARIANT, fen, [move])
    return RESULTS[result.group(1)], len(sans), quiet


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    text = open(sys.argv[1]).read()
    games = 0
    count = 0
    with open(sys.argv[2], "w") as out:
        for game in text.split("[Event ")[1:]:
            got = positions(game)
            if got is None:
                continue
            result, plies, quiet = got
            out.write(f"#game {10_000_000 + games} {result} {plies} pgn\n")
            for fen in quiet:
                out.write(f"{fen};0;{result}\n")
            games += 1
            count += len(quiet)
    print(f"{games} games, {count} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
