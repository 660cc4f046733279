"""PNG encoding tuned for speed and size.

Every picture goes out as a 256-colour palette PNG: the images are flat colours, anti-aliased edges and text, so 256
colours are indistinguishable from the original, and the file is about a third of an RGB one's size.

The table and the hands use one fixed palette built from the theme (``render.palette``): no palette to choose per
picture (that cost ~0.7 ms a table), and the table is composed in it from cached parts (``render.table_png``).  The
other pictures (sheets, leaderboards) are drawn less often and from more colours (charts), so they still get a
palette of their own, chosen from every third pixel of every third row (Pillow's octree over a ninth of the pixels)
and then every pixel mapped to it.

The file is written here rather than by Pillow: Pillow's PNG encoder spends ~1.3 ms on a table's rows whatever the
compression level (even stored), where the rows as one buffer deflated by ISA-L (the ``isal`` package) take ~0.2 ms
and make smaller files than zlib's fastest settings (a table: 35 KB; zlib at level 1: 1.9 ms and 44 KB with the
run-length strategy, 2.1 ms and 39 KB with the default one; levels 2-3: 2.3-2.9 ms for 35-36 KB).  Where ``isal``
is not installed, zlib's run-length strategy at level 1 does it.  Rows are not filtered ("None"): a palette image's
rows are runs of one colour, which the deflater finds unfiltered as well; "Up" cost the same and made files 10 %
larger with ISA-L.
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

from render.palette import fixed_palette_bytes

try:
    from isal import isal_zlib
except ImportError:  # pragma: no cover - the lock installs it; a platform without its wheel falls back to zlib
    isal_zlib = None  # type: ignore[assignment]

SAMPLE_STEP = 3  # an adaptive palette is chosen from one pixel in SAMPLE_STEP² (see above)
ISAL_LEVEL = 1  # ISA-L's levels 0-2 cost the same here; 1 gives the smallest files, 3 is seven times slower
ZLIB_LEVEL = 1  # zlib's run-length strategy: the level hardly matters


def palette_of(img: Image.Image) -> Image.Image:
    """``img`` (RGB) as a 256-colour palette image, the palette chosen from a sample of its pixels."""
    sample = img
    if img.width >= 2 * SAMPLE_STEP and img.height >= 2 * SAMPLE_STEP:
        size = (img.width // SAMPLE_STEP, img.height // SAMPLE_STEP)
        sample = img.resize(size, Image.Resampling.NEAREST)  # picks pixels, blends none: no colour is invented
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if sample is img:
        return palette
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def deflate(data: bytes) -> bytes:
    """``data`` as a zlib stream (what a PNG's IDAT holds)."""
    if isal_zlib is not None:
        return isal_zlib.compress(data, ISAL_LEVEL)
    packer = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, 15, 8, zlib.Z_RLE)
    return packer.compress(data) + packer.flush()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def framed(img: Image.Image) -> bytes:
    """An 8-bit image's rows, each after its filter-type byte (0: none), as a PNG's image data has them."""
    width, height = img.size
    out = Image.new("L", (width + 1, height), 0)  # column 0: the filter bytes
    out.paste(Image.frombytes("L", img.size, img.tobytes()), (1, 0))  # a palette image's indices as they are
    return out.tobytes()


def encode_framed(width: int, height: int, palette: bytes, rows: bytes) -> bytes:
    """An 8-bit palette PNG from its palette (RGB triples) and its ``framed`` rows."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", deflate(rows)), _chunk(b"IEND", b"")))  # fmt: skip


def encode_palette(img: Image.Image) -> bytes:
    """A ``P`` image as an 8-bit palette PNG."""
    if img.mode != "P":
        raise ValueError(f"encode_palette wants a palette image, not {img.mode}")
    highest = img.getextrema()[1]
    colours = int(highest if isinstance(highest, int) else 255) + 1  # entries up to the highest index used
    palette = bytes((img.getpalette() or [])[: 3 * colours]).ljust(3 * colours, b"\0")
    return encode_framed(img.width, img.height, palette, framed(img))


def encode_fixed(width: int, bands: list[bytes]) -> bytes:
    """A PNG in the fixed palette from the ``framed`` rows of its bands, top to bottom (a band can be cached)."""
    rows = b"".join(bands)
    return encode_framed(width, len(rows) // (width + 1), fixed_palette_bytes(), rows)


def to_png(img: Image.Image, palette: bool = True) -> bytes:
    """``img`` as a palette PNG with a palette of its own (``palette=False``: as an RGB PNG, as Pillow writes it)."""
    if img.mode == "RGBA":
        img = img.convert("RGB")
    if palette and img.mode == "RGB":
        return encode_palette(palette_of(img))
    if img.mode == "P":
        return encode_palette(img)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=ZLIB_LEVEL, compress_type=zlib.Z_RLE)
    return buf.getvalue()
