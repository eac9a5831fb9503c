#!/usr/bin/env bash
# The scale benchmark: synthetic corpora of 1,000, 3,000 and 9,000 records made from
# the shipped ones (crates/build/examples/synth_corpus.rs), each built, indexed by
# Pagefind too, and measured in headless chromium with both engines on the same site
# (tests/relevance/bench-scale.mjs): the first search's bytes (gzip), query time,
# the search page's HTML, and the build's wall time and peak memory. Prints a table
# with the ratio to Pagefind per size. Takes several minutes; not part of test.sh.
#
#   bash scripts/bench-scale.sh [sizes…]        # default: 1000 3000 9000
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 3000 9000)
export IL_PROFILE=${IL_PROFILE:-fast}
bash scripts/setup.sh >/dev/null
bash scripts/build-wasm.sh >/dev/null
cargo build --quiet --profile fast --locked -p incident-library
cargo build --quiet --profile fast --locked -p incident-build --example synth_corpus
bin=target/fast/incident-library
work=${BENCH_SCALE_DIR:-target/bench-scale}
mkdir -p "$work"
rows=()
for n in "${sizes[@]}"; do
  dir="$work/$n"
  target/fast/examples/synth_corpus data "$dir/data" "$n" >/dev/null
  rm -rf "$dir/dist"
  # The last run's bundle (500 MB at 9,000 records) is freed and its blocks
  # discarded before the clock starts, so that the build is timed, not the clean-up.
  sync
  /usr/bin/time -f "%e %M" -o "$dir/time" "$bin" build --data "$dir/data" --out "$dir/dist" --pkg pkg >/dev/null
  read -r wall rss_kb <"$dir/time"
  rm -rf "$dir/site" && cp -r "$dir/dist" "$dir/site"
  start=$(date +%s.%N)
  node_modules/.bin/pagefind --site "$dir/site" --silent
  pagefind_wall=$(echo "$(date +%s.%N) - $start" | bc)
  json=$(node tests/relevance/bench-scale.mjs "$dir/site" tests/relevance/blind.toml 80)
  echo "$n: $json build ${wall}s ${rss_kb}KB pagefind index ${pagefind_wall}s" >&2
  rows+=("$n $wall $rss_kb $pagefind_wall $json")
done
printf '\n| records | ours, first search KB p50 / p95 | then the ten excerpts KB p50 / p95 | Pagefind, first search KB p50 / p95 | ratio (p50) | search page HTML KB | ours p50 / p95 ms | Pagefind p50 / p95 ms | build s | build peak RSS MiB | Pagefind indexing s |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
for row in "${rows[@]}"; do
  read -r n wall rss_kb pf_wall json <<<"$row"
  node -e '
    const [n, wall, rss, pfWall, json] = process.argv.slice(1);
    const r = JSON.parse(json);
    const kb = (b) => (b / 1024).toFixed(0);
    const ms = (x) => x.toFixed(1);
    const o = r.ours, p = r.pagefind;
    console.log(`| ${Number(n).toLocaleString("en")} | ${kb(o.first_search.p50)} / ${kb(o.first_search.p95)} | ${kb(o.excerpts.p50)} / ${kb(o.excerpts.p95)} | ${kb(p.first_search.p50)} / ${kb(p.first_search.p95)} | ${(o.first_search.p50 / p.first_search.p50).toFixed(2)} | ${kb(r.search_page_html)} | ${ms(o.ms.p50)} / ${ms(o.ms.p95)} | ${ms(p.ms.p50)} / ${ms(p.ms.p95)} | ${Number(wall).toFixed(1)} | ${(rss / 1024).toFixed(0)} | ${Number(pfWall).toFixed(1)} |`);
  ' "$n" "$wall" "$rss_kb" "$pf_wall" "$json"
done
