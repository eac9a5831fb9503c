#!/usr/bin/env bash
# Installs everything the build and the tests need on a fresh machine that reaches
# only the package registries. Every step is skipped when its result is already
# there, so running it again costs a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

# The CLI must be the version of the wasm-bindgen crate the module links
# (crates/wasm/Cargo.toml pins it): read from the lock file, so it is written once.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WASM_BINDGEN_VERSION" ] || { echo "Cargo.lock names no wasm-bindgen version" >&2; exit 1; }

step() { printf '\n== %s\n' "$*"; }

# The compiler is pinned in rust-toolchain.toml, and rustup reads that file before
# any cargo command here. Where rustup can download, it installs the pin itself.
# This project's machines reach only the package registries, and carry one
# toolchain, installed as "stable": when that toolchain is the pinned release, it
# is named as the pin too (rustup refuses `toolchain link` for a release name, so a
# link in its toolchains folder). Any other compiler is refused by name.
PINNED=$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)
step "rust $PINNED (rust-toolchain.toml)"
if RUSTUP_TOOLCHAIN=$PINNED rustc --version 2>/dev/null | grep -q "^rustc $PINNED "; then
  echo "present"
elif RUSTUP_TOOLCHAIN=stable rustc --version 2>/dev/null | grep -q "^rustc $PINNED "; then
  host=$(RUSTUP_TOOLCHAIN=stable rustc -vV | sed -n 's/^host: //p')
  ln -sfn "$(RUSTUP_TOOLCHAIN=stable rustc --print sysroot)" "$(rustup show home)/toolchains/$PINNED-$host"
  echo "the installed stable toolchain is $PINNED: named as the pin"
elif ! rustup toolchain install "$PINNED" --profile minimal --component rustfmt,clippy --target wasm32-unknown-unknown; then
  echo "rust-toolchain.toml pins rust $PINNED; this machine has $(RUSTUP_TOOLCHAIN=stable rustc --version 2>/dev/null || echo 'no rustc') and cannot download the pin. Install rust $PINNED, or change the pin and run the whole test suite with it." >&2
  exit 1
fi

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

# The validators of tests/e2e/feeds.test.mjs: jing checks the Atom feeds against
# RFC 4287's RELAX NG Compact schema (it brings a Java runtime when there is none),
# xmllint the sitemaps against the sitemaps.org XSDs and the feeds against the
# RFC's Schematron rules.
step "jing and xmllint (Debian)"
if command -v jing >/dev/null && command -v xmllint >/dev/null; then
  echo "present"
else
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq jing libxml2-utils >/dev/null
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

# Material for MkDocs, for tests/e2e/frameworks.test.mjs (a real MkDocs site that
# embeds the widget). It lives in a venv outside the repository, in the same cache
# folder as the ko-dic dictionary: ${XDG_CACHE_HOME:-$HOME/.cache}/incident-library/mkdocs,
# or $IL_MKDOCS; the test looks there by the same rule.
MKDOCS_VERSION=1.6.1
MKDOCS_MATERIAL_VERSION=9.7.6
mkdocs_venv=${IL_MKDOCS:-${XDG_CACHE_HOME:-$HOME/.cache}/incident-library/mkdocs}
step "Material for MkDocs $MKDOCS_MATERIAL_VERSION (mkdocs $MKDOCS_VERSION) in $mkdocs_venv"
if "$mkdocs_venv/bin/python" - "$MKDOCS_VERSION" "$MKDOCS_MATERIAL_VERSION" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(not (version("mkdocs") == sys.argv[1] and version("mkdocs-material") == sys.argv[2]))
PY
then
  echo "present"
else
  rm -rf "$mkdocs_venv"
  python3 -m venv "$mkdocs_venv"
  "$mkdocs_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "mkdocs==$MKDOCS_VERSION" "mkdocs-material==$MKDOCS_MATERIAL_VERSION"
fi
