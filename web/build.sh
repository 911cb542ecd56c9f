#!/usr/bin/env bash
# Builds Sitke's JS package in web/: the engine library for wasm32-unknown-unknown (without
# the tools, which need files and threads) as web/sitke.wasm, shrunk by binaryen's wasm-opt
# where it is installed. sitke.js and sitke.worker.js are sources and need no build.
#   SITKE_SIMD=0 web/build.sh   builds without wasm SIMD (simd128), for browsers before it
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-C link-arg=-zstack-size=16777216)
# The search recurses up to MAX_PLY plies with sizeable frames: natively its thread gets
# 16 MiB of stack (protocol/engine.rs), here the linker's 1 MiB default would overflow.
if [ "${SITKE_SIMD:-1}" = 1 ]; then
  flags+=(-C target-feature=+simd128)
fi
cargo rustc --lib --target wasm32-unknown-unknown --profile wasm --no-default-features \
  --crate-type cdylib -- "${flags[@]}"
out=target/wasm32-unknown-unknown/wasm/sitke.wasm
if command -v wasm-opt >/dev/null; then
  simd=()
  [ "${SITKE_SIMD:-1}" = 1 ] && simd=(--enable-simd)
  wasm-opt -O3 "${simd[@]}" --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
    --enable-mutable-globals "$out" -o web/sitke.wasm
else
  echo "web/build.sh: wasm-opt not found (Debian: binaryen); copying the file as built" >&2
  cp "$out" web/sitke.wasm
fi
ls -l web/sitke.wasm >&2
