#!/usr/bin/env bash
# What knowing the host's rules is worth: under cutechess-cli, which referees every Sittuyin
# game by the Myanmar federation's rules, Sitke told those rules (`option.Rules=federation`)
# against the same Sitke told Fairy-Stockfish's (`option.Rules=fairy`), so that only the
# second one scores a repetition as a draw and plays to counts and material draws that do
# not exist there. Every game is judged again by Sitke's own referee under the federation's
# rules and must agree with cutechess's result and reason (scripts/cutechess_check.py), so
# the match is also a run of the federation's game-end agreement.
#
# Played in runs of PAIRS game pairs, each run a line of a ledger in git (the format of
# `sitke match -ledger`, read by scripts/ledger_elo.awk), so the match outlasts a session:
# rerun the same command to go on. A run cut off starts again. `ROWS=1` plays nothing and
# prints the result from the ledger.
#
# One thread and 16 MB hash each, TC (10+0.1), no adjudication, setups from the held-out
# book (books/unbalanced-held.epd), each with both colours. Settings, as environment
# variables:
#   CUTECHESS (/work/cutechess/build/cutechess-cli)  TC (10+0.1)  GAMES (200)  PAIRS (20)
#   CONCURRENCY (2)  OUT (data/rules-elo: PGNs and logs)  ROWS (unset; 1: print, play nothing)
set -euo pipefail
# One block, read whole before it runs: an edit saved meanwhile cannot change a running job.
{
cd "$(dirname "$0")/.."

S=target/release/sitke
CC=${CUTECHESS:-/work/cutechess/build/cutechess-cli}
TC=${TC:-10+0.1}
GAMES=${GAMES:-200}
PAIRS=${PAIRS:-20}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-data/rules-elo}
BOOK=books/unbalanced-held.epd
SEED=7100

die() { echo "rules_elo.sh: $*" >&2; exit 1; }
[ -x "$CC" ] || die "no cutechess-cli at $CC (set CUTECHESS; docs/match.md says how to build it)"

cargo build --release
bench=$("$S" bench | sed -n 's/^Nodes searched *: *//p')
[ -n "$bench" ] || die "cannot read the bench signature"
LEDGER=docs/ledgers/rules-federation-vs-fairy-$bench-$TC.txt

# Games the ledger holds: the second field of scripts/ledger_elo.awk's totals (which fails
# on a ledger with no run yet).
games() {
  local n
  n=$(awk -f scripts/ledger_elo.awk "$LEDGER" 2>/dev/null | cut -d' ' -f2) || true
  echo "${n:-0}"
}

if [ "${ROWS:-}" != 1 ]; then
  mkdir -p "$OUT"
  cp "$S" "$OUT/sitke-$bench"
  S=$(realpath "$OUT/sitke-$bench")
  if [ ! -f "$LEDGER" ]; then
    {
      echo "# cutechess-cli ledger: one line per finished run of $PAIRS game pairs (scripts/rules_elo.sh); statistics cover every line"
      echo "# setup: -variant sittuyin -engine name=federation option.Rules=federation -engine name=fairy option.Rules=fairy -each proto=uci tc=$TC option.Hash=16 -games 2 -repeat -concurrency $CONCURRENCY -openings file=$BOOK format=epd order=random; the score is federation's"
    } >"$LEDGER"
  fi
  k=0
  while [ "$(games)" -lt "$GAMES" ]; do
    seed=$((SEED * 10000 + k))
    k=$((k + 1))
    grep -q "^srand=$seed " "$LEDGER" && continue
    run=$OUT/run-$bench-$seed
    rm -f "$run.pgn"
    "$CC" -variant sittuyin \
      -engine cmd="$S" name=federation option.Rules=federation \
      -engine cmd="$S" name=fairy option.Rules=fairy \
      -each proto=uci tc="$TC" option.Hash=16 \
      -openings file="$BOOK" format=epd order=random -srand "$seed" \
      -games 2 -rounds "$PAIRS" -repeat -concurrency "$CONCURRENCY" \
      -pgnout "$run.pgn" min >"$run.log" 2>&1 || die "cutechess-cli failed: $run.log"
    "$S" match -referee "$run.pgn" -rules federation >"$run.sitke"
    python3 scripts/cutechess_check.py "$run.log" "$run.sitke" --ledger federation "$seed" >"$run.check" ||
      die "cutechess and Sitke disagree, or an illegal move: $run.check"
    tail -n 2 "$run.check" | head -n 1 >&2
    tail -n 1 "$run.check" >>"$LEDGER"
  done
fi

read -r _ n w l d e < <(awk -f scripts/ledger_elo.awk "$LEDGER")
echo "federation-aware against fairy-rules Sitke under cutechess, $TC, build $bench: $n games, $w-$l-$d (W-L-D), Elo $e"
exit
}
