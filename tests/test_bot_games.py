"""Whole games of every game through the offline Discord, humans and computer players together.

Humans pick random legal actions, acting as a user would: the My hand button then a button or a select menu, or a
slash command (with autocomplete) every few moves.  Short targets keep each game to a few deals.
"""

from __future__ import annotations

import pytest

from rules.registry import match_class
from tests.botkit.harness import bot_world, play_to_the_end

GAMES = [
    # (game choice, options text, humans, computers)
    ("200", "target=100", 2, 2),
    ("500", "", 2, 1),
    ("belote", "target=300", 2, 2),
    ("dabaifen", "start_level=K", 1, 3),
]


def available(choice: str) -> bool:
    from bot.tables.presets import game_id

    try:
        match_class(game_id(choice))
    except Exception:
        return False
    return True


@pytest.mark.parametrize(("game", "options", "humans", "computers"), GAMES)
async def test_a_whole_game(tmp_path, game, options, humans, computers):
    if not available(game):
        pytest.skip(f"{game} engine not built yet")
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        lobby = await world.new_table(world.alice, game, options=options or None)
        for user in (world.bob, world.carol, world.dan)[: humans - 1]:
            r = await world.click(user, lobby, "join")
            assert r.callback_type == 7, r.content
        for _ in range(computers):
            await world.click(world.alice, lobby, "cpu")
        r = await world.click(world.alice, lobby, "start")
        assert r.callback_type == 7, r.content
        table = await play_to_the_end(world, client, 1, seed=5)
        await world.settle(client)
        assert table.match.phase == "game_over"
        assert (await client.store.load_table(1)).status == "finished"
        stored = await client.store.load_record(table.row)
        assert stored.to_json() == table.record.to_json()
        sheet = await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.content)
        assert "table #1" in sheet.content
        # one table message per deal; the earlier ones show how their deal ended (not a stale turn: the scores
        # after it, the picture of its end) and point to the newer
        over = [m for m in world.fake.messages(world.channel) if "goes on below" in m.content]
        assert len(over) == len(table.record.deals) - 1
        assert all(m.components == [] for m in over)
        for deal, message in enumerate(over, start=1):
            assert f"deal {deal} is over. " in message.content and "scores now: " in message.content, message.content
            assert [a.filename for a in message.attachments] == [f"table-1-{deal}.png"]
        # every deal's hand went to each human by DM (Da Bai Fen: once the drawing was over) ...
        hand_dms = [m for m in world.dms(world.alice) if "**Your hand**" in m.content]
        assert len(hand_dms) == len(table.record.deals)
        # ... and only to its owner: never into the channel
        for message in world.fake.messages(world.channel):
            assert "Your hand" not in message.content
        assert world.fake.unknown_routes == []
