"""A four-colour pack per player (issue 15 item 7): ``/player settings four_colour:true`` redraws that player's own
hand with diamonds blue and clubs green; the other players' pictures keep the two-colour pack."""

from __future__ import annotations

import io

from PIL import Image

from render.theme import SUIT_COLOURS, SUIT_COLOURS_FOUR
from tests.botkit.harness import bot_world


def _count(png: bytes, colour: tuple[int, int, int]) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    pixels = image.get_flattened_data()
    return sum(1 for pixel in pixels if all(abs(a - b) <= 6 for a, b in zip(pixel, colour, strict=True)))


def _hand_png(world, user) -> bytes:
    dm = next(m for m in reversed(world.dms(user)) if m.attachments)
    return dm.attachments[0].data


async def test_a_player_chooses_the_four_colour_pack_for_their_own_hand(tmp_path):
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "belote")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        table = next(iter(client.manager.tables.values()))
        hand = table.match.seat_view(table.seat_of(world.alice.id))["hand"]
        assert any(card[-1] in "DC" for card in hand), hand  # (this deal gives her diamonds or clubs)
        blue, green = SUIT_COLOURS_FOUR["D"], SUIT_COLOURS_FOUR["C"]
        before = _hand_png(world, world.alice)
        assert _count(before, blue) + _count(before, green) == 0

        r = await world.slash(world.alice, "player", {"four_colour": True}, subcommand="settings")
        assert r.ephemeral and "four colours" in r.content
        await world.settle(client)
        after = _hand_png(world, world.alice)
        assert after != before and _count(after, blue) + _count(after, green) > 0
        assert _count(after, SUIT_COLOURS["D"]) < _count(before, SUIT_COLOURS["D"])  # diamonds are no longer red
        # Bob's picture is his own choice: still two colours.
        bob = _hand_png(world, world.bob)
        assert _count(bob, blue) + _count(bob, green) == 0
        # The setting is kept.
        r = await world.slash(world.alice, "player", {}, subcommand="settings")
        assert "four colours" in r.content
