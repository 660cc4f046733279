"""A table message that has fallen behind the game: its next edit goes ahead of the other work that may wait
(bot/process/lanes.py), and one that keeps up waits its turn as before."""

from __future__ import annotations

from bot.presentation import presenter as presenter_module
from bot.tables.urgency import AHEAD, LATER
from tests.botkit.harness import bot_world, play_to_the_end, table_message


async def test_an_edit_that_shows_a_move_older_than_the_limit_goes_ahead_and_the_others_wait_their_turn(
    tmp_path, monkeypatch
):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.five_hundred_with_a_computer(client)
        lanes: list[tuple[bool, bool]] = []
        edit = client.presenter._edit_table_message

        async def noted(t):  # in which lane the edit's steps go
            lanes.append((LATER.get(), AHEAD.get()))
            await edit(t)

        monkeypatch.setattr(client.presenter, "_edit_table_message", noted)
        client.presenter.refresh(table)
        await world.settle(client)
        assert lanes and lanes[-1] == (True, False)  # it kept up: it waits its turn with the other waiting work

        monkeypatch.setattr(presenter_module, "LATE_EDIT", 0.0)  # every move shown is now "late"
        lanes.clear()
        version, edits = table.version, len(table_message(world, table).edits)
        await play_to_the_end(world, client, 1, stop=lambda t: t.version > version)
        await world.settle(client)
        assert lanes and all(lane == (True, True) for lane in lanes)  # still work that may wait, but ahead
        assert len(table_message(world, table).edits) > edits  # and the message was edited
