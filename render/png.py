"""PNG encoding tuned for speed and size.

Encoding a 1040x740 RGB image takes ~20 ms with zlib however it is tuned; reducing it to a 256-colour palette first
(Pillow's fast octree, no dithering: ~5 ms) makes the encode ~2 ms and the file about a third of the size.  The
images are flat colours, anti-aliased edges and text, so 256 colours are indistinguishable from the original.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 3  # zlib level: 3 is as small as 6 here for palette images, and faster


def to_png(img: Image.Image, palette: bool = True) -> bytes:
    if img.mode == "RGBA":
        img = img.convert("RGB")
    if palette and img.mode == "RGB":
        img = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
