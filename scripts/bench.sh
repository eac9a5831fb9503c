#!/usr/bin/env bash
# Query latency on the shipped corpus: natively (every query of both sets, p50 and
# p95 per kind) and in headless chromium (the wasm module, as a visitor runs it).
# Figures, not a test: scripts/test.sh does not run it. For the scale benchmark
# against Pagefind, see scripts/bench-scale.sh.
#
#   bash scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export IL_PROFILE=${IL_PROFILE:-fast}
bash scripts/setup.sh >/dev/null
bash scripts/build-wasm.sh >/dev/null
cargo build --quiet --workspace --profile fast --locked --bins --examples
target/fast/incident-library build >/dev/null
target/fast/examples/bench_query dist tests/relevance/queries.toml tests/relevance/blind.toml
node tests/relevance/bench-browser.mjs dist tests/relevance/queries.toml tests/relevance/blind.toml
