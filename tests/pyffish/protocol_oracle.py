#!/usr/bin/env python3
"""Positions and legal moves as pyffish (Fairy-Stockfish's own library) sees them, for
tests/protocol_fuzz.rs: the fuzz test's model of the engine's state asks this script, not
Sitke's own parsers, what a `position` command means and which moves are legal.

Reads one request a line on stdin, tab-separated, and answers each at once on one line of
stdout (the test waits for every answer before it sends the next line to the engine):
    start                          ->  the start position's FEN
    apply <fen> <uci moves>        ->  `bad` if the FEN is not a valid position; else the
                                       number of moves applied before the first illegal one,
                                       a tab, and the FEN after them
    legal <fen> <uci moves>        ->  the legal moves after the moves, space-separated
The FEN arrives already in pyffish's form (the test translates the documented input forms:
cutechess's, SFEN, castling letters); moves are pyffish's UCI (`R@a1`, `d5e6f`).
"""

import os
import sys

import pyffish as sf

V = "sittuyin"


def opponent_in_check(fen):
    """Whether the side not to move is in check: docs/protocol.md says such a FEN is refused,
    and pyffish's validate_fen does not look."""
    fields = sf.get_fen(V, fen, []).split(" ")
    fields[1] = "b" if fields[1] == "w" else "w"
    return sf.gives_check(V, " ".join(fields), [])


def apply(fen, moves):
    if sf.validate_fen(fen, V) != sf.FEN_OK or opponent_in_check(fen):
        return "bad"
    applied = []
    for m in moves:
        if m not in sf.legal_moves(V, fen, applied):
            break
        applied.append(m)
    return f"{len(applied)}\t{sf.get_fen(V, fen, applied)}"


def answer(line):
    kind, fen, moves = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    moves = moves.split()
    if kind == "start":
        return sf.get_fen(V, sf.start_fen(V), [])
    if kind == "apply":
        return apply(fen, moves)
    if kind == "legal":
        return " ".join(sf.legal_moves(V, fen, moves))
    raise SystemExit(f"unknown request '{kind}'")


def main():
    # pyffish explains every invalid FEN on the C++ side's stderr; the test only needs the
    # verdict, but Python's own errors should still show.
    sys.stderr = os.fdopen(os.dup(2), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    for line in sys.stdin:
        print(answer(line), flush=True)


if __name__ == "__main__":
    main()
