#!/usr/bin/env bash
# Runs the whole test suite: set-up (skipped when done), the Rust tests, the
# wasm32 build of the shared core without lindera.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

printf '\n== wasm32 build of the core (no lindera)\n'
cargo build --release --lib --locked --target wasm32-unknown-unknown --no-default-features
if cargo tree --locked --target wasm32-unknown-unknown --no-default-features -e normal -i lindera >/dev/null 2>&1; then
  echo "lindera must not reach the wasm build" >&2
  exit 1
fi

printf '\n== cargo test\n'
cargo test --release --locked
