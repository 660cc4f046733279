"""Build render/assets/fonts/ from Noto Sans CJK SC: a subset covering English, French and common Chinese.

A dev-time tool, not a runtime dependency.  Run it once when the character set changes:

    apt-get install fonts-noto-cjk          # Debian: /usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc
    .venv/bin/pip install -e '.[fonts]'      # fonttools, pinned in pyproject.toml
    .venv/bin/python render/tools/subset_font.py [--src /usr/share/fonts/opentype/noto]

The subset keeps ASCII, Latin-1 and Latin Extended-A (French and most European names), general punctuation, the
suit symbols, arrows and a few shapes, CJK punctuation and full-width forms, and the 6,763 hanzi of GB2312 (the
common simplified characters).  The family is renamed "CardTable Sans" because the OFL asks modified versions not
to carry the original's name; the licence (render/assets/fonts/OFL.txt) travels with the files.
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "assets" / "fonts"
SC_INDEX = 2  # in NotoSansCJK-*.ttc: JP, KR, SC, TC, HK, then the Mono faces
WEIGHTS = {"Regular": "NotoSansCJK-Regular.ttc", "Bold": "NotoSansCJK-Bold.ttc"}


def gb2312_hanzi() -> list[int]:
    """Every character GB2312 encodes in its hanzi rows (0xB0..0xF7) and symbol rows (0xA1..0xA9)."""
    out = []
    for hi in list(range(0xA1, 0xAA)) + list(range(0xB0, 0xF8)):
        for lo in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                out.append(ord(bytes((hi, lo)).decode("gb2312")))
    return out


def codepoints() -> list[int]:
    ranges = [
        (0x20, 0x7E),  # ASCII
        (0xA0, 0xFF),  # Latin-1
        (0x100, 0x17F),  # Latin Extended-A
        (0x2000, 0x206F),  # general punctuation
        (0x20A0, 0x20BF),  # currency
        (0x2190, 0x21FF),  # arrows
        (0x2212, 0x2212),  # minus sign
        (0x2460, 0x24FF),  # enclosed numbers
        (0x25A0, 0x25FF),  # geometric shapes
        (0x2600, 0x26FF),  # misc symbols: the suits ♠♥♦♣♤♡♢♧ and stars
        (0x3000, 0x303F),  # CJK punctuation
        (0xFF00, 0xFFEF),  # full-width forms
    ]
    cps = {c for lo, hi in ranges for c in range(lo, hi + 1)}
    cps.update(gb2312_hanzi())
    cps.update(ord(c) for c in "×÷±–—‘’“”…•·")
    return sorted(cps)


def rename(font, weight: str) -> None:
    family = "CardTable Sans"
    names = {1: family, 3: f"{family} {weight}; derived from Noto Sans CJK SC", 4: f"{family} {weight}",
             6: f"CardTableSans-{weight}", 16: family, 17: weight}  # fmt: skip
    table = font["name"]
    for rec in list(table.names):
        if rec.nameID in names:
            table.removeNames(nameID=rec.nameID)
    for name_id, text in names.items():
        table.setName(text, name_id, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [names[6]]
        top = cff.topDictIndex[0]
        top.FullName, top.FamilyName = names[4], family


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default="/usr/share/fonts/opentype/noto", help="folder holding NotoSansCJK-*.ttc")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    cps = codepoints()
    for weight, ttc in WEIGHTS.items():
        font = TTCollection(str(Path(args.src) / ttc)).fonts[SC_INDEX]
        options = subset.Options()
        options.layout_features = ["kern", "liga", "locl", "ccmp", "palt", "vert"]
        options.name_IDs = ["*"]
        options.hinting = False  # images are rendered large; hints only cost space
        options.desubroutinize = False
        sub = subset.Subsetter(options)
        sub.populate(unicodes=cps)
        sub.subset(font)
        rename(font, weight)
        dest = OUT / f"CardTableSans-{weight}.otf"
        font.save(str(dest))
        print(f"{dest.relative_to(HERE.parent.parent)}: {dest.stat().st_size / 1e6:.2f} MB, {len(cps)} code points")


if __name__ == "__main__":
    main()
