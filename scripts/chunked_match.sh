#!/usr/bin/env bash
# A long match (or SPRT) played in runs of a few dozen games, each run a line in a ledger
# kept in git, so that the match outlasts any one session and any one machine
# (docs/match.md, "A match longer than a session"). Run k plays with -srand SEED * 10000 + k;
# a run the ledger holds already plays nothing, and one cut off goes on from its PGN in
# data/ if that survived (-resume), else starts again. Rerun the same command to go on.
#
# Usage: LEDGER=docs/ledgers/NAME.txt SEED=N bash scripts/chunked_match.sh MATCH ARGS...
#   MATCH ARGS: sitke match's arguments without -srand, -rounds, -pgnout, -resume and
#   -ledger, which this script sets. Needs -games 2 -repeat (runs of whole game pairs).
#   Paths (cmd=, LEDGER, S, OUT) are taken from the repository's root, where it runs.
# Settings, as environment variables:
#   LEDGER (required)  SEED (required: the runs' seeds are SEED * 10000 + k, k = 0, 1, ...)
#   PAIRS (20: game pairs a run)  GAMES (400: stop once the ledger holds this many; an SPRT
#   stops the runs when it decides)  S (target/release/sitke: the binary that referees)
#   OUT (data/chunks: the runs' PGNs and logs)
set -euo pipefail
# One block, read whole before it runs: an edit saved meanwhile cannot change a running job.
{
cd "$(dirname "$0")/.."

die() { echo "chunked_match.sh: $*" >&2; exit 1; }
[ -n "${LEDGER:-}" ] || die "set LEDGER, the ledger file (in git, for example docs/ledgers/NAME.txt)"
[[ ${SEED:-} =~ ^[0-9]+$ ]] || die "set SEED, a number: run k plays with -srand SEED * 10000 + k"
PAIRS=${PAIRS:-20}
GAMES=${GAMES:-400}
S=${S:-target/release/sitke}
OUT=${OUT:-data/chunks}
[ $# -gt 0 ] || die "give sitke match's arguments (engines, clock, openings, adjudication)"
for a in "$@"; do
  case $a in -srand|-rounds|-pgnout|-resume|-ledger) die "$a is set by the script; leave it out" ;; esac
done
[ -x "$S" ] || die "no binary $S (cargo build --release)"
[[ " $* " == *" -repeat "* && " $* " == *" -games 2 "* ]] || die "runs are whole game pairs: give -games 2 -repeat"

# Games the ledger holds: the sum of its runs' wins, draws and losses.
ledger_games() {
  [ -f "$LEDGER" ] || { echo 0; return; }
  awk '!/^#/ { for (i = 1; i <= NF; i++) if ($i ~ /^(wins|draws|losses)=/) { split($i, kv, "="); n += kv[2] } }
       END { print n + 0 }' "$LEDGER" || die "cannot read $LEDGER"
}

mkdir -p "$OUT" "$(dirname "$LEDGER")"
name=$(basename "$LEDGER" .txt)
k=0
while true; do
  games=$(ledger_games)  # under set -e an unreadable ledger stops the script here
  [ "$games" -lt "$GAMES" ] || break
  seed=$((SEED * 10000 + k))
  log="$OUT/$name-$seed.log"
  # A rerun appends to the log, so only the lines after `before` are this run's.
  before=$( [ -f "$log" ] && wc -l < "$log" || echo 0 )
  "$S" match "$@" -rounds "$PAIRS" -srand "$seed" -pgnout "$OUT/$name-$seed.pgn" -resume \
    -ledger "$LEDGER" | tee -a "$log"
  # The SPRT line of a run that decided (or of one that found the test decided already).
  if tail -n "+$((before + 1))" "$log" | grep -q '^SPRT: .* was accepted'; then
    echo "chunked_match.sh: the SPRT decided; the ledger $LEDGER has the whole test" >&2
    exit 0
  fi
  k=$((k + 1))
done
echo "chunked_match.sh: $LEDGER holds $(ledger_games) games (GAMES=$GAMES)" >&2
exit
}
