#!/usr/bin/env bash
# Builds the browser module into pkg/: the shared core with the `js` feature
# (no lindera), wasm-bindgen's ES module glue and TypeScript types, then wasm-opt.
set -euo pipefail
cd "$(dirname "$0")/.."

# Size matters more than speed here: the module is downloaded by every visitor.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=z
cargo build --release --locked -p incident-wasm --target wasm32-unknown-unknown
mkdir -p pkg
wasm-bindgen --target web --out-dir pkg --out-name incident_library \
  target/wasm32-unknown-unknown/release/incident_wasm.wasm
if [ -x node_modules/.bin/wasm-opt ]; then
  # -Oz alone: 140 B smaller under gzip than -O2 then -Oz, with this compiler.
  # --low-memory-unused lets wasm-opt fold constant offsets into loads and stores
  # (0.8 KB under gzip): rustc puts the 1 MB stack first in memory, growing down,
  # so its lowest kilobyte is reached only by a stack already about to overflow.
  # The target features section is for linkers; browsers read the module without it.
  # The features rustc enables for wasm32-unknown-unknown, and no others (wasm-opt's
  # --all-features would emit encodings browsers do not read yet).
  node_modules/.bin/wasm-opt -Oz --converge --low-memory-unused --strip-debug --strip-producers --strip-target-features \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    pkg/incident_library_bg.wasm -o pkg/incident_library_bg.wasm.opt
  mv pkg/incident_library_bg.wasm.opt pkg/incident_library_bg.wasm
else
  echo "build-wasm: node_modules/.bin/wasm-opt missing (npm ci); the module is larger" >&2
fi
# An npm-style package: package.json (version from Cargo.toml) and README.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)  # [workspace.package]
sed "s/\"version\": \"[^\"]*\"/\"version\": \"$version\"/" www/pkg/package.json > pkg/package.json
cp www/pkg/README.md www/pkg/library.d.ts www/pkg/node.js pkg/
# The loader with the glue inside: one request fewer before the wasm and meta.bin,
# and nothing but the loader before the blocks of a query's words (library.js,
# `open` with a query). node.js stays apart: a browser never loads it. The glue
# stays in pkg/ too, as the package's lower-level `incident-library/core`.
if [ ! -x node_modules/.bin/esbuild ]; then
  echo "build-wasm: node_modules/.bin/esbuild missing: run npm ci (scripts/setup.sh does)" >&2
  exit 1
fi
cp www/pkg/library.js pkg/library.js
node_modules/.bin/esbuild pkg/library.js --bundle --format=esm --external:./node.js \
  --outfile=pkg/library.js --allow-overwrite --log-level=warning
# Every visitor downloads the scripts: minified, about a third smaller under gzip.
node scripts/minify.mjs
ls -l pkg/
