#!/usr/bin/env python3
"""Compares cutechess-cli's verdicts with Sitke's referee, game by game.

  cutechess_check.py LOG SITKE [--ledger NAME SRAND]

LOG is cutechess-cli's output (its "Finished game N (A vs B): RESULT {WHY}" lines), SITKE
the rows `sitke match -referee PGN -rules NAME` printed for the same games. Each game agrees
when both give the same result and cutechess's reason is the rule Sitke names. Prints one
line a game and a summary; exits 1 on any disagreement or illegal move.

With --ledger NAME SRAND it also prints, as its last line, a `sitke match -ledger` line for
the engine called NAME: wins, draws, losses and the pentanomial count of game pairs (games
2k-1 and 2k of a `-games 2 -repeat` run play one setup with the colours swapped), so that
scripts/ledger_elo.awk reads cutechess's runs as it reads sitke match's.
"""
import re
import sys

# cutechess's words for a game end by the rules, and the reason Sitke's referee gives.
REASONS = {
    "mates": "checkmate",
    "Draw by stalemate": "stalemate",
    "Draw by promotion stalemate": "promotion stalemate",
    "Draw by fifty moves rule": "50-move rule",
    "Draw by insufficient mating material": "insufficient material",
    "Draw by counting rules.": "counting rule",
}


def main(argv):
    log, sitke = argv[1], argv[2]
    ledger = argv[4:6] if len(argv) == 6 and argv[3] == "--ledger" else None
    if len(argv) != 3 and ledger is None:
        sys.exit(__doc__)
    finished = []
    for line in open(log):
        m = re.match(r"Finished game (\d+) \((.*) vs (.*)\): (\S+) \{(.*)\}", line.strip())
        if m:
            finished.append((int(m.group(1)), m.group(2), m.group(3), m.group(4), m.group(5)))
    finished.sort()
    ours = [line.rstrip("\n").split("\t") for line in open(sitke) if line.strip()]
    if len(ours) != len(finished):
        sys.exit(f"cutechess finished {len(finished)} games, the PGN holds {len(ours)}")
    bad, illegal = 0, 0
    for (number, _, _, result, why), row in zip(finished, ours):
        expected = next((v for k, v in REASONS.items() if why.endswith(k) or why == k), None)
        if "illegal" in why.lower() or row[2] == "illegal":
            illegal += 1
        agree = expected is not None and row[2] == result and row[3] == expected
        bad += not agree
        print(f"game {number}: cutechess {result} {{{why}}}; Sitke {row[2]} {{{row[3]}}}: "
              f"{'agree' if agree else 'DISAGREE'}")
    print(f"{len(finished)} games, {bad} disagreements, {illegal} illegal moves")
    if ledger:
        print(ledger_line(finished, *ledger))
    return 1 if bad or illegal else 0


def ledger_line(finished, name, srand):
    """The run's line for `name`: its wins, draws, losses and pentanomial pair counts."""
    score = {}
    for number, white, black, result, _ in finished:
        if name not in (white, black):
            sys.exit(f"game {number} is {white} vs {black}, without {name}")
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        score[number] = points if white == name else 1.0 - points
    wins = sum(s == 1.0 for s in score.values())
    losses = sum(s == 0.0 for s in score.values())
    ptnml = [0] * 5
    for first in range(1, max(score, default=0) + 1, 2):
        if first in score and first + 1 in score:
            ptnml[int(2 * (score[first] + score[first + 1]))] += 1
    return (f"srand={srand} wins={wins} draws={len(score) - wins - losses} losses={losses} "
            f"ptnml={','.join(map(str, ptnml))}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
