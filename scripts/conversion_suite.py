#!/usr/bin/env python3
"""The conversion suite: positions Sitke stood clearly better in and then drew.

    extract  read PGNs of Sitke's games (from `sitke match` or cutechess-cli, with the
             engines' `{score/depth time}` comments), keep the games drawn by the 50-move
             rule or the counting rule, and write the positions, Sitke to move, where
             Sitke's own score was at least --min-score pawns with at least --before moves
             still to play, five or more men on the board. Each game gives at most
             --per-game positions, spread over the stretch it stood better. Games are split between the suite
             and a held-back set by a hash of their moves, so a position never lands in
             both and the split does not depend on the order of the files.

                 python3 scripts/conversion_suite.py extract --out suite.epd \
                     --held-back held.epd games.pgn [more.pgn ...]

    reset    the same positions with the 50-move clock and any count set to 0, for the
             second half of the measurement (how much of the loss the clock explains):

                 python3 scripts/conversion_suite.py reset suite.epd > suite-reset.epd

    endings  which endings the games drawn by the clock reached, and which of them Sitke
             stood better in (its score at least --min-score, --before moves before the
             end): the material at the end, stronger side first, counted. It says which
             endings tables or evaluation rules would serve most:

                 python3 scripts/conversion_suite.py endings games.pgn [more.pgn ...]

    play     the measurement in one command: every position once, Sitke on the better side
             (turned with orient_suite.py where its colour needs it), with the clocks as
             they were (--clock real) or set to 0 (--clock reset), against an opponent given
             as `sitke match` engine options; then the report. Resumable: a finished PGN is
             not played again, and an unfinished one goes on where it stopped (give the
             same command: only the engines' names and the positions are checked on
             resuming, so another clock or option under the same --out would mix runs).
             --sitke is the build measured; the games are run by --runner's `sitke match`
             (default: this checkout's release build), so an old build can be measured too.

                 python3 scripts/conversion_suite.py play --suite scripts/suites/conversion.epd \
                     --clock real --out data/conv-real \
                     --opponent "cmd=/path/to/fairy-stockfish name=fsf 'option.Use NNUE=false'"

    report   from a PGN of the suite played with `-repeat` (every position once with each
             engine on the better side), or by `play`, each engine's results when on the
             better side, and how its draws ended:

                 python3 scripts/conversion_suite.py report --suite suite.epd games.pgn

    compare  two `play` runs of one suite (two builds, or one build with and without an
             option), position by position: game N is position N in both, so each
             position's win or not is paired. Prints how many both won, only the first,
             only the second, and McNemar's z on the discordant pairs (|z| near 2 or more
             is unlikely to be the draw of the games):

                 python3 scripts/conversion_suite.py compare data/conv-a.pgn data/conv-b.pgn

             Either side may be a record (below) instead of a PGN.

    record   a `play` run's outcome per position, a few bytes a line, to commit where the
             PGN (outside git) may not survive: `compare` reads it as it reads the PGN.
             One line per game, `N W|D|L how`, N the position, the result from the better
             side's (Sitke's) view, and for a draw how it ended:

                 python3 scripts/conversion_suite.py record data/conv-a.pgn \
                     --note "build 1454270, 10+0.1 vs fsf-c19b5f6c classical" \
                     --out docs/ledgers/conversion/conv-a.txt

Needs pyffish (pip install pyffish), to replay the SAN moves of the PGNs.
"""
import argparse
import collections
import hashlib
import os
import re
import shlex
import subprocess
import sys

from orient_suite import orient
from suite_report import ending, pgn_games

VARIANT = "sittuyin"
DRAWN_BY_CLOCK = ("fifty moves", "fifty-move", "50-move", "counting rule")


def games(paths):
    """(tags, movetext) of every game in the PGN files."""
    for path in paths:
        yield from pgn_games(open(path).read())


def moves_and_comments(body):
    """The SAN moves with the comment after each (or None), and the last comment."""
    tokens = re.findall(r"\{[^}]*\}|[^\s{}]+", body)
    out, last = [], None
    for t in tokens:
        if t.startswith("{"):
            last = t[1:-1]
            if out and out[-1][1] is None:
                out[-1] = (out[-1][0], last)
        elif re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t):
            continue
        else:
            out.append((re.sub(r"^\d+\.+", "", t), None))
    return out, last


def score_of(comment):
    """The score in pawns of an engine comment like `+1.23/15 0.2s`, or None."""
    if not comment:
        return None
    m = re.match(r"([+-]?)(M)?(\d+(?:\.\d+)?)/\d+", comment.strip())
    if not m:
        return None
    v = 99.0 if m.group(2) else float(m.group(3))
    return -v if m.group(1) == "-" else v


def replay(ff, start, sans):
    """The FEN before each move of a SAN line from `start` and the one after the last, or
    None if a move does not parse."""
    fens = [start]
    for san in sans:
        fen = fens[-1]
        # Only moves to a square the SAN names can be it: far fewer SANs to compute.
        squares = set(re.findall(r"[a-h][1-8]", san))
        found = next(
            (
                m
                for m in ff.legal_moves(VARIANT, fen, [])
                if m[2:4] in squares and ff.get_san(VARIANT, fen, m) == san
            ),
            None,
        )
        if found is None:
            return None
        fens.append(ff.get_fen(VARIANT, fen, [found]))
    return fens


def men(fen):
    return sum(c.isalpha() for c in fen.split("[")[0])


def drawn_by_clock(paths, engine):
    """(tags, SAN moves with comments, white_is_sitke) of each game Sitke drew by the 50-move
    rule or the count."""
    for tags, body in games(paths):
        if tags.get("Result") != "1/2-1/2":
            continue
        sans, last = moves_and_comments(body)
        if not last or not any(k in last.lower() for k in DRAWN_BY_CLOCK):
            continue
        white_is_sitke = tags.get("White", "").lower().startswith(engine)
        if white_is_sitke == tags.get("Black", "").lower().startswith(engine):
            continue
        yield tags, sans, white_is_sitke


def endings(args):
    import pyffish as ff

    tally = collections.Counter()
    better = collections.Counter()
    n = 0
    for tags, sans, white_is_sitke in drawn_by_clock(args.pgn, args.engine):
        start = tags.get("FEN") or ff.start_fen(VARIANT)
        fens = replay(ff, start, [s for s, _ in sans])
        if fens is None:
            continue
        n += 1
        white_first = start.split()[1] == "w"
        # Sitke's last score at least --before moves before the end.
        ours = [
            score_of(c)
            for ply, (_, c) in enumerate(sans[: max(len(sans) - 2 * args.before, 0)])
            if sitke_to_move(ply, white_first, white_is_sitke)
        ]
        ours = [s for s in ours if s is not None]
        name = ending(fens[-1])
        tally[name] += 1
        if ours and ours[-1] >= args.min_score:
            better[name] += 1
    print(f"{n} games drawn by the clock; {sum(better.values())} with Sitke at +{args.min_score:.2f} or better {args.before} moves before the end")
    print(f"{'ending':12} {'games':>6} {'Sitke better':>13}")
    for name, k in tally.most_common():
        print(f"{name:12} {k:6} {better[name]:13}")


def sitke_to_move(ply, white_first, white_is_sitke):
    """Whether Sitke moves at `ply` of a game whose first move is White's if `white_first`."""
    return ((ply % 2 == 0) == white_first) == white_is_sitke


def before(args):
    """Sitke-to-move positions some plies before each clock-drawn game reached one of the
    named endings (its final material), to see whether an evaluation change steers away."""
    import pyffish as ff

    wanted = set(args.ending)
    lines = {plies: [] for plies in args.plies}
    for tags, sans, white_is_sitke in drawn_by_clock(args.pgn, args.engine):
        start = tags.get("FEN") or ff.start_fen(VARIANT)
        fens = replay(ff, start, [s for s, _ in sans])
        name = ending(fens[-1]) if fens else None
        if name not in wanted:
            continue
        began = next(i for i, f in enumerate(fens) if ending(f) == name)
        white_first = start.split()[1] == "w"
        for plies in args.plies:
            # Moves alternate, so one ply back is Sitke's if this one is not.
            j = max(began - plies, 0)
            j -= not sitke_to_move(j, white_first, white_is_sitke)
            if j < 0:
                continue
            s = score_of(sans[j][1])
            lines[plies].append(f'{fens[j]} ; c0 "{name} game {tags.get("Round")}, {began - j} plies before it began, score {s}"')
    for plies in args.plies:
        print("".join(line + "\n" for line in lines[plies]), end="")


def extract(args):
    import pyffish as ff

    suite, held, seen = [], [], set()
    for tags, sans, white_is_sitke in drawn_by_clock(args.pgn, args.engine):
        start = tags.get("FEN") or ff.start_fen(VARIANT)
        fens = replay(ff, start, [s for s, _ in sans])
        if fens is None:
            print(f"skipping a game of round {tags.get('Round')}: a move does not parse", file=sys.stderr)
            continue
        white_first = start.split()[1] == "w"
        candidates = []
        for ply, (_, comment) in enumerate(sans):
            if not sitke_to_move(ply, white_first, white_is_sitke) or len(sans) - ply < 2 * args.before:
                continue
            s = score_of(comment)
            if s is None or s < args.min_score:
                continue
            fen = fens[ply]
            if men(fen) >= 5 and fen not in seen:
                candidates.append((ply, s, fen))
        # Spread over the stretch the game stood better: its start, its end, between.
        k = min(args.per_game, len(candidates))
        picks = sorted({round(i * (len(candidates) - 1) / max(k - 1, 1)) for i in range(k)})
        taken = []
        for ply, s, fen in (candidates[i] for i in picks):
            seen.add(fen)
            taken.append(f'{fen} ; c0 "score {s:+.2f}, {len(sans) - ply} plies before a draw by the clock"')
        digest = hashlib.sha256(" ".join(s for s, _ in sans).encode()).digest()[0]
        (held if digest < 256 * args.held_fraction else suite).extend(taken)
    with open(args.out, "w") as f:
        f.write("".join(line + "\n" for line in suite))
    if args.held_back:
        with open(args.held_back, "w") as f:
            f.write("".join(line + "\n" for line in held))
    print(f"{len(suite)} positions in {args.out}, {len(held)} held back", file=sys.stderr)


def reset_line(line):
    """A suite line with the 50-move clock (or, while a count runs, the plies counted) at 0."""
    fen, _, rest = line.rstrip("\n").partition(" ;")
    f = fen.split()
    if len(f) >= 6:
        f[4] = "0"
    return " ".join(f) + (" ;" + rest if rest else "")


def reset(args):
    for line in open(args.epd):
        print(reset_line(line))


def draw_kind(body):
    """How a drawn game ended, from the last comment: `fifty moves`, `counting`, ..."""
    _, last = moves_and_comments(body)
    last = (last or "").lower()
    for key, name in (("fifty", "50-move"), ("counting", "counting"), ("repetition", "repetition"),
                      ("insufficient", "insufficient"), ("stalemate", "stalemate")):
        if key in last:
            return name
    return "other"


def position_key(fen):
    """A FEN's board, hand (in any order), side to move and the next two fields."""
    f = fen.split()
    board, _, hand = f[0].partition("[")
    return " ".join([board + "[" + "".join(sorted(hand.rstrip("]"))) + "]"] + f[1:4])


def report(args):
    better = {}
    for line in open(args.suite):
        if line.strip():
            fen = line.split(";")[0]
            better[position_key(fen)] = fen.split()[1]
    tally = {}
    kinds = collections.defaultdict(collections.Counter)
    for tags, body in games(args.pgn):
        fen = tags.get("FEN", "")
        side = better.get(position_key(fen)) if fen else None
        if side is None:
            continue
        player = tags["White"] if side == "w" else tags["Black"]
        result = tags.get("Result")
        won = result == ("1-0" if side == "w" else "0-1")
        lost = result == ("0-1" if side == "w" else "1-0")
        w, d, l = tally.get(player, (0, 0, 0))
        tally[player] = (w + won, d + (not won and not lost), l + lost)
        if not won and not lost:
            kinds[player][draw_kind(body)] += 1
    for player, (w, d, l) in sorted(tally.items()):
        n = w + d + l
        print(f"{player:24} on the better side: {n:4} games, won {w:4} ({100 * w / n:.1f}%), drew {d:4}, lost {l:4}")
        if kinds[player]:
            print(f"{'':24} draws: " + ", ".join(f"{k} {v}" for k, v in kinds[player].most_common()))


RECORD_HEADER = "# conversion suite record: position, W/D/L for the better side, how a draw ended"


def outcomes(path):
    """Each game of a `play` PGN by round (game N of a `play` run is position N): `W`, `D`
    or `L` for the better side, the side to move in the game's FEN, and for a draw how it
    ended (`-` otherwise)."""
    out = {}
    for tags, body in games([path]):
        fen = tags.get("FEN", "").split()
        result = tags.get("Result")
        if len(fen) < 2 or result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        if result == "1/2-1/2":
            out[int(tags["Round"])] = ("D", draw_kind(body))
        else:
            out[int(tags["Round"])] = ("W" if result == ("1-0" if fen[1] == "w" else "0-1") else "L", "-")
    return out


def read_record(path):
    """A file written by `record`, as `outcomes` gives it."""
    out = {}
    for k, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split()
        if len(f) != 3 or not f[0].isdigit() or f[1] not in ("W", "D", "L"):
            sys.exit(f"{path}:{k}: expected 'N W|D|L how', got {line.strip()!r}")
        if int(f[0]) in out:
            sys.exit(f"{path}:{k}: position {f[0]} twice")
        out[int(f[0])] = (f[1], f[2])
    return out


def wins_by_game(path):
    """Whether Sitke, on the better side, won each game of a `play` PGN or a record."""
    with open(path) as f:
        is_record = f.readline().startswith(RECORD_HEADER)
    return {n: r == "W" for n, (r, _) in (read_record(path) if is_record else outcomes(path)).items()}


def record(args):
    got = outcomes(args.pgn)
    if not got:
        sys.exit(f"record: no finished game in {args.pgn}")
    text = RECORD_HEADER + "\n" + "".join(f"# {line}\n" for line in args.note)
    text += "".join(f"{n} {r} {how}\n" for n, (r, how) in sorted(got.items()))
    with open(args.out, "w") as f:
        f.write(text)
    tally = collections.Counter(r for r, _ in got.values())
    print(f"{args.out}: {len(got)} positions, won {tally['W']}, drawn {tally['D']}, lost {tally['L']}")


def mcnemar(only_a, only_b):
    """McNemar's z for paired wins: (only A - only B) / sqrt(only A + only B)."""
    n = only_a + only_b
    return (only_a - only_b) / n ** 0.5 if n else 0.0


def compare(args):
    a, b = wins_by_game(args.first), wins_by_game(args.second)
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit("compare: the two PGNs share no round")
    both = sum(1 for r in common if a[r] and b[r])
    only_a = sum(1 for r in common if a[r] and not b[r])
    only_b = sum(1 for r in common if b[r] and not a[r])
    wa, wb = both + only_a, both + only_b
    n = len(common)
    print(f"{n} positions played in both: first won {wa} ({100 * wa / n:.1f}%), second {wb} ({100 * wb / n:.1f}%)")
    print(f"both won {both}, only the first {only_a}, only the second {only_b}, neither {n - both - only_a - only_b}")
    print(f"McNemar z (first minus second): {mcnemar(only_a, only_b):+.2f}")


def play(args):
    lines = [line.strip() for line in open(args.suite) if line.strip() and not line.startswith("#")]
    if args.clock == "reset":
        lines = [reset_line(line) for line in lines]
    # The side to move is the better side: Sitke's, as `sitke match`'s first engine.
    oriented = orient(lines, "stm")
    epd, pgn = args.out + ".epd", args.out + ".pgn"
    os.makedirs(os.path.dirname(os.path.abspath(epd)), exist_ok=True)
    with open(epd, "w") as f:
        f.write("".join(fen + "\n" for fen in oriented))
    done = sum(1 for _ in games([pgn])) if os.path.exists(pgn) else 0
    if done < len(oriented):
        # An interrupted run goes on from its PGN: game N is always position N (the seed is
        # only there because -resume asks for one).
        sitke = ["cmd=" + args.sitke, "name=" + args.name] + [f"option.{o}" for o in args.sitke_option]
        cmd = [args.runner, "match", "-engine", *sitke, "-engine", *shlex.split(args.opponent),
               "-each", f"tc={args.tc}", "-games", "1", "-rounds", str(len(oriented)),
               "-concurrency", str(args.concurrency), "-openings", f"file={epd}", "format=epd",
               "order=sequential", "-srand", "1", "-pgnout", pgn, "-resume"]
        print("+ " + shlex.join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True)
    args.pgn, args.suite = [pgn], epd
    report(args)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract")
    e.add_argument("pgn", nargs="+")
    e.add_argument("--out", required=True)
    e.add_argument("--held-back", help="the held-back set's file (never tune on it)")
    e.add_argument("--held-fraction", type=float, default=0.25)
    e.add_argument("--engine", default="sitke", help="the name (prefix) Sitke plays under")
    e.add_argument("--min-score", type=float, default=1.0)
    e.add_argument("--before", type=int, default=30, help="moves still to play, at least")
    e.add_argument("--per-game", type=int, default=3)
    d = sub.add_parser("endings")
    d.add_argument("pgn", nargs="+")
    d.add_argument("--engine", default="sitke", help="the name (prefix) Sitke plays under")
    d.add_argument("--min-score", type=float, default=1.0)
    d.add_argument("--before", type=int, default=30, help="moves before the end")
    b = sub.add_parser("before", help="positions some plies before named clock-drawn endings began")
    b.add_argument("pgn", nargs="+")
    b.add_argument("--ending", action="append", required=True, help="e.g. KSFvKR (repeat)")
    b.add_argument("--plies", type=int, action="append", required=True, help="plies before (repeat)")
    b.add_argument("--engine", default="sitke", help="the name (prefix) Sitke plays under")
    r = sub.add_parser("reset")
    r.add_argument("epd")
    q = sub.add_parser("report")
    q.add_argument("pgn", nargs="+")
    q.add_argument("--suite", required=True)
    g = sub.add_parser("play")
    g.add_argument("--suite", required=True)
    g.add_argument("--clock", choices=["real", "reset"], required=True)
    g.add_argument("--out", required=True, help="the PGN and the turned EPD are OUT.pgn and OUT.epd")
    g.add_argument("--opponent", required=True, help='engine options of `sitke match`: "cmd=PATH name=NAME ..."')
    g.add_argument("--sitke", default="target/release/sitke", help="the Sitke binary measured")
    # The runner is separate so an older build (whose `match` may lack -resume) can be measured.
    g.add_argument("--runner", default="target/release/sitke",
                   help="the binary whose `sitke match` plays the games (this checkout's build)")
    g.add_argument("--name", default="sitke", help="the name Sitke plays under")
    g.add_argument("--sitke-option", action="append", default=[], help="NAME=VALUE, a UCI option")
    g.add_argument("--tc", default="10+0.1")
    g.add_argument("--concurrency", type=int, default=2)
    c = sub.add_parser("compare", help="two play runs of one suite, paired by position")
    c.add_argument("first")
    c.add_argument("second")
    w = sub.add_parser("record", help="a play run's outcome per position, to commit")
    w.add_argument("pgn")
    w.add_argument("--out", required=True)
    w.add_argument("--note", action="append", default=[], help="a comment line: build, opponent, command")
    args = p.parse_args()
    {"extract": extract, "before": before, "endings": endings, "reset": reset, "report": report, "play": play,
     "compare": compare, "record": record}[args.cmd](args)


if __name__ == "__main__":
    main()
