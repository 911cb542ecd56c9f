#!/usr/bin/env bash
# Plays N games (default 4) under cutechess-cli between two Sitkes told the Myanmar
# federation's rules (`option.Rules=federation`: cutechess always sends `UCI_Variant
# sittuyin` and referees by its own federation rules), then judges every game again with
# Sitke's referee under the same rules (`sitke match -referee`), and checks that every
# game's result and reason agree and that cutechess saw no illegal move.
#
#   scripts/cutechess_federation.sh [N]        (N games, as pairs with colours swapped)
#
# CUTECHESS (default /work/cutechess/build/cutechess-cli), SITKE (default
# target/release/sitke), TC (default 10+0.1) and KEEP (a folder to keep the PGN and logs
# in) change the defaults. Exit status 0 only if every game agrees.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-4}
cc=${CUTECHESS:-/work/cutechess/build/cutechess-cli}
sitke=$(realpath "${SITKE:-target/release/sitke}")
tc=${TC:-10+0.1}
out=${KEEP:-$(mktemp -d)}
mkdir -p "$out"
[ -x "$cc" ] || { echo "cutechess_federation.sh: no cutechess-cli at $cc (set CUTECHESS)" >&2; exit 2; }

"$cc" -variant sittuyin \
  -engine cmd="$sitke" name=Sitke-A -engine cmd="$sitke" name=Sitke-B \
  -each proto=uci tc="$tc" option.Rules=federation option.Hash=16 \
  -games 2 -rounds $(((n + 1) / 2)) -repeat -concurrency 1 \
  -pgnout "$out/games.pgn" min >"$out/cutechess.log" 2>&1
"$sitke" match -referee "$out/games.pgn" -rules federation >"$out/sitke.txt"

python3 - "$out/cutechess.log" "$out/sitke.txt" <<'PY'
import re, sys

# cutechess's words for a game end by the rules, and the reason Sitke's referee gives.
REASONS = {
    "mates": "checkmate",
    "Draw by stalemate": "stalemate",
    "Draw by promotion stalemate": "promotion stalemate",
    "Draw by fifty moves rule": "50-move rule",
    "Draw by insufficient mating material": "insufficient material",
    "Draw by counting rules.": "counting rule",
}

finished = []
for line in open(sys.argv[1]):
    m = re.match(r"Finished game (\d+) \((.*) vs (.*)\): (\S+) \{(.*)\}", line.strip())
    if m:
        finished.append((int(m.group(1)), m.group(4), m.group(5)))
finished.sort()
ours = [line.rstrip("\n").split("\t") for line in open(sys.argv[2]) if line.strip()]
if len(ours) != len(finished):
    sys.exit(f"cutechess finished {len(finished)} games, the PGN holds {len(ours)}")
bad, illegal = 0, 0
for (number, result, why), row in zip(finished, ours):
    expected = next((v for k, v in REASONS.items() if why.endswith(k) or why == k), None)
    if "illegal" in why.lower() or row[2] == "illegal":
        illegal += 1
    agree = expected is not None and row[2] == result and row[3] == expected
    bad += not agree
    print(f"game {number}: cutechess {result} {{{why}}}; Sitke {row[2]} {{{row[3]}}}: {'agree' if agree else 'DISAGREE'}")
print(f"{len(finished)} games, {bad} disagreements, {illegal} illegal moves")
sys.exit(1 if bad or illegal else 0)
PY
