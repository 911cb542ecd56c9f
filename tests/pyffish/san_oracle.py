#!/usr/bin/env python3
"""SAN as pyffish (Fairy-Stockfish's own library) writes it, for tests/san_pyffish.rs.

Reads requests from stdin, one a line, tab-separated, and answers each on one line of
stdout, in order:
    line <fen> <uci moves, space-separated>   ->  the SAN of the moves played in sequence
                                                  (get_san_moves), space-separated
    each <fen> <uci moves, space-separated>   ->  the SAN of each move alone in the
                                                  position (get_san), space-separated
"""

import multiprocessing
import sys

import pyffish as sf

V = "sittuyin"


def answer(line):
    kind, fen, moves = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    moves = moves.split()
    if kind == "line":
        return " ".join(sf.get_san_moves(V, fen, moves))
    if kind == "each":
        return " ".join(sf.get_san(V, fen, m) for m in moves)
    raise SystemExit(f"unknown request '{kind}'")


def main():
    requests = [l for l in sys.stdin if l.strip()]
    with multiprocessing.Pool() as pool:
        for out in pool.imap(answer, requests, chunksize=8):
            print(out)


if __name__ == "__main__":
    main()
