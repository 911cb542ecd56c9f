#!/usr/bin/env bash
# One generation of Sitke's net, start to finish (docs/nnue.md, "Making a generation"):
#
#   1. data: self-play with the net built in now (`sitke datagen`, resumable);
#   2. training: from that net's float weights, on the new data (`sitke train`);
#   3. the gate: an SPRT of the new net against the built-in one at 10+0.1 (`sitke match`);
#   4. on acceptance: the new net copied into nets/ and built in, and the new bench
#      signature written where the tests and the README expect it.
#
# Usage: scripts/generation.sh GEN          (GEN: the number of the generation to make)
#        scripts/generation.sh --build-in NET.nnue   (step 4 alone, for a net accepted by hand)
#
# Every step is resumable: rerun the same command after an interruption. Data, checkpoints,
# logs and PGNs go to data/ (outside git). Settings, as environment variables:
#   POSITIONS (2000000)  NODES (5000)  SEED ((GEN + 2) * 1000 + 1, as generations 0 and 1)
#   EPOCHS (6)  LR (0.0005)  BATCH (4096)  SCORE_WEIGHT (1: the search's score alone; below 1
#   blends in the game's result)  RULE_DRAW_WEIGHT (unset: SCORE_WEIGHT; the same weight
#   for positions of games the 50-move rule or the count drew)  RULE_DRAW_RAMP (unset; 1:
#   such a game's weight moves from SCORE_WEIGHT at its first position to RULE_DRAW_WEIGHT
#   at its last)  BUCKETS (the built-in net's output buckets; more splits a one-bucket
#   net's output into that many material buckets)  HIDDEN (the built-in net's
#   width; more widens it: the new units start silent)  WINDOW (4: train on the data of
#   this many generations, this one's and those before it still in data/)  THREADS (all cores)
#   TC (10+0.1)  ROUNDS (1000: at most 2000 games)  SRAND (GEN * 10 + 41)  CONCURRENCY (2)
#   OPENINGS (file=books/unbalanced.epd format=epd order=random: the unbalanced book, each
#   setup played with both colours, docs/testing.md; "random plies=8" for the setups the
#   gates of generations 0 to 10 used)
#   NET (unset; a candidate .nnue to gate instead of making one: steps 1 and 2 are skipped,
#   as when a session ends before the SPRT does and the candidate was kept in git)
set -euo pipefail
# The whole script is one block, read before any of it runs: bash otherwise reads a script
# as it goes, and this one runs for hours, so an edit saved in place meanwhile would run
# from the old offsets (it once cut a gate's last step short).
{
cd "$(dirname "$0")/.."

S=target/release/sitke
EMBEDDED=src/eval/nnue/embedded.rs

die() { echo "generation.sh: $*" >&2; exit 1; }
say() { echo "generation.sh: $*" >&2; }

# The name of the net built in now, read from the source that includes it.
built_in() { sed -n 's/^pub const NAME: &str = "\(sitke-[0-9a-f]*\)";$/\1/p' "$EMBEDDED"; }

bench_nodes() { "$S" bench | sed -n 's/^Nodes searched *: *//p'; }

# Step 4: copy NET (and its .float beside it) into nets/, build it in, and write the new
# bench signature into the bench test and the README.
build_in() {
  local net=$1 float=${1%.nnue}.float old new name old_bench new_bench
  [ -f "$net" ] || die "no net file $net"
  [ -f "$float" ] || die "no float weights $float beside $net (the next generation starts from them)"
  old=$(built_in)
  [ -n "$old" ] || die "cannot read the built-in net's name from $EMBEDDED"
  # The engine names a net by the hash of its bytes; ask it rather than trust the file name.
  name=$(printf 'setoption name EvalFile value %s\n' "$(realpath "$net")" | "$S" 2>/dev/null |
    sed -n 's/^info string NNUE net \(sitke-[0-9a-f]*\) loaded.*/\1/p')
  [ -n "$name" ] || die "$net is not a net the engine loads"
  [ "$name" != "$old" ] || die "$net is the built-in net $old already"
  old_bench=$(bench_nodes)
  # A candidate gated from nets/ (NET) may be there already, under this name.
  [ "$(realpath "$net")" = "$(realpath -m "nets/$name.nnue")" ] || cp "$net" "nets/$name.nnue"
  [ "$(realpath "$float")" = "$(realpath -m "nets/$name.float")" ] || cp "$float" "nets/$name.float"
  sed -i "s/$old/$name/g" "$EMBEDDED"
  cargo build --release
  new_bench=$(bench_nodes)
  sed -i "s/const EXPECTED_NODES: u64 = $old_bench;/const EXPECTED_NODES: u64 = $new_bench;/" tests/bench_signature.rs
  # Only where the README names the current build's signature: other mentions of the old
  # bench are figures measured with that build and stay its own.
  sed -i -e "s/(\`sitke bench\`: \`$old_bench\`/(\`sitke bench\`: \`$new_bench\`/" \
    -e "s/(today \`$old_bench\`)/(today \`$new_bench\`)/" README.md
  say "built in $name (was $old); bench $old_bench -> $new_bench"
  cat >&2 <<EOF
generation.sh: still to do by hand, then commit with 'Bench: $new_bench' as the last line:
  - docs/nnue.md: the generation's section (data, recipe, training time, SPRT result: the
    logs in data/ have them);
  - docs/strength.md: a row for build $new_bench in the builds table, marked current;
  - README.md: the net's generation where the text names it, and which build each strength
    figure was measured with;
  - bash scripts/test.sh (tests/docs_agree.rs checks the pages name bench $new_bench);
  - git rm nets/candidates/$name.* if the net was kept there while its SPRT ran.
EOF
}

if [ "${1:-}" = "--build-in" ]; then
  [ $# -eq 2 ] || die "usage: scripts/generation.sh --build-in NET.nnue"
  cargo build --release
  build_in "$2"
  exit 0
fi

[ $# -eq 1 ] && [[ $1 =~ ^[0-9]+$ ]] || die "usage: scripts/generation.sh GEN | --build-in NET.nnue"
GEN=$1
POSITIONS=${POSITIONS:-2000000}
NODES=${NODES:-5000}
SEED=${SEED:-$(((GEN + 2) * 1000 + 1))}
EPOCHS=${EPOCHS:-6}
LR=${LR:-0.0005}
BATCH=${BATCH:-4096}
SCORE_WEIGHT=${SCORE_WEIGHT:-1}
rule_draw=()
ramp_note=
[ -n "${RULE_DRAW_WEIGHT:-}" ] && rule_draw=(--rule-draw-weight "$RULE_DRAW_WEIGHT")
if [ "${RULE_DRAW_RAMP:-}" = 1 ]; then
  [ -n "${RULE_DRAW_WEIGHT:-}" ] || die "RULE_DRAW_RAMP=1 needs RULE_DRAW_WEIGHT"
  rule_draw+=(--rule-draw-ramp)
  ramp_note=", ramped through the game"
fi
WINDOW=${WINDOW:-4}
BUCKETS=${BUCKETS:-}
HIDDEN=${HIDDEN:-}
TC=${TC:-10+0.1}
ROUNDS=${ROUNDS:-1000}
SRAND=${SRAND:-$((GEN * 10 + 41))}
OPENINGS=${OPENINGS:-file=books/unbalanced.epd format=epd order=random}
CONCURRENCY=${CONCURRENCY:-2}
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")

mkdir -p data
cargo build --release
base=$(built_in)
[ -f "nets/$base.float" ] || die "nets/$base.float is missing: training starts from the built-in net's float weights"
# A generation keeps the built-in net's shape unless told: `sitke train --init` takes the
# starting net's hidden size and buckets where no flag names them.
shape=()
if [ -n "$BUCKETS" ]; then
  [[ $BUCKETS =~ ^[0-9]+$ ]] || die "BUCKETS=$BUCKETS is not a number"
  shape=(--buckets "$BUCKETS")
fi
if [ -n "$HIDDEN" ]; then
  [[ $HIDDEN =~ ^[0-9]+$ ]] || die "HIDDEN=$HIDDEN is not a number"
  shape+=(--hidden "$HIDDEN")
fi
say "generation $GEN from the built-in net $base"

data=data/gen$GEN.bin
dir=data/train-gen$GEN
log=data/train-gen$GEN.log

# 1. Data. datagen stops at once when the file already holds POSITIONS positions.
make_data() {
  say "1/4 data: $data, $POSITIONS positions at $NODES nodes a move, seed $SEED"
  "$S" datagen --out "$data" --positions "$POSITIONS" --nodes "$NODES" --seed "$SEED" "${threads[@]}"
}

# 2. Training, from the built-in net's float weights, on this generation's data and that of
# the WINDOW - 1 generations before it where data/ still holds them: fine-tuned on one
# generation alone the net overfits (its training loss falls while its validation loss
# does not); generation 6's candidate trained on two fitted fresh games 3% better, and
# generation 8's on four 3.4% better than its start, where two had stalled (docs/nnue.md).
# A finished run is not repeated.
train() {
  grep -q '^train: wrote ' "$log" 2>/dev/null && return 0
  [[ $WINDOW =~ ^[1-9][0-9]*$ ]] || die "WINDOW=$WINDOW is not a positive number"
  # Oldest first, as generation 6's run listed them (the order seeds the split and shuffle).
  local files=() g
  for ((g = GEN - WINDOW + 1; g < GEN; g++)); do
    [ "$g" -ge 0 ] || continue
    if [ -f "data/gen$g.bin" ]; then files+=("data/gen$g.bin"); else say "no data/gen$g.bin: not in the window"; fi
  done
  files+=("$data")
  # An interrupted run goes on from its checkpoint, which holds where it started from.
  local start=(--init "nets/$base.float")
  [ -f "$dir/checkpoint.ckpt" ] && start=(--resume "$dir/checkpoint.ckpt")
  say "2/4 training in $dir: $EPOCHS epochs, lr $LR, batch $BATCH, score weight $SCORE_WEIGHT (rule draws ${RULE_DRAW_WEIGHT:-the same}$ramp_note), buckets ${BUCKETS:-as the built-in net}, hidden ${HIDDEN:-as the built-in net}"
  say "2/4 data: ${files[*]}"
  "$S" train "${files[@]}" "${start[@]}" --epochs "$EPOCHS" --lr "$LR" --batch "$BATCH" \
    --score-weight "$SCORE_WEIGHT" "${rule_draw[@]}" "${shape[@]}" --dir "$dir" "${threads[@]}" 2>&1 | tee "$log"
}

if [ -n "${NET:-}" ]; then
  [ -f "$NET" ] || die "NET=$NET: no such net file"
  say "1-2/4 skipped: gating NET=$NET"
  net=$NET
else
  make_data
  train
  net=$(sed -n 's/^train: wrote \(.*\.nnue\) (sitke-[0-9a-f]*) and .*/\1/p' "$log" | tail -n 1)
  [ -f "$net" ] || die "training wrote no net (see $log)"
fi
say "candidate: $net"

# 3. The gate: the candidate against the built-in net, the same binary. An interrupted
# SPRT goes on from the games in its PGN (`-resume`), as an uninterrupted one would have;
# the files carry the candidate's name, so two candidates' games never mix.
cand=$(basename "$net" .nnue)
sprt=data/sprt-gen$GEN-$cand.log
pgn=data/sprt-gen$GEN-$cand.pgn
# A kept candidate may carry the games of its unfinished SPRT beside it (comments stripped,
# gzipped): the test goes on from them.
kept=${net%.nnue}.sprt-gen$GEN.pgn.gz
if [ ! -f "$pgn" ] && [ -f "$kept" ]; then
  gunzip -c "$kept" > "$pgn"
  say "going on from the $(grep -c '^\[Round ' "$pgn") games kept in $kept"
fi
if ! grep -q 'H[01] was accepted' "$sprt" 2>/dev/null; then
  say "3/4 SPRT [0, 10] at $TC, at most $((2 * ROUNDS)) games, openings $OPENINGS, -srand $SRAND"
  "$S" match -engine cmd="$S" name="gen$GEN" "option.EvalFile=$(realpath "$net")" \
    -engine cmd="$S" name="$base" -each tc="$TC" -games 2 -rounds "$ROUNDS" -repeat \
    -concurrency "$CONCURRENCY" -openings $OPENINGS -srand "$SRAND" \
    -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 \
    -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
    -pgnout "$pgn" -resume | tee -a "$sprt"
fi
if grep -q 'H1 was accepted' "$sprt"; then
  say "4/4 H1 accepted: building in $net"
  build_in "$net"
elif grep -q 'H0 was accepted' "$sprt"; then
  die "H0 accepted: $net is not stronger than $base; nothing built in (more data, or another recipe)"
else
  die "the SPRT did not decide in $((2 * ROUNDS)) games; nothing built in (see $sprt)"
fi
exit
}
