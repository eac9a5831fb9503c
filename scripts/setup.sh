#!/usr/bin/env bash
# Installs everything the build and the tests need on a fresh machine that reaches
# only the package registries. Every step is skipped when its result is already
# there, so running it again costs a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen version pinned in Cargo.toml

step() { printf '\n== %s\n' "$*"; }

step "rust target wasm32-unknown-unknown"
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "present"
else
  rustup target add wasm32-unknown-unknown
fi

step "wasm-bindgen-cli $WASM_BINDGEN_VERSION"
if command -v wasm-bindgen >/dev/null && wasm-bindgen --version | grep -q " $WASM_BINDGEN_VERSION\$"; then
  echo "present"
else
  # --locked can fail while the registry mirror lags; the version pin is what matters.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

step "chromium and Korean fonts (Debian)"
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
  echo "present"
else
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
fi

step "npm packages"
if [ -f package.json ]; then
  if [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
    echo "present"
  else
    npm ci --no-audit --no-fund
  fi
fi

step "ko-dic dictionary"
bash scripts/setup-ko-dic.sh
