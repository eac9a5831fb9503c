#!/usr/bin/env bash
# Regenerates the fonts the link-preview images are drawn with
# (crates/build/src/preview.rs), so that every machine draws the same image without
# reading its own fonts:
#   assets/fonts/NotoSansCJKkr-Bold-subset.otf  Noto Sans CJK KR Bold (SIL OFL 1.1),
#       cut down to what titles, organisation names and labels use;
#   assets/fonts/DejaVuSans-Bold-subset.ttf  DejaVu Sans Bold (Bitstream Vera
#       licence), only the characters of the same ranges that Noto Sans CJK lacks
#       (Ś, ş, ő, …), drawn in its place.
#
#   bash scripts/subset-font.sh [NotoSansCJK-Bold.ttc] [DejaVuSans-Bold.ttf]
#
# Needs fonttools (`pip install fonttools==4.69.1`) and the fonts (Debian:
# fonts-noto-cjk 1:20220127, fonts-dejavu-core 2.37). Not part of setup: the
# subsets are committed.
set -euo pipefail
cd "$(dirname "$0")/.."

cjk=${1:-/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc}
latin=${2:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}
out=assets/fonts/NotoSansCJKkr-Bold-subset.otf
fallback=assets/fonts/DejaVuSans-Bold-subset.ttf
command -v pyftsubset >/dev/null || { echo "subset-font: pyftsubset missing (pip install fonttools)" >&2; exit 1; }
for f in "$cjk" "$latin"; do
  [ -f "$f" ] || { echo "subset-font: $f missing (apt-get install fonts-noto-cjk fonts-dejavu-core, or pass the files)" >&2; exit 1; }
done

# What titles and names may hold: Basic Latin, Latin-1, Latin Extended-A and -B,
# Greek, Cyrillic, Latin Extended Additional, general punctuation (– — ‘ ’ “ ” … ·),
# currency, letterlike symbols (™), arrows, mathematical operators, enclosed
# numbers (①), geometric shapes, CJK symbols and punctuation (「」〈〉、。〜), Hangul
# compatibility jamo (ㄱ, ㅋ), every Hangul syllable, full-width forms.
unicodes="U+0020-007E,U+00A0-024F,U+0370-03FF,U+0400-045F,U+1E00-1EFF,U+2010-205E,U+20A0-20BF,U+2100-214F,U+2190-21FF,U+2200-22FF,U+2460-24FF,U+25A0-25FF,U+3000-303F,U+3131-318E,U+AC00-D7A3,U+FF01-FF5E"

# No layout features: the preview lays out text by the glyphs' advances alone
# (preview.rs measures lines from hmtx), so shaping must not move anything; no
# hinting and no vertical metrics, which a rasteriser at these sizes does not use.
# The name tables are kept whole: they carry the copyright and licence notices.
options=(--layout-features='' --no-hinting --drop-tables+=BASE,GDEF,GPOS,GSUB,VORG,vhea,vmtx,kern,FFTM
  --name-IDs='*' --name-languages='*' --notdef-outline)

# Face 1 of the collection is Noto Sans CJK KR (its cmap maps to the Korean forms).
pyftsubset "$cjk" --font-number=1 --unicodes="$unicodes" "${options[@]}" --output-file="$out"

# The fallback: the characters of those ranges, outside Hangul and CJK, that the
# first font lacks and DejaVu has.
missing=$(python3 - "$out" "$latin" "$unicodes" <<'PY'
import sys
from fontTools.ttLib import TTFont
have = set(TTFont(sys.argv[1]).getBestCmap())
other = set(TTFont(sys.argv[2]).getBestCmap())
wanted = set()
for part in sys.argv[3].split(","):
    lo, _, hi = part[2:].partition("-")
    wanted.update(range(int(lo, 16), int(hi or lo, 16) + 1))
print(",".join(f"U+{c:04X}" for c in sorted((wanted - have) & other) if c < 0x3000))
PY
)
pyftsubset "$latin" --unicodes="$missing" "${options[@]}" --output-file="$fallback"
ls -l "$out" "$fallback"
