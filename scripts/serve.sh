#!/usr/bin/env bash
# Sets up a fresh machine, builds the browser module and the bundle from data/, and
# serves it on http://127.0.0.1:8080/ (rebuilding when data/ changes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-wasm.sh >/dev/null
cargo run --release --locked -- serve "$@"
