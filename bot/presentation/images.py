"""Images for Discord messages, made by ``render`` off the event loop: in worker processes, one per core, by default
(``bot/presentation/render_pool.py``; the client starts them), else in a thread.

``render`` is imported lazily: while a function is missing (or fails) the bot still works and says it in text;
``None`` means "no image, use the text".  The table, deal and score images draw ``Match.public_view()`` (what the
engine declares public: never a hand); a hand image draws that seat's own ``Match.seat_view``.

Hand and table pictures are kept here, in the bot's process, by what they are drawn from (``picture_key``): a
picture asked for again (a player's hand after each look, a table shown again) is not drawn again, whichever worker
drew it, and a picture asked for while the same one is being drawn waits for that drawing
(``bot/presentation/picture_cache.py``).  The presenter compares the keys too, to leave a message's picture as it
is when it would not change.
"""

from __future__ import annotations

import importlib
import logging
import zlib
from functools import partial
from typing import Any

from bot.i18n import current_language
from bot.presentation.picture_cache import PictureCache, picture_key
from bot.presentation.render_pool import Mode, RenderPool

log = logging.getLogger(__name__)

_warned: set[str] = set()
enabled = True  # tests and benchmarks may turn drawing off to measure the bot alone
pool = RenderPool("threads")  # until the client starts the one its settings choose
pictures = PictureCache()  # hand and table pictures by what they show
stopped = False  # the bot is closing: a drawing that fails then (its thread pool is gone) is no fault


def start(mode: Mode) -> None:
    """Draw where ``mode`` says from now on; worker processes start (and warm up) at once."""
    global pool, stopped
    stopped = False
    pool.close()
    pool = RenderPool(mode)
    pictures.clear()
    pool.start(warm=warm)


def stop() -> None:
    """Shut the workers down (the bot is closing); images are then drawn in a thread."""
    global pool, stopped
    stopped = True
    pool.close()
    pictures.clear()
    pool = RenderPool("threads")


def warm() -> None:
    """Load the fonts and the drawing code's caches in a fresh worker, so that its first real image is not slow."""
    from render.cards import face
    from render.fonts import font
    from render.png import to_png

    font(26, True)
    to_png(face("AS", 116))


def _call(name: str, *args: Any, **kwargs: Any) -> bytes | None:
    """Runs where the pool draws (a worker process, or a thread); a failure is raised back to ``render``."""
    try:
        function = getattr(importlib.import_module("render"), name)
    except (ImportError, AttributeError):
        return None  # ``render`` says which, in the bot's log
    return function(*args, **kwargs)


async def render(
    name: str, *args: Any, urgent: bool = False, affinity: int | None = None, **kwargs: Any
) -> bytes | None:
    """``render.<name>(*args, **kwargs)`` off the event loop; ``urgent`` for an image that answers a player,
    ``affinity`` for pictures best drawn by one worker (``RenderPool.run``).  None (send text instead) when drawing
    is off or fails; a failure is logged here, in the bot's log, not the worker's."""
    if not enabled:
        return None
    try:
        png = await pool.run(partial(_call, name, *args, **kwargs), urgent=urgent, affinity=affinity)
    except Exception:
        if stopped:  # a table's last edit while the bot closes: one line, as for the edit (shutdown.py)
            log.warning("render.%s not drawn: the bot is shutting down", name)
        else:
            log.exception("render.%s failed; sending text instead", name)
        return None
    if png is None and pool.mode != "off" and name not in _warned:
        _warned.add(name)
        log.warning("render.%s is not available; sending text instead", name)
    return png


async def kept(
    name: str, *args: Any, urgent: bool = False, affinity: int | None = None, key: bytes | None = None, **kwargs: Any
) -> bytes | None:
    """``render`` for a picture that is asked for again and again: drawn once per input while it is kept.  ``key``:
    the caller's ``picture_key`` of the same input, when it has one (the presenter has just worked it out to compare
    with what the message shows)."""
    if not enabled:
        return None
    if key is None:
        key = picture_key(name, args, kwargs)
    return await pictures.get(key, lambda: render(name, *args, urgent=urgent, affinity=affinity, **kwargs))


def hand_args(
    game: str, cards: list[str], view: dict[str, Any], legal: set[str] | None, title: str, *, four_colour: bool = False
) -> tuple[tuple, dict[str, Any]]:
    """What ``render.render_hand`` draws a hand from (its input: the cache's key)."""
    kwargs = {
        "trump": view.get("trump") if view.get("trump") != "NT" else None,
        "trump_rank": view.get("trump_rank"),
        "legal": legal,
        "title": title,
        "four_colour": four_colour,
        "lang": current_language.get(),  # the captions: the cards as the player types them
    }
    return (game, cards), kwargs


async def hand_image(
    game: str, cards: list[str], view: dict[str, Any], legal: set[str] | None, title: str, *, four_colour: bool = False
):
    args, kwargs = hand_args(game, cards, view, legal, title, four_colour=four_colour)
    # urgent: the answer to a click waits for it; to whichever worker is least busy.  Sending a player's hands to one
    # worker would keep more of their strips there (render/hand.py), but tripled the table pictures that went to the
    # other worker (drawn there from nothing) in a replay of a 500-table run, which cost more than it saved.
    return await kept("render_hand", *args, urgent=True, **kwargs)


# The images' words are in the language being spoken (bot/i18n: the table's, or the player's).


def table_key(public: dict[str, Any], names: list[str], **kwargs: Any) -> bytes:
    """What ``table_image`` would draw, as a key: equal keys, equal pictures."""
    return picture_key("render_table", (public, names), {"lang": current_language.get(), **kwargs})


def table_affinity(names: list[str], title: str | None) -> int:
    """The same number for every picture of one table (its seats' names and its title, which names the table), so
    that one render worker draws them all and keeps their parts (``render/table_png.py``) drawn."""
    return zlib.crc32(repr((names, title)).encode())


async def table_image(
    public: dict[str, Any], names: list[str], *, key: bytes | None = None, **kwargs: Any
) -> bytes | None:
    """The table's picture; ``key``, when given, is ``table_key`` of the same arguments."""
    affinity = table_affinity(names, kwargs.get("title"))
    return await kept("render_table", public, names, affinity=affinity, key=key, lang=current_language.get(), **kwargs)


async def deal_summary_image(public: dict[str, Any], names: list[str], deal_index: int) -> bytes | None:
    return await render("render_deal_summary", public, names, deal_index, lang=current_language.get())


async def score_sheet_image(public: dict[str, Any], names: list[str]) -> bytes | None:
    return await render("render_score_sheet", public, names, lang=current_language.get())


async def deal_replay_gif(record: Any, deal_index: int, names: list[str], title: str) -> bytes | None:
    """A finished deal as an animated GIF (``bot/presentation/deal_replay.py``), drawn where the pool draws."""
    if not enabled:
        return None
    from bot.presentation.deal_replay import deal_gif

    try:
        return await pool.run(
            partial(deal_gif, record, deal_index, names, title=title, lang=current_language.get()), urgent=True
        )
    except Exception:
        log.exception("the replay of deal %d failed", deal_index + 1)
        return None
