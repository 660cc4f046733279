"""PNG encoding tuned for speed and size.

Encoding a 1040x740 RGB image takes ~15 ms with zlib however it is tuned; reducing it to a 256-colour palette first
makes the encode ~2 ms and the file about a third of the size.  The images are flat colours, anti-aliased edges and
text, so 256 colours are indistinguishable from the original.

Choosing the palette is the costly part (Pillow's fast octree over every pixel: ~7.5 ms for a table), so the
palette is chosen from every third pixel of every third row (a ninth of them: ~1.2 ms) and then every pixel is
mapped to its nearest palette colour (~1 ms).  The flat areas and the blends of their edges are all in the sample;
the mean error per channel stays below one level out of 255, as with the full octree (bench/bench_render.py).
"""

from __future__ import annotations

import io
import zlib

from PIL import Image

# zlib's run-length strategy: the rows of a palette image are long runs of one colour, and RLE finds them in ~2 ms
# where the default search takes ~2.8 ms for a table, for files about a quarter larger (40 KB instead of 31).  CPU
# is what limits the bot; 40 KB is well under what a phone loads at once.
COMPRESS_TYPE = zlib.Z_RLE
COMPRESS_LEVEL = 1  # the level hardly matters with RLE
SAMPLE_STEP = 3  # the palette is chosen from one pixel in SAMPLE_STEP² (see above)


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


def to_png(img: Image.Image, palette: bool = True) -> bytes:
    if img.mode == "RGBA":
        img = img.convert("RGB")
    if palette and img.mode == "RGB":
        img = palette_of(img)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=COMPRESS_LEVEL, compress_type=COMPRESS_TYPE)
    return buf.getvalue()
