"""Pictures are drawn once per thing shown: an unchanged table picture is neither drawn nor uploaded again, a hand
asked for again is not drawn again, and players still see their newest hand and table."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.presentation import images
from bot.presentation.live_hands import hand_image, hand_text
from bot.presentation.picture_cache import PictureCache, picture_key
from tests.botkit.harness import bot_world, play_to_the_end, table_message

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def drawn(monkeypatch) -> Counter:
    """The pictures actually drawn (asked of the render pool), by render function."""
    counted: Counter = Counter()
    draw = images.render

    async def counting(name, *args, **kwargs):
        counted[name] += 1
        return await draw(name, *args, **kwargs)

    monkeypatch.setattr(images, "render", counting)
    return counted


async def test_an_unchanged_table_picture_is_not_drawn_or_uploaded_again(tmp_path, drawn):
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await world.five_hundred_with_a_computer(client)
        client.presenter.refresh(table)  # a first edit by the presenter: the message's picture is now its own
        await world.settle(client)
        message = table_message(world, table)
        picture = message.attachments[0]
        assert picture.data.startswith(PNG)
        edits, tables_drawn = len(message.edits), drawn["render_table"]

        client.presenter.refresh(table)  # nothing changed (a clock's refresh, say)
        await world.settle(client)
        assert len(message.edits) == edits + 1  # the words and buttons are edited as before
        assert drawn["render_table"] == tables_drawn  # the picture is not drawn again
        assert [a.id for a in message.attachments] == [picture.id]  # nor uploaded: the message keeps its own

        version = table.version
        await play_to_the_end(world, client, 1, stop=lambda t: t.version > version)
        await world.settle(client)
        assert drawn["render_table"] > tables_drawn  # a move: the new table is drawn and shown
        assert message.attachments[0].id != picture.id
        assert message.attachments[0].data.startswith(PNG) and message.attachments[0].data != picture.data


async def test_a_hand_asked_for_again_is_not_drawn_again_and_the_newest_hand_is_shown(tmp_path, drawn):
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await world.five_hundred_with_a_computer(client)
        seat = table.seat_of(world.alice.id)
        dm = world.dms(world.alice)[-1]
        dealt = dm.attachments[0].data
        hands_drawn = drawn["render_hand"]
        first = await world.click(world.alice, table_message(world, table), "hand")  # "My hand", twice
        second = await world.click(world.alice, table_message(world, table), "hand")
        assert first.message.attachments[0].data == second.message.attachments[0].data == dealt
        assert drawn["render_hand"] == hands_drawn  # the DM's picture, kept: drawn once for all three

        cards = list(table.match.seat_view(seat)["hand"])
        await play_to_the_end(world, client, 1, stop=lambda t: list(t.match.seat_view(seat)["hand"]) != cards)
        await world.settle(client)
        assert drawn["render_hand"] > hands_drawn  # a card played: the new hand is drawn
        newest = await hand_image(table, seat, hand_text(table, seat).image_key)
        assert newest is not None and newest != dealt
        assert dm.attachments[0].data == newest  # and the DM hand shows it


async def test_the_key_tells_pictures_apart_and_a_failed_drawing_is_not_kept():
    assert picture_key("render_hand", ("g", ["AS"]), {"legal": {"AS", "KS"}}) == picture_key(
        "render_hand", ("g", ["AS"]), {"legal": {"KS", "AS"}}
    )
    assert picture_key("render_hand", ("g", ["AS"]), {"lang": "fr"}) != picture_key(
        "render_hand", ("g", ["AS"]), {"lang": "en"}
    )
    cache, calls = PictureCache(budget=10), []

    async def draw(png):
        calls.append(png)
        return png

    assert await cache.get(b"k", lambda: draw(None)) is None
    assert await cache.get(b"k", lambda: draw(b"12345")) == b"12345"  # None was not kept: drawn again
    assert await cache.get(b"k", lambda: draw(b"other")) == b"12345"  # kept
    assert await cache.get(b"j", lambda: draw(b"678901")) == b"678901"  # over the budget: the oldest goes
    assert cache.peek(b"k") is None and cache.size == 6
    assert calls == [None, b"12345", b"678901"]
