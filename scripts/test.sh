#!/usr/bin/env bash
# Runs the whole test suite: set-up (each step skipped when done), formatting and
# lints, the Rust tests, the browser module, a build of the shipped corpus with its
# size report, the first-search budget, the relevance evaluations, and the
# end-to-end tests in chromium; then the time each step took. Benchmarks, which
# print figures and test nothing, are in scripts/bench.sh.
#
# Everything native here uses the `fast` profile (optimised, no LTO, parallel
# codegen): it compiles in a fraction of the release profile's time, and the tests
# and figures do not depend on LTO. The wasm module is built with the release
# profile, whose size the budget checks.
set -euo pipefail
cd "$(dirname "$0")/.."

export IL_PROFILE=fast
export IL_BIN="$PWD/target/fast/incident-library"
bin="$IL_BIN"

# Each step is timed; the figures and the total close the run.
started=$SECONDS
step_name=""
step_start=$SECONDS
timings=""
step() {
  if [ -n "$step_name" ]; then timings+=$(printf '  %-58s %4d s' "$step_name" $((SECONDS - step_start)))$'\n'; fi
  step_name="$1"
  step_start=$SECONDS
  printf '\n== %s\n' "$1"
}
finish() {
  step ""
  printf '\n== time per step\n%s  %-58s %4d s\n' "$timings" "total" $((SECONDS - started))
}

step "set-up"
bash scripts/setup.sh

step "formatting and lints (cargo fmt --check; clippy on every target, warnings are errors)"
cargo fmt --all --check
cargo clippy --workspace --all-targets --profile fast --locked -- -D warnings

step "cargo test"
# The index mutation test runs next on its own, so that its counts are printed.
cargo test --workspace --profile fast --locked -- --skip mutated_index_files_fail_cleanly

step "damaged index files (2,400 mutations; fails on any panic or any case over 2 s)"
cargo test --profile fast --locked --test fuzz_index -- --nocapture

step "browser module"
bash scripts/build-wasm.sh

step "the binaries and examples, as the tests built them"
# The whole workspace, as cargo test compiled it: the same features, so only the
# links are new, and the steps below run these files rather than `cargo run`,
# which would build the command line's package again with fewer features.
cargo build --workspace --profile fast --locked --bins --examples

step "npm package"
(cd pkg && npm pack --dry-run 2>&1 | tail -n 4)

step "build of the shipped corpus"
"$bin" build

step "first search: what a visitor downloads before the first answer"
# The wasm module and the search page's JS, meta.bin, then the vocabulary blocks,
# near-term buckets and first-page listings that the query itself
# needs, for every query of both sets. Fails when any is over the budget
# (first_search.rs, BUDGET).
target/fast/examples/first_search dist --summary --file tests/relevance/queries.toml tests/relevance/blind.toml

step "relevance evaluation: the query set written from the records"
# Pagefind indexes the same built site and answers both query sets in chromium.
node tests/relevance/pagefind.mjs dist tests/relevance/queries.toml,tests/relevance/blind.toml target/pagefind-rankings.json
"$bin" eval --external pagefind=target/pagefind-rankings.json \
  --min-recall 0.957 --min-mrr 0.918

step "relevance evaluation: the blind query set, written from the source reports"
# Fails below recall@10 0.95 or MRR 0.90, below the bigram BM25 reference on any
# kind, or when more than 10 % of the queries about things the library does not
# hold get a full match.
"$bin" eval --queries tests/relevance/blind.toml \
  --external pagefind=target/pagefind-rankings.json \
  --min-recall 0.95 --min-mrr 0.90 --min-absent 0.9 --beat-reference

step "relevance evaluation: both sets typed without spaces"
# Every query with its spaces removed, and the first two and three words of every
# query with and without them: fails below the recall@10 and MRR targets, or when
# more than 1 % of the prefixes that find something spaced find nothing unspaced.
"$bin" eval --queries tests/relevance/blind.toml --unspaced \
  --min-recall 0.90 --min-mrr 0.80 --max-unspaced-zero 0.01
"$bin" eval --queries tests/relevance/queries.toml --unspaced \
  --min-recall 0.90 --min-mrr 0.78 --max-unspaced-zero 0.01

step "end-to-end tests (chromium), the static API, the MCP client"
node --test tests/e2e/ tests/api/ tests/mcp/ tests/node/

finish
