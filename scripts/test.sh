#!/usr/bin/env bash
# Runs the whole test suite: set-up (each step skipped when done), formatting and
# lints, the Rust tests,
# the browser module, a build of the shipped corpus with its size report, the
# relevance evaluations, and the end-to-end tests in chromium.
#
# Everything native here uses the `fast` profile (optimised, no LTO, parallel
# codegen): it compiles in a fraction of the release profile's time, and the tests
# and figures do not depend on LTO. The wasm module is built with the release
# profile, whose size the budget checks.
set -euo pipefail
cd "$(dirname "$0")/.."

export IL_PROFILE=fast
export INCIDENT_LIBRARY_BIN="$PWD/target/fast/incident-library"
bash scripts/setup.sh

printf '\n== formatting and lints (cargo fmt --check; clippy on every target, warnings are errors)\n'
cargo fmt --all --check
cargo clippy --workspace --all-targets --profile fast --locked -- -D warnings

printf '\n== cargo test\n'
# The index mutation test runs next on its own, so that its counts are printed.
cargo test --workspace --profile fast --locked -- --skip mutated_index_files_fail_cleanly

printf '\n== damaged index files (2,400 mutations; fails on any panic or any case over 2 s)\n'
cargo test --profile fast --locked --test fuzz_index -- --nocapture

printf '\n== browser module\n'
bash scripts/build-wasm.sh

printf '\n== npm package\n'
(cd pkg && npm pack --dry-run 2>&1 | tail -n 4)

printf '\n== build of the shipped corpus\n'
cargo run --quiet --profile fast --locked -- build

printf '\n== first search: what a visitor downloads before the first answer\n'
# The wasm module and the search page's JS, meta.bin, then the vocabulary blocks,
# term parts, near-term buckets and first-page listings that the query itself
# needs, for every query of both sets. Fails when any is over 150 KB gzip.
cargo run --quiet --profile fast --locked -p incident-build --example first_search -- dist --summary --budget 150000 \
  --file tests/relevance/queries.toml tests/relevance/blind.toml

printf '\n== relevance evaluation: the query set written from the records\n'
# Pagefind indexes the same built site and answers both query sets in chromium.
node tests/relevance/pagefind.mjs dist tests/relevance/queries.toml,tests/relevance/blind.toml target/pagefind-rankings.json
cargo run --quiet --profile fast --locked -- eval --external pagefind=target/pagefind-rankings.json \
  --min-recall 0.957 --min-mrr 0.918

printf '\n== relevance evaluation: the blind query set, written from the source reports\n'
# Fails below recall@10 0.95 or MRR 0.90, below the bigram BM25 reference on any
# kind, or when more than 10 % of the queries about things the library does not
# hold get a full match.
cargo run --quiet --profile fast --locked -- eval --queries tests/relevance/blind.toml \
  --external pagefind=target/pagefind-rankings.json \
  --min-recall 0.95 --min-mrr 0.90 --min-absent 0.9 --beat-reference

printf '\n== relevance evaluation: both sets typed without spaces\n'
# Every query with its spaces removed, and the first two and three words of every
# query with and without them: fails below the recall@10 and MRR targets, or when
# more than 1 % of the prefixes that find something spaced find nothing unspaced.
cargo run --quiet --profile fast --locked -- eval --queries tests/relevance/blind.toml --unspaced \
  --min-recall 0.90 --min-mrr 0.80 --max-unspaced-zero 0.01
cargo run --quiet --profile fast --locked -- eval --queries tests/relevance/queries.toml --unspaced \
  --min-recall 0.90 --min-mrr 0.78 --max-unspaced-zero 0.01

printf '\n== query latency (figures, not a test)\n'
cargo run --quiet --profile fast --locked -p incident-build --example bench_query -- dist tests/relevance/queries.toml tests/relevance/blind.toml
node tests/relevance/bench-browser.mjs dist tests/relevance/queries.toml tests/relevance/blind.toml

printf '\n== end-to-end tests (chromium), the static API, the MCP client\n'
node --test tests/e2e/ tests/api/ tests/mcp/ tests/node/
