#!/usr/bin/env bash
# The phone benchmark: how long a visitor waits for the first search on a slow
# network, our engine and Pagefind on the same built site, in headless chromium
# throttled to Lighthouse's mobile figures (150 ms, 1.6 Mbps) and to broadband
# (40 ms, 10 Mbps) (tests/relevance/bench-phone.mjs). Per size and profile: the ms
# until ten titles are there (ours also until their excerpts are), the requests,
# sequential round trips and KB (gzip) it took, p50 / p95 over 40 queries of the
# blind set, each on a fresh browser context with an empty cache, and how many of
# them an engine found nothing for (an empty answer is quick: Pagefind's p50 is
# mostly one). Figures, not a test; not part of test.sh. About 6 minutes per size,
# and 2 more to build a corpus of 9,000 records and its Pagefind index.
#
# `shipped` is the corpus in data/ as it is; a number, a synthetic corpus of that
# many records made from it (crates/build/examples/synth_corpus.rs).
#
#   bash scripts/bench-phone.sh [sizes…]        # default: shipped 9000
#
# IL_BENCH_BIN (a folder holding incident-library and synth_corpus) and
# IL_BENCH_PKG (a built pkg/) use those instead of building them, e.g. copies that
# stay put while target/ and pkg/ are rebuilt. The sites and each run's JSON go to
# BENCH_PHONE_DIR (default target/bench-phone). BENCH_PHONE_HTTP2=1 serves the site
# over HTTP/2 and TLS instead of HTTP/1.1, as most static hosts serve one: a
# browser then sends every request of a round at once, where over HTTP/1.1 it
# opens six connections and a round of ten files takes two round trips.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(shipped 9000)
export IL_PROFILE=${IL_PROFILE:-fast}
bash scripts/setup.sh >/dev/null
if [ -n "${IL_BENCH_PKG:-}" ]; then
  pkg=$IL_BENCH_PKG
else
  bash scripts/build-wasm.sh >/dev/null
  pkg=pkg
fi
if [ -n "${IL_BENCH_BIN:-}" ]; then
  bin=$IL_BENCH_BIN/incident-library
  synth=$IL_BENCH_BIN/synth_corpus
else
  cargo build --quiet --profile fast --locked -p incident-library
  cargo build --quiet --profile fast --locked -p incident-build --example synth_corpus
  bin=target/fast/incident-library
  synth=target/fast/examples/synth_corpus
fi
work=${BENCH_PHONE_DIR:-target/bench-phone}
mkdir -p "$work"
rows=()
for n in "${sizes[@]}"; do
  dir="$work/$n"
  if [ "$n" = shipped ]; then
    data=data
  else
    data="$dir/data"
    "$synth" data "$data" "$n" >/dev/null
  fi
  records=$(find "$data/incidents" -name '*.md' | wc -l)
  rm -rf "$dir/dist" "$dir/site"
  "$bin" build --data "$data" --out "$dir/dist" --pkg "$pkg" >/dev/null
  # Pagefind indexes a copy, so that the bundle stays as our build wrote it.
  cp -r "$dir/dist" "$dir/site"
  node_modules/.bin/pagefind --site "$dir/site" --silent
  for profile in mobile broadband; do
    protocol=()
    suffix=
    if [ "${BENCH_PHONE_HTTP2:-}" = 1 ]; then
      protocol=(--http2)
      suffix=-http2
    fi
    json=$(BENCH_PHONE_CHAINS="$dir/$profile$suffix-chains.json" node tests/relevance/bench-phone.mjs "$dir/site" tests/relevance/blind.toml 40 --profile "$profile" "${protocol[@]}")
    # Kept, with one query's request chain per engine (every query's in -chains.json).
    printf '%s\n' "$json" >"$dir/$profile$suffix.json"
    echo "$n ($records records), $profile$suffix: $dir/$profile$suffix.json" >&2
    rows+=("$records $json")
  done
done
printf '\n| records | profile | engine | p50 / p95 ms | with excerpts p50 / p95 | requests p50 | sequential rounds p50 | KB p50 | queries with no result | p50 ms, queries with a result | ours / Pagefind p50 (titles, with excerpts) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
for row in "${rows[@]}"; do
  read -r records json <<<"$row"
  node -e '
    const [records, json] = process.argv.slice(1);
    const r = JSON.parse(json);
    const o = r.ours, p = r.pagefind;
    const ms = (s) => `${s.p50.toFixed(0)} / ${s.p95.toFixed(0)}`;
    const found = (e) => (e.ms_found ? e.ms_found.p50.toFixed(0) : "–");
    const head = `| ${Number(records).toLocaleString("en")} | ${r.profile}, ${r.protocol}`;
    // Ours: the first search, then "+" what its excerpts add. Pagefind reads the
    // excerpts with the titles, so its two times are one.
    console.log(`${head} | ours | ${ms(o.ms)} | ${ms(o.ms_excerpts)} | ${o.requests.p50} + ${o.requests_excerpts.p50} | ${o.rounds.p50} + ${o.rounds_excerpts.p50} | ${o.kb.p50.toFixed(0)} + ${o.kb_excerpts.p50.toFixed(0)} | ${o.empty} of ${r.queries} | ${found(o)} | ${(o.ms.p50 / p.ms.p50).toFixed(2)}, ${(o.ms_excerpts.p50 / p.ms.p50).toFixed(2)} |`);
    console.log(`${head} | Pagefind | ${ms(p.ms)} | ${ms(p.ms)} | ${p.requests.p50} | ${p.rounds.p50} | ${p.kb.p50.toFixed(0)} | ${p.empty} of ${r.queries} | ${found(p)} | |`);
  ' "$records" "$json"
done
