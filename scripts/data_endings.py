#!/usr/bin/env python3
"""How the games of a datagen file ended, by the pawnless endings they reached.

    python3 scripts/data_endings.py [--by extra] data/gen2.bin [more.bin ...]

For every game of `sitke datagen`'s binary files (docs/training.md) and every ending it
reached in which the side ahead in pieces has no pawn (hands empty, 4 to 7 men), the game
counts once, at the first position of that ending: how it ended for the side ahead, and the
search's score there from that side's view. `--by ending` (the default) names the ending
(KRFvKR, stronger side first); `--by extra` names what the stronger side has more
(`+F R`: a met more, rooks on the board; `+N-S`: a knight for a khon; `vP`: the weaker side
has pawns). The table says which endings the evaluation scores above what the games give.
"""
import argparse
import collections
import struct

from suite_report import ORDER

TYPES = "PNSFRK"  # the record's piece type codes 0..5
VALUE = {"K": 0, "R": 10, "N": 6, "S": 6, "F": 3, "P": 2}


def records(path):
    """(game result from White's view: 1, 0, -1; the game's records) of each game."""
    data = open(path, "rb").read()
    assert data[:8] == b"SITKEDAT", f"{path}: not a binary datagen file"
    off = 16
    while off + 32 <= len(data):
        assert data[off : off + 4] == b"GAME", f"{path}: no game block at byte {off}"
        n = struct.unpack_from("<I", data, off + 4)[0]
        result = data[off + 16] - 1
        off += 32
        yield result, [data[off + 32 * i : off + 32 * (i + 1)] for i in range(n)]
        off += 32 * n


def men(record):
    """White's and Black's men of a record, as letters."""
    occ = struct.unpack_from("<Q", record, 0)[0]
    white, black = [], []
    for k in range(bin(occ).count("1")):
        nibble = (record[8 + k // 2] >> (4 * (k % 2))) & 15
        (black if nibble & 8 else white).append(TYPES[nibble & 7])
    return white, black


def side(letters):
    return "".join(sorted(letters, key=ORDER.index))


def name(strong, weak, by):
    if by == "ending":
        return f"{side(strong)}v{side(weak)}"
    extra, missing = list(strong), [c for c in weak if c != "P"]
    for c in list(missing):
        if c in extra:
            extra.remove(c)
            missing.remove(c)
    text = "+" + side(extra).replace("K", "")
    if [c for c in missing if c != "K"]:
        text += "-" + side(missing).replace("K", "")
    if "P" in weak:
        text += " vP"
    if "R" in strong and "R" in weak:
        text += " R"
    return text


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", nargs="+")
    p.add_argument("--by", choices=["ending", "extra"], default="ending")
    p.add_argument("--top", type=int, default=40)
    args = p.parse_args()
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])  # won, drawn, lost, score sum
    for path in args.data:
        for result, recs in records(path):
            seen = set()
            for r in recs:
                if r[26] or r[27]:
                    continue
                white, black = men(r)
                if not 4 <= len(white) + len(black) <= 7:
                    continue
                vw, vb = (sum(VALUE[c] for c in s if c != "P") for s in (white, black))
                flip = (vb, side(black)) > (vw, side(white))
                strong, weak = (black, white) if flip else (white, black)
                if "P" in strong:
                    continue
                key = name(strong, weak, args.by)
                if key in seen:
                    continue
                seen.add(key)
                score = struct.unpack_from("<h", r, 24)[0] * (-1 if r[28] & 1 else 1)
                sign = -1 if flip else 1
                st = stats[key]
                st[1 - result * sign] += 1
                st[3] += score * sign
    print(f"{'ending':14} {'games':>6} {'won':>5} {'drawn':>6} {'lost':>5} {'won %':>6} {'mean score':>10}")
    for key, (w, d, l, s) in sorted(stats.items(), key=lambda kv: -sum(kv[1][:3]))[: args.top]:
        n = w + d + l
        print(f"{key:14} {n:6} {w:5} {d:6} {l:5} {100 * w / n:6.1f} {s / n:10.0f}")


if __name__ == "__main__":
    main()
