"""Frames to an animated GIF: pure Pillow, images in, GIF bytes out.

Discord animates a GIF attachment (not an APNG), so a deal's replay is a GIF.  Every frame is mapped to one shared
palette of 255 colours, chosen once from a sample of all the frames: the images are flat colours, anti-aliased edges
and text (as ``render.png`` explains), so one palette fits them all, and a colour never flickers from frame to frame
as it would with a palette per frame.  Pillow then stores each frame after the first as the rectangle that changed,
its unchanged pixels transparent, which keeps a deal of fifty frames under a megabyte.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

# One pixel in SAMPLE_STEP² of each sampled frame goes into the palette's sample (as in render.png); at most
# SAMPLE_FRAMES frames, spread over the animation, so that colours that appear late (a trump's gold) are included.
SAMPLE_STEP = 3
SAMPLE_FRAMES = 6
# One palette entry is left free: Pillow makes it the transparent colour that marks a frame's unchanged pixels.
COLOURS = 255


def shared_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """A palette image whose 256 colours are chosen from a sample of ``frames`` (RGB, all the same size)."""
    spread = sorted({round(i * (len(frames) - 1) / max(1, SAMPLE_FRAMES - 1)) for i in range(SAMPLE_FRAMES)})
    picks = [frames[i] for i in spread]  # a short animation samples each frame once
    w, h = frames[0].width // SAMPLE_STEP, frames[0].height // SAMPLE_STEP
    sample = Image.new("RGB", (w, h * len(picks)))
    for i, frame in enumerate(picks):
        sample.paste(frame.resize((w, h), Image.Resampling.NEAREST), (0, i * h))  # picks pixels, blends none
    return sample.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def same_size(frames: Sequence[Image.Image]) -> list[Image.Image]:
    """``frames`` (RGB) on canvases of the largest frame's size: a smaller one (a table without the band under its
    felt, say) is extended right and down in the colour of its own bottom-left corner, its background."""
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    out = []
    for frame in frames:
        if frame.size != (width, height):
            canvas = Image.new("RGB", (width, height), frame.getpixel((0, frame.height - 1)))
            canvas.paste(frame, (0, 0))
            frame = canvas
        out.append(frame)
    return out


def to_gif(frames: Sequence[Image.Image], durations_ms: Sequence[int], *, loop: bool = True) -> bytes:
    """An animated GIF of ``frames``, each shown for its duration; it starts again after the last frame when
    ``loop``."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if len(durations_ms) != len(frames):
        raise ValueError(f"{len(frames)} frames but {len(durations_ms)} durations")
    rgb = same_size([frame.convert("RGB") if frame.mode != "RGB" else frame for frame in frames])
    palette = shared_palette(rgb)
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in rgb]
    buf = io.BytesIO()
    extra = {"loop": 0} if loop else {}
    indexed[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=list(durations_ms),
        disposal=1,  # each frame stays under the next, which then only stores what changed
        optimize=True,  # ... as a rectangle in which the unchanged pixels are transparent (long runs: cheap)
        **extra,
    )
    return buf.getvalue()
