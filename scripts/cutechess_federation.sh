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
# target/release/sitke), TC (default 10+0.1), CONCURRENCY (default 2) and KEEP (a folder to keep the PGN and logs
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
  -games 2 -rounds $(((n + 1) / 2)) -repeat -concurrency "${CONCURRENCY:-2}" \
  -pgnout "$out/games.pgn" min >"$out/cutechess.log" 2>&1
"$sitke" match -referee "$out/games.pgn" -rules federation >"$out/sitke.txt"

python3 scripts/cutechess_check.py "$out/cutechess.log" "$out/sitke.txt"
