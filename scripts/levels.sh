#!/usr/bin/env bash
# The ladder of playing levels (`Skill Level`, src/search/skill.rs): each level in LEVELS
# against the one below it, so that every step of the ladder is a measured Elo difference,
# and the sum of the steps places each level against the weakest. Each match is played in
# runs kept as lines of a ledger in git (scripts/chunked_match.sh): rerun the same command to
# go on where it stopped. `ROWS=1` plays nothing and prints the ladder from the ledgers.
#
# Every match: the built engine against itself, one thread and the default hash each, TC
# (10+0.1: the levels below 20 are bounded by nodes, not the clock), no adjudication, GAMES
# games (100, in runs of 50) from the held-out book (books/unbalanced-held.epd), each setup with both
# colours. Ledgers carry the build's bench in their names. Settings, as environment variables:
#   LEVELS ("0 4 8 12 16 20": the levels the web page offers)  TC (10+0.1)  GAMES (100)
#   CONCURRENCY (2)  ROWS (unset; 1: print the ladder, play nothing)
#   OUT (data/levels: the runs' PGNs and logs)
set -euo pipefail
# One block, read whole before it runs: an edit saved meanwhile cannot change a running job.
{
cd "$(dirname "$0")/.."

S=target/release/sitke
LEVELS=${LEVELS:-0 4 8 12 16 20}
TC=${TC:-10+0.1}
GAMES=${GAMES:-100}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-data/levels}
BOOK=books/unbalanced-held.epd

die() { echo "levels.sh: $*" >&2; exit 1; }
read -r -a levels <<< "$LEVELS"
[ "${#levels[@]}" -ge 2 ] || die "LEVELS needs at least two levels"
prev=-1
for l in "${levels[@]}"; do
  [[ $l =~ ^[0-9]+$ ]] && [ "$l" -le 20 ] && [ "$l" -gt "$prev" ] || die "LEVELS must rise within 0..20: $LEVELS"
  prev=$l
done

cargo build --release
bench=$("$S" bench | sed -n 's/^Nodes searched *: *//p')
[ -n "$bench" ] || die "cannot read the bench signature"
ledger() { echo "docs/ledgers/levels-$bench-L$2-vs-L$1-$TC.txt"; }

if [ "${ROWS:-}" = 1 ]; then
  echo "| level | against the level below: games, W-L-D, Elo +/- 95% | above level ${levels[0]} |"
  echo "|---|---|---|"
  echo "| ${levels[0]} | | 0 |"
  total=0
  for ((i = 1; i < ${#levels[@]}; i++)); do
    lo=${levels[i - 1]} hi=${levels[i]} file=$(ledger "$lo" "$hi")
    [ -f "$file" ] || { echo "| $hi | no ledger $file yet | |"; continue; }
    # The Elo over game pairs with half its 95% interval (scripts/ledger_elo.awk).
    read -r elo games w l d e < <(awk -f scripts/ledger_elo.awk "$file")
    line="$games games, $w-$l-$d, $e"
    total=$(awk -v a="$total" -v b="$elo" 'BEGIN { printf "%.0f", a + b }')
    echo "| $hi | $line | $total |"
  done
  exit 0
fi

mkdir -p "$OUT"
cp "$S" "$OUT/sitke-$bench"
S=$OUT/sitke-$bench
for ((i = 1; i < ${#levels[@]}; i++)); do
  lo=${levels[i - 1]} hi=${levels[i]}
  PAIRS=25 GAMES=$GAMES OUT=$OUT S=$S LEDGER=$(ledger "$lo" "$hi") SEED=$((4200 + hi)) \
    bash scripts/chunked_match.sh -engine cmd="$S" name="L$hi" "option.Skill Level=$hi" \
    -engine cmd="$S" name="L$lo" "option.Skill Level=$lo" -each tc="$TC" -games 2 -repeat \
    -concurrency "$CONCURRENCY" -openings file=$BOOK format=epd order=random
done
exit
}
