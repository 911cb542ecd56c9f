#!/usr/bin/env bash
# Runs every test, the oracle tests included. On a fresh machine it first installs what
# those compare against: Fairy-Stockfish (Debian's build and the pyffish library) and
# Sjaak II. A plain `cargo test` skips the oracle tests (they are #[ignore]d) to stay
# quick; here they run, and one whose oracle is missing fails and says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/games/fairy-stockfish ] || missing+=(fairy-stockfish)
[ -x /usr/games/sjaakii ] || missing+=(sjaakii)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
python3 -c 'import pyffish' 2>/dev/null || python3 -m pip install --quiet pyffish

cargo test --no-fail-fast -- --include-ignored --show-output
