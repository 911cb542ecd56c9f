#!/usr/bin/env python3
"""Turn a suite's positions so that engine 1 of `sitke match` always has the given side.

`sitke match` without -repeat gives engine 1 White in even games (0, 2, ...) and Black in odd
ones, and game i plays line i. A conversion suite should be played once per position with
the engine under test on the winning side, so this writes line i as it is when the winner
already has the right colour for slot i, and otherwise its colour-swapped rotation (board
turned half round, colours and hands swapped, other side to move), which the rules treat
alike: the start ranks, promotion squares and counting are symmetric under that turn.

    python3 scripts/orient_suite.py --winner stm   < tb_wins.epd         > tb_wins-1.epd
    python3 scripts/orient_suite.py --winner other < bare_king_mates.epd > bkm-1.epd
    python3 scripts/orient_suite.py --winner weaker < tb_draws.epd       > tb_draws-1.epd

--winner stm: the side to move wins; --winner other: the side not to move does;
--winner weaker: the engine takes the side with less material (the side to move when
equal), the side that can lose a drawn position (for a suite of draws).
"""
import argparse
import sys


def rotate(fen: str) -> str:
    fields = fen.split()
    board = fields[0]
    hand = ""
    if "[" in board:
        board, hand = board.split("[", 1)
        hand = hand.rstrip("]")
    ranks = board.split("/")
    rotated = "/".join(rank[::-1].swapcase() for rank in reversed(ranks))
    fields[0] = f"{rotated}[{hand.swapcase()}]"
    fields[1] = "b" if fields[1] == "w" else "w"
    return " ".join(fields)


VALUES = {"p": 1, "f": 2, "n": 3, "s": 3, "r": 5, "k": 0}


def material(fen: str, colour: str) -> int:
    """The colour's men by rough value, pieces in hand included; suite_report.py uses it too."""
    board = fen.split()[0]
    return sum(VALUES[c.lower()] for c in board if c.isalpha() and (c.isupper() == (colour == "w")))


def orient(lines, winner_rule: str) -> list:
    """The FENs of the suite lines, line i turned where needed so that the side the rule
    names (stm, other, weaker) has slot i's colour (White when i is even)."""
    out = []
    for i, line in enumerate(lines):
        fen = line.split(";")[0].strip()
        stm = fen.split()[1]
        other = "b" if stm == "w" else "w"
        if winner_rule == "weaker":
            winner = other if material(fen, other) < material(fen, stm) else stm
        else:
            winner = stm if winner_rule == "stm" else other
        wanted = "w" if i % 2 == 0 else "b"
        out.append(fen if winner == wanted else rotate(fen))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--winner", choices=["stm", "other", "weaker"], required=True)
    args = ap.parse_args()
    lines = [line.strip() for line in sys.stdin if line.strip() and not line.startswith("#")]
    for fen in orient(lines, args.winner):
        print(fen)


if __name__ == "__main__":
    main()
