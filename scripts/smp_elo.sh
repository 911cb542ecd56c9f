#!/usr/bin/env bash
# What a second thread is worth, against what a doubled clock is worth (issue 32,
# docs/performance.md "Threads"): two matches of the built engine against itself, one game at
# a time so that a two-thread engine has both cores while its opponent waits.
#
#   1. 2 threads against 1, both at TC;
#   2. the ceiling: 1 thread at twice TC against 1 thread at TC.
#
# Efficiency is the first Elo over the second. Each match is played in runs of 40 games by
# scripts/chunked_match.sh, each run a line in a ledger in git (docs/ledgers/), so a match
# goes on across sessions: rerun the same command, and it stops at GAMES games a match.
# Settings, as environment variables:
#   TC (10+0.1)  GAMES (400)  HASH (16, the default: both engines, every match)
#   SRAND (3201: the 2v1 match; SRAND + 1: the time doubling; run k of a match plays with
#   -srand SRAND * 10000 + k)  OUT (data/smp: the runs' PGNs)
#   ONLY (both, or "threads" or "time": one match alone)
#   OPENINGS (file=books/unbalanced.epd format=epd order=random: the unbalanced book,
#   docs/testing.md; "random plies=8" for the setups of the ledgers before it, whose names
#   then carry no "-book")
# Adjudication as the README's: draw at move 40 after 8 moves within 0.10, resign after 4
# moves beyond 10.00.
set -euo pipefail
# The whole script is one block, read before any of it runs: bash otherwise reads a script
# as it goes, and this one runs for hours, so an edit saved in place meanwhile would run
# from the old offsets (it once cut a gate's last step short).
{
cd "$(dirname "$0")/.."

S=target/release/sitke
TC=${TC:-10+0.1}
GAMES=${GAMES:-400}
HASH=${HASH:-16}
SRAND=${SRAND:-3201}
OUT=${OUT:-data/smp}
ONLY=${ONLY:-both}
OPENINGS=${OPENINGS:-file=books/unbalanced.epd format=epd order=random}
book=
[[ $OPENINGS == file=books/unbalanced.epd* ]] && book=-book

die() { echo "smp_elo.sh: $*" >&2; exit 1; }
[[ $TC =~ ^([0-9.]+)\+([0-9.]+)$ ]] || die "TC must be SECONDS+INCREMENT, not $TC"
[ $((GAMES % 2)) = 0 ] || die "GAMES must be even (each setup is played with both colours)"
TC2=$(awk -v b="${BASH_REMATCH[1]}" -v i="${BASH_REMATCH[2]}" 'BEGIN { print 2 * b "+" 2 * i }')

cargo build --release
bench=$("$S" bench | sed -n 's/^Nodes searched *: *//p')
echo "smp_elo.sh: build $bench, $GAMES games per match at $TC (and $TC2), Hash $HASH" >&2
# The matches play a copy, so that a build made meanwhile cannot change the engine mid-match.
mkdir -p "$OUT"
cp "$S" "$OUT/sitke-$bench"
S=$OUT/sitke-$bench

# Both engines are this build, so the bench names the ledger (a later build starts its own).
# shellcheck disable=SC2206 # OPENINGS is words on purpose
common=(-games 2 -repeat -concurrency 1 -openings $OPENINGS
  -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000)
run() { GAMES=$GAMES OUT=$OUT S=$S bash scripts/chunked_match.sh "$@"; }

if [ "$ONLY" = both ] || [ "$ONLY" = threads ]; then
  LEDGER=docs/ledgers/smp-threads-$bench-$TC-hash$HASH$book.txt SEED=$SRAND run \
    -engine cmd="$S" name=T2 option.Threads=2 -engine cmd="$S" name=T1 option.Threads=1 \
    -each tc="$TC" option.Hash="$HASH" "${common[@]}"
fi
if [ "$ONLY" = both ] || [ "$ONLY" = time ]; then
  LEDGER=docs/ledgers/smp-time-$bench-$TC-hash$HASH$book.txt SEED=$((SRAND + 1)) run \
    -engine cmd="$S" name=T1x2 tc="$TC2" -engine cmd="$S" name=T1 tc="$TC" \
    -each option.Threads=1 option.Hash="$HASH" "${common[@]}"
fi
exit
}
