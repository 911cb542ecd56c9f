#!/usr/bin/env bash
# The README's strength table: the built engine against each opponent, every match played in
# runs kept as lines of a ledger in git (scripts/chunked_match.sh), so that a table longer
# than a session goes on where it stopped. Rerun the same command to go on; `ONLY=NAME`
# plays one row; `ROWS=1` plays nothing and prints the table's rows from the ledgers.
#
#   fsf       current Fairy-Stockfish (classical evaluation: `Use NNUE` off), built by hand
#             outside the repository from its public source, given as FSF=PATH, and
#             FSF_NAME (fsf-COMMIT: the commit it was built from, which names its ledger)
#   fsf-long  the same at LONG_TC (60+0.6), LONG_GAMES games (100, in runs of 50)
#   fsf11     Debian's fairy-stockfish 11.1 (/usr/games/fairy-stockfish)
#   sjaakii   Debian's sjaakii 1.4.1 (/usr/games/sjaakii -uci)
#   classical the same binary with `Use NNUE` off
#
# Every match: one thread and the default hash each, TC (10+0.1), no adjudication (every game
# ends by the rules or the clock), GAMES games (400 against fsf, 200 against the others)
# from the held-out book (books/unbalanced-held.epd: no gate, SPRT or tuning ever played it),
# each setup with both colours. A ledger carries the build's bench in its name, so a new
# build starts its own table. Settings, as environment variables:
#   FSF FSF_NAME  TC (10+0.1)  LONG_TC (60+0.6)  LONG_GAMES (100)  CONCURRENCY (2)
#   ONLY (all; or one of the rows' names)  ROWS (unset; 1: print the rows, play nothing)
#   OUT (data/strength: the runs' PGNs and logs)
set -euo pipefail
# One block, read whole before it runs: an edit saved meanwhile cannot change a running job.
{
cd "$(dirname "$0")/.."

S=target/release/sitke
TC=${TC:-10+0.1}
LONG_TC=${LONG_TC:-60+0.6}
LONG_GAMES=${LONG_GAMES:-100}
CONCURRENCY=${CONCURRENCY:-2}
ONLY=${ONLY:-all}
OUT=${OUT:-data/strength}
BOOK=books/unbalanced-held.epd

die() { echo "strength.sh: $*" >&2; exit 1; }
[ -f "$BOOK" ] || die "no $BOOK"
case $ONLY in all | fsf | fsf-long | fsf11 | sjaakii | classical) ;; *) die "ONLY=$ONLY is not a row" ;; esac

cargo build --release
bench=$("$S" bench | sed -n 's/^Nodes searched *: *//p')
[ -n "$bench" ] || die "cannot read the bench signature"

# The ledger of a row: opponent, build, clock.
ledger() { echo "docs/ledgers/strength-$1-$bench-$2.txt"; }

# A row of the README's table from a ledger: the games, W-L-D, and the Elo over game pairs with
# half its 95% interval (scripts/ledger_elo.awk).
row() {
  local name=$1 opponent=$2 tc=$3 file games w l d e
  file=$(ledger "$name" "$tc")
  [ -f "$file" ] || { echo "strength.sh: no ledger $file yet" >&2; return; }
  read -r _ games w l d e < <(awk -f scripts/ledger_elo.awk "$file")
  echo "| $opponent | \`$bench\` | $games | $w-$l-$d | $e | $tc | \`sitke match\` | none | held-out book |"
}

if [ "${ROWS:-}" = 1 ]; then
  row fsf "Fairy-Stockfish ${FSF_NAME:-fsf} (current source, classical evaluation)" "$TC"
  row fsf-long "Fairy-Stockfish ${FSF_NAME:-fsf} (current source, classical evaluation)" "$LONG_TC"
  row fsf11 "fairy-stockfish 11.1 (Debian)" "$TC"
  row sjaakii "sjaakii 1.4.1 (Debian)" "$TC"
  row classical "Sitke's classical evaluation (\`Use NNUE\` off)" "$TC"
  exit 0
fi

# The matches play a copy, so that a build made meanwhile cannot change the engine mid-match.
mkdir -p "$OUT"
cp "$S" "$OUT/sitke-$bench"
S=$OUT/sitke-$bench
common=(-games 2 -repeat -concurrency "$CONCURRENCY" -openings file=$BOOK format=epd order=random)
run() { OUT=$OUT S=$S bash scripts/chunked_match.sh "$@"; }
want() { [ "$ONLY" = all ] || [ "$ONLY" = "$1" ]; }

if want fsf || want fsf-long; then
  [ -n "${FSF:-}" ] && [ -x "$FSF" ] || die "set FSF to a current Fairy-Stockfish binary (built by hand, outside the repository)"
  [ -n "${FSF_NAME:-}" ] || die "set FSF_NAME (fsf-COMMIT), the build FSF is, which names its ledgers"
fi
if want fsf; then
  GAMES=400 LEDGER=$(ledger fsf "$TC") SEED=4101 run -engine cmd="$S" name="sitke-$bench" \
    -engine cmd="$FSF" name="$FSF_NAME" "option.Use NNUE=false" -each tc="$TC" "${common[@]}"
fi
if want fsf-long; then
  PAIRS=25 GAMES=$LONG_GAMES LEDGER=$(ledger fsf-long "$LONG_TC") SEED=4102 run \
    -engine cmd="$S" name="sitke-$bench" -engine cmd="$FSF" name="$FSF_NAME" \
    "option.Use NNUE=false" -each tc="$LONG_TC" "${common[@]}"
fi
if want fsf11; then
  GAMES=200 LEDGER=$(ledger fsf11 "$TC") SEED=4103 run -engine cmd="$S" name="sitke-$bench" \
    -engine cmd=/usr/games/fairy-stockfish name=fsf-11.1 -each tc="$TC" "${common[@]}"
fi
if want sjaakii; then
  GAMES=200 LEDGER=$(ledger sjaakii "$TC") SEED=4104 run -engine cmd="$S" name="sitke-$bench" \
    -engine cmd=/usr/games/sjaakii arg=-uci name=sjaakii -each tc="$TC" "${common[@]}"
fi
if want classical; then
  GAMES=200 LEDGER=$(ledger classical "$TC") SEED=4105 run -engine cmd="$S" name="sitke-$bench" \
    -engine cmd="$S" name="sitke-$bench-classical" "option.Use NNUE=false" -each tc="$TC" \
    "${common[@]}"
fi
exit
}
