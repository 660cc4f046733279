"""Images for Discord messages, made by ``render`` in a worker thread so that drawing never blocks the event loop.

``render`` is imported lazily: while a function is missing (or fails) the bot still works and says it in text;
``None`` means "no image, use the text".  The table, deal and score images draw ``Match.public_view()`` (what the
engine declares public: never a hand); a hand image draws that seat's own ``Match.seat_view``.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from typing import Any

log = logging.getLogger(__name__)

_warned: set[str] = set()
enabled = True  # tests and benchmarks may turn drawing off to measure the bot alone


def _call(name: str, *args: Any, **kwargs: Any) -> bytes | None:
    if not enabled:
        return None
    try:
        function = getattr(importlib.import_module("render"), name)
    except (ImportError, AttributeError):
        if name not in _warned:
            _warned.add(name)
            log.warning("render.%s is not available; sending text instead", name)
        return None
    try:
        return function(*args, **kwargs)
    except Exception:
        log.exception("render.%s failed; sending text instead", name)
        return None


async def render(name: str, *args: Any, **kwargs: Any) -> bytes | None:
    if not enabled:
        return None
    return await asyncio.to_thread(_call, name, *args, **kwargs)


async def hand_image(game: str, cards: list[str], view: dict[str, Any], legal: set[str] | None, title: str):
    return await render(
        "render_hand",
        game,
        cards,
        trump=view.get("trump") if view.get("trump") != "NT" else None,
        trump_rank=view.get("trump_rank"),
        legal=legal,
        title=title,
    )


async def table_image(public: dict[str, Any], names: list[str], **kwargs: Any) -> bytes | None:
    return await render("render_table", public, names, **kwargs)


async def deal_summary_image(public: dict[str, Any], names: list[str], deal_index: int) -> bytes | None:
    return await render("render_deal_summary", public, names, deal_index)


async def score_sheet_image(public: dict[str, Any], names: list[str]) -> bytes | None:
    return await render("render_score_sheet", public, names)
