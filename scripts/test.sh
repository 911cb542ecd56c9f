#!/usr/bin/env bash
# Runs every test, the oracle tests included. On a fresh machine it first installs what
# those compare against: Fairy-Stockfish (Debian's build and the pyffish library) and
# Sjaak II. A plain `cargo test` skips the oracle tests (they are #[ignore]d) to stay
# quick; here they run, and one whose oracle is missing fails and says what to install.
#
# pyffish: used from the `python3` on PATH if it imports there; else installed with pip; and
# where pip refuses (a stock Debian Python is "externally managed"), into a virtual
# environment in .venv/ whose bin/ then goes first on PATH for the tests. Each step says
# what it did on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then
    $sudo apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

missing=()
[ -x /usr/games/fairy-stockfish ] || missing+=(fairy-stockfish)
[ -x /usr/games/sjaakii ] || missing+=(sjaakii)
# The WebAssembly package's tests (docs/web.md): node and npm drive it, Debian's chromium
# loads the page, binaryen's wasm-opt shrinks the engine.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v wasm-opt >/dev/null || missing+=(binaryen)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]} with apt-get" >&2
  apt_install "${missing[@]}"
fi

venv=.venv
[ -x "$venv/bin/python3" ] && export PATH="$PWD/$venv/bin:$PATH"
if python3 -c 'import pyffish' 2>/dev/null; then
  echo "test.sh: pyffish found by $(command -v python3)" >&2
elif python3 -m pip install --quiet pyffish 2>/tmp/sitke-pip.$$; then
  echo "test.sh: installed pyffish with $(command -v python3) -m pip" >&2
else
  if grep -qi 'externally.managed' /tmp/sitke-pip.$$; then
    echo "test.sh: pip refuses to install into this Python (externally managed);" \
      "installing pyffish into a virtual environment in $venv/" >&2
  else
    cat /tmp/sitke-pip.$$ >&2
    echo "test.sh: pip could not install pyffish; trying a virtual environment in $venv/" >&2
  fi
  if ! python3 -m venv "$venv" >/dev/null 2>&1; then
    # Debian splits venv (and its ensurepip) into a package of its own.
    rm -rf "$venv"
    ver=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    echo "test.sh: installing python$ver-venv with apt-get" >&2
    apt_install "python$ver-venv" || apt_install python3-venv
    python3 -m venv "$venv"
  fi
  "$venv/bin/python3" -m pip install --quiet pyffish
  export PATH="$PWD/$venv/bin:$PATH"
  echo "test.sh: pyffish installed in $venv/; the tests run $(command -v python3)" >&2
fi
rm -f /tmp/sitke-pip.$$

cargo test --no-fail-fast -- --include-ignored --show-output

# The engine as WebAssembly, driven as a node host and a person in a browser would.
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "test.sh: adding the wasm32-unknown-unknown target with rustup" >&2
  rustup target add wasm32-unknown-unknown
fi
(cd web && npm ci --no-audit --no-fund --loglevel=error)
bash web/build.sh
(cd web && node --test test/)
