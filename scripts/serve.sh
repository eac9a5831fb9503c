#!/usr/bin/env bash
# Sets up a fresh machine, builds the bundle from data/ and serves it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo run --release --locked -- serve "$@"
